import { assertEvaluateOptions } from "../options.js";
import { CODES, type CaveCode } from "../../src/contract/codes.js";
import { existsSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { describeThrown, error, stripRoot, type Diagnostic } from "../diagnostics.js";
import { packageRoot } from "../package-root.js";
import type {
  AnalyseResult,
  EvaluatedAgent,
  EvaluatedTool,
  EvaluateResult,
  StagedModule,
  StageResult,
} from "../types.js";
import { childScript } from "./child-script.js";
import { crossCheck, exportKey } from "./cross-check.js";
import { decodeAgent, decodeTool, isChildMessage, Undecodable } from "./decode.js";
import { checkOpaqueValidators } from "./lock-rules.js";
import { importAll, type Job, type Outcome } from "./pool.js";
import { thrownAt, type ThrownAt } from "./thrown-at.js";
import type { ExportReport } from "./protocol.js";
import { evaluationLaunch } from "./launch.js";
import type { IsolationSetting } from "../../runtime/sandbox/isolation.js";
import { PrivateCopy } from "../../runtime/loading/private-copy.js";
import { topLevel } from "../../runtime/loading/externals.js";
import { NO_CACHE, type PassCache } from "../cache/pass-cache.js";

export interface EvaluateOptions {
  /** Hard limit for importing one staged module, in ms (default 10000). */
  readonly timeoutMs?: number | undefined;
  /**
   * What importing a bundle exported, by the bundle's sha256 (and the time limit): an unchanged bundle is not
   * imported again. Only successful imports are cached; the cross-check against analysis runs every time.
   */
  readonly cache?: PassCache<readonly ExportReport[]> | undefined;
  /** The project configuration's isolation setting (CAVE_ISOLATION wins over it; default "auto"). */
  readonly isolation?: IsolationSetting | undefined;
}

export const DEFAULT_EVALUATE_TIMEOUT_MS = 10_000;

/** How a native addon's load is refused in an evaluation child: by the deny layer, or by Node itself. */
const ADDON_REFUSED = /process\.dlopen is denied|ERR_DLOPEN_DISABLED|loading addons is disabled/;
const ADDON_HINT =
  'The module loads a native addon while it is imported. cave build allows that only for a module whose native package is listed in cave.config.json "external", and only under the sandbox\'s OS layer (bubblewrap: apt-get install bubblewrap; CAVE_ISOLATION=auto or os). Otherwise import the package inside execute.';
const UNREADABLE_HINT =
  "Schemas must be plain JSON Schema data (schema.* values) or Standard Schema validators that can be converted to draft-07; keep functions, class instances and transforms out of what the lock records.";

/**
 * Imports the staged bundles in a child process (empty environment, permission model, hard time limit
 * per module) to read the tool and agent definitions they export, without calling `execute`. Every
 * definition is cross-checked against what analysis read from the source, and opaque validators
 * without a semantics hash are refused. A module that throws, hangs or exits is a diagnostic naming it.
 * Bundles are imported by file URL from a private copy of their bytes, as the runtime imports them; each child imports
 * the SDK module once, deep-frozen, and a bundle that does not import cleanly with it is judged in a child of its own
 * (pool.ts), which is what the runtime's sandbox does.
 */
export async function evaluate(
  root: string,
  staged: StageResult,
  analysed: AnalyseResult,
  options: EvaluateOptions = {},
): Promise<EvaluateResult> {
  // The loop over modules below names each one `staged`; thrownAt needs the whole result.
  const stagedResult = staged;
  assertEvaluateOptions(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_EVALUATE_TIMEOUT_MS;
  const cache = options.cache ?? NO_CACHE;
  const modules = [...staged.modules.values()].sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0));
  if (modules.length === 0) return { tools: [], agents: [], diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const outcomes = new Map<
    string,
    Exclude<Outcome, { type: "imported" }> | { readonly type: "imported"; readonly exports: readonly ExportReport[] }
  >();
  const copy = new PrivateCopy();
  try {
    // An external package the modules import must be installed to import them (CAVE5161), as at run time.
    const missing = missingExternals(root, staged);
    if (missing.length > 0)
      return {
        tools: [],
        agents: [],
        diagnostics: [
          error(
            "CAVE5161",
            `the tool modules import external packages that are not installed in the project's node_modules: ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? `, and ${missing.length - 3} more` : ""}`,
            "Install the project's dependencies as package-lock.json pins them (npm ci) and build again: the build imports each tool module to read its definitions.",
            { file: "cave.config.json" },
          ),
        ],
      };
    const jobs: Job[] = [];
    // The SDK module is part of what a bundle runs: an evaluation cached for a bundle holds only with the same SDK.
    const sdk = staged.sdkModule;
    for (const { module, bundlePath, sha256 } of modules) {
      // A cached entry is checked like a child's reply (and then decoded like one), so a bad entry is only a miss.
      const exports = cache.get([sha256, sdk?.sha256 ?? null, timeoutMs]);
      if (isChildMessage({ type: "imported", module, exports }))
        outcomes.set(module, { type: "imported", exports: exports! });
      else {
        // A module with external packages: its own child, where (under the OS layer) their native addons may load.
        const external = (staged.modules.get(module)!.externals ?? []).length > 0;
        jobs.push({ module, label: bundlePath, url: "", alone: external, addons: external });
      }
    }
    if (jobs.length > 0) {
      // Children that serve modules in turn while no module changes what the next one sees (pool.ts), under the OS layer
      // where the isolation setting asks for it. The bundles are
      // imported as the runtime imports them: by file URL, from a private copy of the very bytes the build folder will
      // hold, each bundle importing the one SDK module by its relative path.
      const launch = await evaluationLaunch(options.isolation);
      if ("unavailable" in launch)
        return {
          tools: [],
          agents: [],
          diagnostics: [
            error(
              "CAVE5160",
              launch.unavailable,
              'Install bubblewrap (apt-get install bubblewrap), allow it to create namespaces here, or set CAVE_ISOLATION=auto (or isolation "auto" in cave.config.json) to evaluate with the Node layers only.',
            ),
          ],
        };
      const sdkUrl = sdk === undefined ? undefined : pathToFileURL(await copy.add(sdk.path, sdk.code)).href;
      // A module may read the files staged next to it while it is imported, as at run time.
      await Promise.all([...(staged.assets ?? [])].map(([path, asset]) => copy.add(path, asset.content)));
      // External packages are imported from the project's node_modules, linked into the copy as the runtime links them.
      const alsoReadable = await linkExternals(root, staged, copy);
      const located = jobs.map((job) => ({
        ...job,
        url: pathToFileURL(copy.pathOf(job.label)).href,
        place: () => copy.add(job.label, staged.modules.get(job.module)!.code),
      }));
      const imported = await importAll(located, await childScript(), {
        timeoutMs,
        cwd: root,
        copy: { base: `${copy.dir}${sep}`, baseUrl: copy.url },
        sdkUrl,
        launch,
        alsoReadable,
      });
      for (const [module, outcome] of imported) {
        outcomes.set(module, outcome);
        if (outcome.type === "imported")
          cache.set([staged.modules.get(module)!.sha256, sdk?.sha256 ?? null, timeoutMs], outcome.exports);
      }
    }
  } catch (thrown) {
    const message = `build-time evaluation failed unexpectedly: ${describeThrown(thrown, root)}`;
    return {
      tools: [],
      agents: [],
      diagnostics: [error("CAVE5003", message, "This is a bug in cave build; report it with the message.")],
    };
  } finally {
    copy.dispose();
  }

  const tools: EvaluatedTool[] = [];
  const agents: EvaluatedAgent[] = [];
  const imported = new Set<string>();
  const unreadable = new Set<string>();
  for (const staged of modules) {
    const outcome = outcomes.get(staged.module) ?? { type: "ended", detail: "it never answered" };
    if (outcome.type !== "imported") {
      // A module that threw (not an SDK rule, not process.exit): where, in its original source or a package's.
      const where =
        outcome.type === "threw" && outcome.stack !== null && outcome.exitCode === null && outcome.rule === null
          ? await thrownAt(outcome.stack, copy.dir, root, stagedResult)
          : undefined;
      diagnostics.push(moduleFailure(root, staged, outcome, timeoutMs, analysed, where));
      continue;
    }
    imported.add(staged.module);
    for (const report of outcome.exports) {
      const subject = `${staged.module} export ${report.exportName}`;
      try {
        if (report.kind === "unreadable") throw new Undecodable(report.message);
        if (report.kind === "tool") tools.push(decodeTool(staged.module, report.exportName, report.tool));
        else agents.push(decodeAgent(staged.module, report.exportName, report.agent));
      } catch (thrown) {
        unreadable.add(exportKey(staged.module, report.exportName));
        const what = report.kind === "unreadable" ? report.what : report.kind;
        const why = thrown instanceof Undecodable ? thrown.message : describeThrown(thrown, root);
        const code =
          report.kind === "unreadable" && report.code !== null && report.code in CODES
            ? (report.code as CaveCode)
            : "CAVE5004";
        const hint = report.kind === "unreadable" && report.hint !== null ? report.hint : UNREADABLE_HINT;
        const problem = code === "CAVE5004" ? "cannot be read as data" : "breaks a rule only the build can check";
        diagnostics.push(
          error(
            code,
            `${what} ${subject} ${problem}: ${clean(why, root, staged)}`,
            hint,
            at(analysed, staged.module, report.exportName),
          ),
        );
      }
    }
  }

  const checked = crossCheck(tools, agents, analysed, { imported, unreadable });
  diagnostics.push(...checked.diagnostics, ...checkOpaqueValidators(checked.tools, analysed));
  const byExport = <T extends { module: string; exportName: string }>(a: T, b: T) => {
    const x = exportKey(a.module, a.exportName);
    const y = exportKey(b.module, b.exportName);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  return { tools: [...checked.tools].sort(byExport), agents: [...checked.agents].sort(byExport), diagnostics };
}

/** The pinned external packages not installed where the lock says ("better-sqlite3 12.11.1 (node_modules/better-sqlite3)"). */
function missingExternals(root: string, staged: StageResult): string[] {
  // A platform package (optional) of another OS or CPU is not installed here, and is not needed here.
  return Object.entries(staged.externals ?? {})
    .filter(([path, pin]) => !pin.optional && !existsSync(join(root, ...path.split("/"), "package.json")))
    .map(([path, pin]) => `${pin.name} ${pin.version} (${path})`);
}

/** Links the staged modules' external packages into the copy's node_modules; the real folders the child must read. */
export async function linkExternals(root: string, staged: StageResult, copy: PrivateCopy): Promise<string[]> {
  const pins = staged.externals;
  if (pins === undefined) return [];
  const installed = Object.entries(pins)
    .filter(([path, pin]) => !pin.optional || existsSync(join(root, ...path.split("/"), "package.json")))
    .map(([path, pin]) => ({ path, name: pin.name, real: realpathSync(join(root, ...path.split("/"))) }));
  await Promise.all(topLevel(installed).map((one) => copy.link(`node_modules/${one.name}`, one.real)));
  return installed.map((one) => `${one.real}${sep}`);
}

function moduleFailure(
  root: string,
  staged: StagedModule,
  outcome: Exclude<Outcome, { type: "imported" }>,
  timeoutMs: number,
  analysed: AnalyseResult,
  where: ThrownAt | undefined,
): Diagnostic {
  const at = { file: staged.module };
  switch (outcome.type) {
    case "threw":
      if (outcome.exitCode !== null) {
        return error(
          "CAVE5003",
          `${staged.module} called process.exit(${outcome.exitCode}) while being imported at build time`,
          "Tool modules must not exit the process at import time; throw an error instead, or move the check into execute.",
          at,
        );
      }
      if (outcome.rule !== null && outcome.rule.code in CODES) {
        return error(
          outcome.rule.code as CaveCode,
          `${staged.module}: ${clean(outcome.message, root, staged)
            .replace(/^CaveError: CAVE1\d{3} /, "")
            .replace(` ${outcome.rule.hint}`, "")} (thrown while the module was imported at build time)`,
          outcome.rule.hint,
          ruleLocation(analysed, staged.module, outcome.rule.subject),
        );
      }
      return error(
        "CAVE5001",
        `${staged.module} threw while being imported at build time: ${clean(outcome.message, root, staged)}${thrownWhere(where)}`,
        ADDON_REFUSED.test(outcome.message)
          ? ADDON_HINT
          : "Build-time evaluation imports the module with an empty environment and no file system access, and never calls execute; move work that needs those into execute.",
        where === undefined || where.package !== null
          ? at
          : { file: where.file, line: where.line, column: where.column },
      );
    case "timeout":
      return error(
        "CAVE5002",
        `importing ${staged.module} did not finish within ${timeoutMs} ms, so the evaluation process was killed`,
        "Remove the loop or never-settling await from module scope (start long work inside execute), or raise the build's evaluateTimeoutMs if the module is just slow.",
        at,
      );
    case "ended":
      return error(
        "CAVE5003",
        `the build-time evaluation process ended while importing ${staged.module}: ${clean(outcome.detail, root, staged)}`,
        "Tool modules must not end or crash the process at import time (process.exit, process.kill, process.abort, native crashes); move that code into execute.",
        at,
      );
  }
}

/** Where a module threw, for CAVE5001's message: the package and its file, or the project file, with the original line. */
function thrownWhere(where: ThrownAt | undefined): string {
  if (where === undefined) return "";
  const position = `${where.file}:${where.line}:${where.column}`;
  return where.package === null ? ` (thrown at ${position})` : ` (thrown by package ${where.package} at ${position})`;
}

/** Messages from user code: without this machine's paths (the root as given and as the child sees it). */
function clean(text: string, root: string, _staged: StagedModule): string {
  let out = text;
  for (const dir of new Set([root, realRoot(root), packageRoot()])) out = stripRoot(out, dir);
  return out;
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/**
 * Where the definition a rule broken at import time belongs to: the tool() or agent() call that analysis read with the
 * subject's name (`tool "lookup"`), else the module.
 */
function ruleLocation(
  analysed: AnalyseResult,
  module: string,
  subject: string,
): { file: string; line: number | null; column: number | null } {
  const found = [
    ...analysed.tools.map((t) => ["tool", t] as const),
    ...analysed.agents.map((a) => ["agent", a] as const),
  ].find(([kind, d]) => `${kind} ${JSON.stringify(d.name)}` === subject && d.module === module);
  return found
    ? { file: found[1].file, line: found[1].line, column: found[1].column }
    : { file: module, line: null, column: null };
}

function at(
  analysed: AnalyseResult,
  module: string,
  exportName: string,
): { file: string; line: number | null; column: number | null } {
  const found = [...analysed.tools, ...analysed.agents].find((d) => d.module === module && d.exportName === exportName);
  return { file: found?.file ?? module, line: found?.line ?? null, column: found?.column ?? null };
}
