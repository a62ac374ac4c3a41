import fg from "fast-glob";
import { warning, type Diagnostic } from "../diagnostics.js";
import type { DiscoverResult } from "../types.js";
import { loadConfig } from "./config.js";

/** Reads the configuration and lists candidate modules: POSIX paths relative to the root, sorted. */
export async function discover(root: string, overrides?: Record<string, unknown>): Promise<DiscoverResult> {
  const { config, diagnostics } = loadConfig(root, overrides);
  const found = await fg([...config.include], {
    cwd: root,
    ignore: [...config.exclude, `${config.outDir}/**`, "**/node_modules/**"],
    onlyFiles: true,
    followSymbolicLinks: false,
    dot: false,
  });
  // fast-glob's order depends on the file system; everything downstream sees one order.
  const files = found.map((f) => f.replaceAll("\\", "/")).sort();
  const all: Diagnostic[] = [...diagnostics];
  if (files.length === 0) {
    all.push(
      warning(
        "CAVE2005",
        `no file matches include ${JSON.stringify(config.include)}`,
        "Check the include and exclude globs in the configuration.",
      ),
    );
  }
  return { config, files, diagnostics: all };
}
