import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { TOOL_BRAND } from "../src/contract/brands.js";
import type { CallOutcome, Receipt } from "../src/contract/outcome.js";
import { createRuntime } from "../runtime/create-runtime.js";
import { journalPath } from "../runtime/journal/open.js";
import { RuntimeError } from "../runtime/errors.js";
import { checkOptions } from "../runtime/options/option-checks.js";
import { mustBe, rule, type Rules } from "../src/contract/options.js";
import type { LimitOptions } from "../runtime/options/options.js";
import type { ReceiptSink } from "../runtime/run/receipts.js";
import { createSandboxDispatcher, type SandboxOptions } from "../runtime/sandbox/index.js";
import { analyse } from "./analyse/index.js";
import { compile } from "./build.js";
import type { Diagnostic } from "./diagnostics.js";
import { OPAQUE_WITHOUT_HASH } from "./evaluate/bundle-hash-semantics.js";
import type { FileContent } from "./types.js";

/** What run() accepts besides the definition and its arguments. */
export interface RunOptions {
  /** The module that exports the definition (absolute, or relative to the current directory). Required. */
  readonly entryPath?: string;
  /** "host" (default) executes every effect; "fixture" executes read tools only. */
  readonly mode?: "host" | "fixture";
  /** The project root the entry belongs to (default: the nearest folder above it with a package.json). */
  readonly root?: string;
  /** Where the call's receipts go (nested calls included); lockIntegrity is null in them. */
  readonly receipts?: ReceiptSink;
  readonly limits?: LimitOptions;
  /** Options of the sandbox the call runs in (it is started for this call and stopped after it). */
  readonly sandbox?: SandboxOptions;
  /**
   * A durable ordinary run: the journal setting ("sqlite:<path>", "file:<path>", relative to root) the
   * call is recorded in, under runId (both or neither). A durable run refuses opaque validators without
   * schemaSemanticsSHA256, as a lock does (the contract): the bundle's hash cannot stand in for them
   * across the restarts a journal exists for.
   */
  readonly journal?: string;
  readonly runId?: string;
}

/**
 * An ordinary (unlocked) run of one tool, through the same pipeline and sandbox as a locked one.
 * There is no cave.lock: the entry module (and the modules of the nested tools its tools declare) is
 * built on the fly, in memory, by the build's own sequence of passes (compile() in build.ts, with a module filter),
 * its files written into a temporary build folder; the call runs against that lock, and the folder is removed. Unlike a lock,
 * an ordinary run accepts opaque validators without a semantics hash: the staged bundle's hash
 * stands in for it, for this run only. Receipts carry lockIntegrity null.
 *
 * Resolves with the call's outcome (a tool's failure is an outcome); throws a RuntimeError when the
 * call cannot be set up: ENTRY_PATH_REQUIRED, RUN_NOT_STAGED, OPTIONS_INVALID.
 */
