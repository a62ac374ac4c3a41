import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { error, type Diagnostic } from "../diagnostics.js";
import type { CaveConfig } from "../types.js";
import { readOptions, type Rules } from "../../src/contract/options.js";
import { jsonParseMessage } from "../../runtime/sandbox/node-features.js";
import { ISOLATION_SETTINGS } from "../../runtime/sandbox/isolation.js";

export const CONFIG_FILE = "cave.config.json";
export const CONFIG_KEYS = [
  "include",
  "exclude",
  "lock",
  "outDir",
  "journal",
  "assets",
  "isolation",
  "external",
] as const;

/**
 * What a project without configuration gets: every TypeScript module (.ts, .tsx, .mts, .cts) except tests and
 * declarations.
 */
export const DEFAULT_CONFIG: CaveConfig = Object.freeze({
  include: Object.freeze(["**/*.{ts,tsx,mts,cts}"]),
  exclude: Object.freeze([
    "**/node_modules/**",
    "**/*.d.{ts,mts,cts}",
    "**/*.d.*.ts",
    "**/*.{test,spec}.{ts,tsx,mts,cts}",
    "**/*.test-d.{ts,tsx}",
  ]),
  lock: "cave.lock",
  outDir: ".cave",
});

export interface ConfigResult {
  readonly config: CaveConfig;
  readonly diagnostics: Diagnostic[];
}

function readJson(root: string, file: string, diagnostics: Diagnostic[]): unknown {
  try {
    return JSON.parse(readFileSync(join(root, file), "utf8"));
  } catch (thrown) {
    diagnostics.push(
      error("CAVE2002", `${file} is not valid JSON: ${jsonParseMessage(thrown)}`, "Fix the JSON syntax.", { file }),
    );
    return undefined;
  }
}

/** Reads cave.config.json or the "cave" key of package.json, then applies overrides (from build options) over the defaults. */
export function loadConfig(root: string, overrides: Record<string, unknown> | undefined): ConfigResult {
  const diagnostics: Diagnostic[] = [];
  let source: { file: string; value: unknown } | undefined;
  const hasConfigFile = existsSync(join(root, CONFIG_FILE));
  if (hasConfigFile) source = { file: CONFIG_FILE, value: readJson(root, CONFIG_FILE, diagnostics) };
  if (existsSync(join(root, "package.json"))) {
    const pkg = readJson(root, "package.json", diagnostics) as Record<string, unknown> | undefined;
    if (pkg && typeof pkg === "object" && "cave" in pkg) {
      if (hasConfigFile) {
        diagnostics.push(
          error(
            "CAVE2003",
            `both ${CONFIG_FILE} and the "cave" key of package.json configure Cave`,
            "Keep one of them.",
            { file: "package.json" },
          ),
        );
      } else source = { file: "package.json", value: pkg.cave };
    }
  }
  const merged: Record<string, unknown> = { ...DEFAULT_CONFIG };
  for (const layer of [source, overrides === undefined ? undefined : { file: null, value: overrides }]) {
    if (!layer || layer.value === undefined) continue;
    const at = { file: layer.file };
    const what =
      layer.file === null
        ? "build option config"
        : layer.file === "package.json"
          ? 'the "cave" key of package.json'
          : layer.file;
    const problems = readOptions(layer.value, CONFIG_RULES);
    const refused = new Set<string>();
    for (const problem of problems) {
      if (problem.kind === "not-object")
        diagnostics.push(
          error("CAVE2002", `${what} is not an object`, 'Write it as { "include": ["tools/**/*.ts"] }.', at),
        );
      else if (problem.kind === "unknown")
        diagnostics.push(error("CAVE2001", `${what} has an unknown key "${problem.key}"`, problem.hint, at));
      else diagnostics.push(error("CAVE2004", `${what}: ${problem.key} ${problem.mustBe}`, problem.hint ?? "", at));
      if (problem.kind !== "not-object") refused.add(problem.key);
    }
    if (problems.some((problem) => problem.kind === "not-object")) continue;
    for (const [key, value] of Object.entries(layer.value as Record<string, unknown>)) {
      if (!refused.has(key))
        merged[key] = key === "lock" || key === "outDir" ? posix.normalize(String(value)).replace(/\/$/, "") : value;
    }
  }
  const config = merged as unknown as CaveConfig;
  for (const key of ["lock", "outDir"] as const) {
    const value = config[key];
    if (
      value.startsWith("/") ||
      /^[A-Za-z]:/.test(value) ||
      value === ".." ||
      value.startsWith("../") ||
      value === "."
    ) {
      diagnostics.push(
        error(
          "CAVE2006",
          `${key} "${value}" is not a relative path inside the project`,
          `Use a path such as "${DEFAULT_CONFIG[key]}".`,
          { file: source?.file ?? null },
        ),
      );
    }
  }
  if (config.lock === config.outDir || config.lock.startsWith(`${config.outDir}/`)) {
    diagnostics.push(
      error(
        "CAVE2006",
        `lock "${config.lock}" lies inside outDir "${config.outDir}"`,
        "The build folder is replaced whole on every build; keep the lock outside it.",
        { file: source?.file ?? null },
      ),
    );
  }
  return { config, diagnostics };
}

const VALUE_HINTS: Record<string, string> = {
  include: 'Give include as an array of globs, e.g. ["tools/**/*.ts"].',
  exclude: 'Give exclude as an array of globs, e.g. ["tools/**/*.ts"].',
  assets: 'Give assets as an array of globs, e.g. ["data/*.json"].',
  external:
    'Give external as an array of the names of installed packages that are not bundled, e.g. ["better-sqlite3"].',
  isolation:
    'Use "auto" (the OS layer where it starts, else the Node layers, said loudly), "os" (refuse to run without it) or "node".',
};

// An npm package name (scoped or not), without a subpath: what package-lock.json lists under node_modules/.
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** Each key of cave.config.json with what its value must be, and the hint that says how to write it. */
const CONFIG_RULES: Rules = Object.fromEntries(
  CONFIG_KEYS.map((key) => [
    key,
    {
      check: (value: unknown) => checkValue(key, value),
      hint: VALUE_HINTS[key] ?? `Give ${key} as a relative path string.`,
    },
  ]),
);

function checkValue(key: string, value: unknown): string | undefined {
  if (key === "external") {
    if (!Array.isArray(value) || value.some((name) => typeof name !== "string" || !PACKAGE_NAME.test(name)))
      return "must be an array of package names (no path inside a package, no version)";
    if (new Set(value).size !== value.length) return "must not name a package twice";
    if (value.includes("cave")) return 'must not name "cave": the SDK is staged once as its own module';
    return undefined;
  }
  if (key === "isolation")
    return (ISOLATION_SETTINGS as readonly unknown[]).includes(value)
      ? undefined
      : `must be "os", "auto" or "node" (got ${JSON.stringify(value) ?? String(value)})`;
  if (key === "include" || key === "exclude" || key === "assets") {
    if (!Array.isArray(value) || value.some((g) => typeof g !== "string" || g === ""))
      return "must be an array of non-empty glob strings";
    if (key === "assets" && value.some((g: string) => g.startsWith("/") || g.split("/").includes("..")))
      return "must hold globs inside the project (no absolute path, no ..)";
    if (key === "include" && value.length === 0) return "must not be empty";
    return undefined;
  }
  return typeof value === "string" && value !== "" ? undefined : "must be a non-empty string";
}
