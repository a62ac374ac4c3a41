#!/usr/bin/env node
import { main } from "./main.js";
import { processIO } from "./io.js";
import { escapeControls } from "./safe-text.js";

main(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (thrown) => {
    process.stderr.write(
      escapeControls(`cave: internal error: ${thrown instanceof Error ? thrown.stack : String(thrown)}\n`, false),
    );
    process.exitCode = 70;
  },
);
