#!/usr/bin/env node
import { main } from "./main.js";
import { processIO } from "./io.js";

main(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (thrown) => {
    process.stderr.write(`cave: internal error: ${thrown instanceof Error ? thrown.stack : String(thrown)}\n`);
    process.exitCode = 70;
  },
);