export async function run(definition: unknown, args: unknown, options: RunOptions = {}): Promise<CallOutcome> {
  const tool = checkDefinition(definition);
  checkRunOptions(options);
  if (options.entryPath === undefined) {
    const why =
      tool.sandbox === "none"
        ? "its schemas are compiled from the staged module, as cave build does"
        : "exactly that module is staged, hash-pinned and imported in the sandbox (the contract: programmatic run() must pass RunOptions.entryPath)";
    throw new RuntimeError(
      "ENTRY_PATH_REQUIRED",
      `run() of tool ${JSON.stringify(tool.name)} needs options.entryPath: the path of the module that exports it, because ${why}; for example run(tool, args, { entryPath: "src/tools/orders.ts" }). The CLI supplies it`,
    );
  }
  const entry = resolve(options.entryPath);
  if (!existsSync(entry) || !statSync(entry).isFile())
    throw new RuntimeError(
      "RUN_NOT_STAGED",
      `run(): entryPath ${JSON.stringify(options.entryPath)} is not a file; pass the path of the module that exports tool ${JSON.stringify(tool.name)}`,
    );
  const root = realpathSync(options.root === undefined ? projectRootOf(entry) : resolve(options.root));
  const module = relative(root, realpathSync(entry)).split(sep).join("/");
  if (module.startsWith("../") || isAbsolute(module))
    throw new RuntimeError(
      "RUN_NOT_STAGED",
      `run(): entryPath ${JSON.stringify(options.entryPath)} is outside the project root; pass root, or an entry inside it`,
    );

  const durable = options.journal !== undefined;
  const staged = await stageForRun(root, module, tool.name, durable);
  const folder = mkdtempSync(join(tmpdir(), "cave-run-"));
  const sandbox = createSandboxDispatcher({ ...options.sandbox, limits: options.limits ?? options.sandbox?.limits });
  let runtimeOpened: { close(): void } | undefined;
  try {
    for (const [path, text] of [...staged.files, ["cave.lock", staged.lockText] as const]) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), text);
    }
    const receipts = options.receipts;
    const runtime = await createRuntime({
      root: folder,
      mode: options.mode ?? "host",
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(receipts === undefined
        ? {}
        : { receipts: { record: (receipt: Receipt) => receipts.record(unlocked(receipt)) } }),
      // The journal's paths are the project's, not the temporary folder's.
      journal: durable ? absoluteSetting(options.journal!, root) : null,
      dispatchers: { required: sandbox },
    });
    runtimeOpened = runtime;
    const outcome = await (durable
      ? runtime.startRun({ id: options.runId! }).call(tool.name, args)
      : runtime.call(tool.name, args));
    return { ...outcome, receipt: unlocked(outcome.receipt) } as CallOutcome;
  } finally {
    runtimeOpened?.close();
    sandbox.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The lock text and build folder files for the entry module and its tools' nested tools, built in memory. */
async function stageForRun(
  root: string,
  entry: string,
  name: string,
  durable: boolean,
): Promise<{ lockText: string; files: ReadonlyMap<string, FileContent> }> {
  const built = await compile({
    root,
    settings: { write: false, approve: undefined, evaluateTimeoutMs: undefined, bundleHashStandsIn: !durable },
    cache: { whole: false, passes: "off" },
    select: (files) => modulesForRun(root, [...new Set([...files, entry])].sort(), entry, name),
  });
  if (!built.ok) return refuse(entry, built.diagnostics, durable);
  return { lockText: built.lockText!, files: built.files };
}

/**
 * The entry and the modules of its tools' nested tools, which may live anywhere in the project: analysis of the whole
 * project (it reads syntax only) finds them, and then just those modules are built.
 */
function modulesForRun(root: string, files: readonly string[], entry: string, name: string): string[] {
  const everything = analyse(root, files);
  const entryTools = everything.tools.filter((t) => t.module === entry);
  if (!entryTools.some((t) => t.name === name)) {
    throw new RuntimeError(
      "RUN_NOT_STAGED",
      `run(): ${entry} does not define tool ${JSON.stringify(name)} (it defines ${entryTools.length === 0 ? "no tool" : entryTools.map((t) => JSON.stringify(t.name)).join(", ")}); pass the path of the module that exports the definition as entryPath`,
    );
  }
  const nested = new Set(entryTools.flatMap((t) => t.nestedTools));
  return [...new Set([entry, ...everything.tools.filter((t) => nested.has(t.name)).map((t) => t.module)])].sort();
}

function refuse(entry: string, diagnostics: readonly Diagnostic[], durable: boolean): never {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const shown = errors
    .slice(0, 5)
    .map(
      (d) =>
        `${[d.file ?? "cave", d.line, d.column].filter((part) => part !== null).join(":")}: ${d.code}: ${d.message} (${d.hint})`,
    );
  const more = errors.length > 5 ? `\n(and ${errors.length - 5} more; cave build shows them all)` : "";
  const why =
    durable && errors.some((d) => d.code === OPAQUE_WITHOUT_HASH)
      ? " (a durable run, with a journal, refuses opaque validators without schemaSemanticsSHA256, as a lock does; without journal the bundle's hash stands in)"
      : "";
  throw new RuntimeError("RUN_NOT_STAGED", `run(): ${entry} could not be staged${why}:\n${shown.join("\n")}${more}`);
}

/** A receipt of an ordinary run: no lock vouches for it. */
function unlocked(receipt: Receipt): Receipt {
  return Object.freeze({ ...receipt, lockIntegrity: null });
}

function checkDefinition(definition: unknown): { name: string; sandbox: "required" | "none" } {
  const value = definition as { [TOOL_BRAND]?: unknown; name?: unknown; sandbox?: unknown } | null;
  if (typeof value !== "object" || value === null || value[TOOL_BRAND] !== true || typeof value.name !== "string") {
    throw new RuntimeError(
      "OPTIONS_INVALID",
      "run() takes a tool() definition as its first argument (import it from the module you pass as entryPath)",
    );
  }
  return { name: value.name, sandbox: value.sandbox === "none" ? "none" : "required" };
}

const RUN_RULES: Rules = {
  entryPath: mustBe.nonEmptyPathString,
  mode: mustBe.oneOf(["host", "fixture"]),
  root: mustBe.nonEmptyPathString,
  receipts: null,
  limits: null,
  sandbox: null,
  journal: rule(
    (value) => typeof value === "string" && value !== "",
    'a journal setting such as "sqlite:.cave-state/journal.db"',
  ),
  runId: mustBe.nonEmptyString,
};

function checkRunOptions(options: RunOptions): void {
  checkOptions(options, "run() options", RUN_RULES, "run() option ");
  if ((options.journal === undefined) !== (options.runId === undefined))
    throw new RuntimeError(
      "OPTIONS_INVALID",
      "run() options journal and runId go together: a durable run records the call in the journal under the run id",
    );
}

/** The nearest folder above the entry holding a package.json, else the entry's own folder. */
function projectRootOf(entry: string): string {
  for (let dir = dirname(entry); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return dirname(entry);
  }
}

/** A journal setting with its path made absolute against the project root (run() stages into a temporary folder). */
function absoluteSetting(setting: string, root: string): string {
  const path = journalPath(setting, root);
  if (path === null || path === ":memory:") return setting;
  return `${setting.slice(0, setting.indexOf(":") === -1 ? setting.length : setting.indexOf(":"))}:${path}`;
}
