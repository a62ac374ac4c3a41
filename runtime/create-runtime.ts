import { randomBytes } from "node:crypto";
import { isAbsolute, relative, resolve as resolvePath, sep } from "node:path";
import type { CallOutcome } from "../src/contract/outcome.js";
import type { LockedTool } from "../src/contract/lock.js";
import { Breakers } from "./run/breaker-state.js";
import { toolDeclarations, type DeclarationFormat, type DeclarationsOf } from "./tools/declarations.js";
import { describeTools, type ToolInfo } from "./tools/describe-tools.js";
import { inProcessDispatcher } from "./dispatch/in-process.js";
import { RuntimeError } from "./errors.js";
import { Loader } from "./loading/loader.js";
import { readLock, type RuntimeLock } from "./lock/read-lock.js";
import { openJournal } from "./journal/open.js";
import { configuredJournal, shownSetting } from "./journal/setting.js";
import { RunJournal } from "./journal/run-journal.js";
import type { Journal } from "./journal/types.js";
import {
  resolveCallOptions,
  resolveOptions,
  resolveRunOptions,
  type CallOptions,
  type ResolvedRunOptions,
  type RunOptions,
  type RuntimeOptions,
} from "./options/options.js";
import { resultPlansOf, resultPlansOver } from "./results/attach.js";
import { reservedDispatcher } from "./results/reserved-call.js";
import { runCall } from "./pipeline/run-call.js";
import type { Engine } from "./pipeline/state.js";
import { RunState } from "./run/run-state.js";
import { createSandboxDispatcher } from "./sandbox/index.js";
import { verifyAll } from "./loading/verify-all.js";
import { thrownText } from "../src/contract/thrown-message.mjs";

/** A run: one conversation or task, with its own call budget, wall-time budget and repeat guard. */
export interface Run {
  /** The run's name: startRun({ id }), or a random UUID. Every receipt of the run carries it as runId. */
  readonly id: string;
  /** The runtime the run belongs to (adapters read describeTools() through it). */
  readonly runtime: Runtime;
  /** Calls a locked tool through the pipeline; resolves with an outcome and never throws for a tool's failure. */
  call(name: string, args: unknown, options?: CallOptions): Promise<CallOutcome>;
  /** Calls made so far (nested ones included) and milliseconds since the run started. */
  usage(): { readonly calls: number; readonly elapsedMs: number };
  /**
   * Marks the run finished in the runtime's journal, so retention (journal.expire, `cave runs expire`)
   * may remove it; later calls still work. Without a journal it does nothing. Rejects with a
   * RuntimeError (JOURNAL_FAILED) when the journal cannot record it.
   */
  finish(): Promise<void>;
}

export interface Runtime {
  readonly mode: "host" | "fixture";
  /** The verified lock's integrity hash (as in every receipt). */
  readonly lockIntegrity: string;
  /** The locked tool names, sorted. */
  readonly toolNames: readonly string[];
  /** runtime.call is a call in the default run, which lives as long as the runtime (see docs/runtime.md). */
  call(name: string, args: unknown, options?: CallOptions): Promise<CallOutcome>;
  startRun(options?: RunOptions): Run;
  /** What adapters need of every callable tool (the locked ones sorted by name, then cave_page / cave_recover when a plan needs them). */
  describeTools(): ToolInfo[];
  /** The locked tools as a provider expects them declared, sorted by name. */
  toolDeclarations<F extends DeclarationFormat>(format: F): DeclarationsOf<F>;
  /** Checks every staged bundle and validator the lock names against its sha256 now, instead of on first use. */
  verifyAll(): Promise<void>;
  /** The journal runs are recorded in, or undefined (createRuntime's journal option). */
  readonly journal: Journal | undefined;
  /**
   * Stops the sandbox processes this runtime started (a call in flight reports TOOL_CRASHED; later
   * calls start new ones) and closes the journal it opened; resolves once the journal is closed (a
   * PostgreSQL journal has then released its runs' leases, so another host may take them at once).
   */
  close(): Promise<void>;
}

/**
 * Loads and verifies the lock (version, integrity, shape) before anything runs; refuses with a
 * RuntimeError whose message names the lock relative to the root. Nothing else is read here: each
 * tool's code and validators are verified and imported on its first call.
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const resolved = resolveOptions(options);
  const root = resolvePath(resolved.root ?? process.cwd());
  const lockPath = resolvePath(root, resolved.lock);
  const lock = await readLock(lockPath, shownPath(root, lockPath));

  // The runtime closes only the sandbox it made; dispatchers passed in belong to the caller.
  const { journal, ownJournal } = await journalOf(resolved.journal, root);
  const ownSandbox =
    resolved.dispatchers.required === undefined
      ? createSandboxDispatcher({
          limits: resolved.limits,
          isolation: resolved.isolation,
          secrets: resolved.secrets,
          egress: resolved.egress,
        })
      : undefined;
  const required = resolved.dispatchers.required ?? ownSandbox!;
  // Under isolation "os", or with a tool whose powers only the OS layer enforces, the sandbox probes the OS layer now
  // (once per process), so that a host without it refuses here rather than at a first call; otherwise "auto" probes at
  // its first call, keeping start-up free of a process spawn.
  if (required.prepare !== undefined) {
    try {
      // The tools it will run, so that one it cannot run as locked here is refused now (os-only.ts, scopes.ts).
      await required.prepare(sandboxedTools(lock), root);
    } catch (thrown) {
      ownSandbox?.close();
      if (ownJournal) void journal!.close();
      throw thrown;
    }
  }
  const plans = journal === undefined ? () => resultPlansOf(root) : once(() => resultPlansOver(root, journal.results));
  const engine: Engine = {
    lock,
    root,
    options: resolved,
    loader: new Loader(root, lock.sdk, { pins: lock.externals, lockIntegrity: lock.integrity }),
    breakers: new Breakers(resolved.breaker, true),
    dispatchers: {
      required,
      none: resolved.dispatchers.none ?? inProcessDispatcher,
      reserved: reservedDispatcher(plans),
    },
    withheldKey: randomBytes(32),
    resolved: new Map(),
    journal,
    plans,
  };
  const toolNames = lock.toolNames;
  const defaultRun = newRun(engine, { id: undefined, budget: resolved.budget, lockChange: "refuse" }, false);

  const runtime: Runtime = Object.freeze({
    mode: resolved.mode,
    lockIntegrity: lock.integrity,
    toolNames,
    call: (name: string, args: unknown, callOptions?: CallOptions) =>
      callIn(engine, defaultRun, name, args, callOptions),
    startRun: (runOptions?: RunOptions) => startRun(runtime, engine, runOptions),
    describeTools: () => describeTools(lock),
    toolDeclarations: <F extends DeclarationFormat>(format: F) => toolDeclarations(lock, format),
    verifyAll: () => verifyAll(root, lock),
    journal,
    close: async () => {
      ownSandbox?.close();
      if (ownJournal) await journal!.close();
    },
  });
  return runtime;
}

function startRun(runtime: Runtime, engine: Engine, options: RunOptions | undefined): Run {
  const run = newRun(engine, resolveRunOptions(options, engine.options.budget), true);
  return Object.freeze({
    id: run.id,
    runtime,
    call: (name: string, args: unknown, callOptions?: CallOptions) => callIn(engine, run, name, args, callOptions),
    usage: () => ({ calls: run.calls, elapsedMs: run.elapsedMs() }),
    finish: () => finishRun(engine, run),
  });
}

/** A run, resumed from the journal when the runtime has one (the record loads before its first call goes on). */
function newRun(engine: Engine, options: ResolvedRunOptions, loadNow: boolean): RunState {
  const run = new RunState(options.budget, options.id);
  if (engine.journal !== undefined) {
    run.journal = new RunJournal(engine.journal, run, engine.lock.integrity, options.lockChange);
    if (loadNow) void run.journal.ready();
  }
  return run;
}

async function finishRun(engine: Engine, run: RunState): Promise<void> {
  if (engine.journal === undefined) return;
  await run.journal!.ready();
  try {
    await engine.journal.finishRun(run.id, Date.now());
  } catch (thrown) {
    throw new RuntimeError("JOURNAL_FAILED", `run ${run.id} could not be marked finished: ${thrownText(thrown)}`);
  }
}

/** The journal the option (else CAVE_JOURNAL, else cave.config.json) names; `ownJournal` when this runtime opened it and closes it. */
async function journalOf(
  option: string | Journal | null | undefined,
  root: string,
): Promise<{ journal: Journal | undefined; ownJournal: boolean }> {
  const configured = option === undefined ? configuredJournal(root, process.env) : undefined;
  const setting = option === undefined ? configured?.setting : option;
  if (setting === undefined || setting === null) return { journal: undefined, ownJournal: false };
  if (typeof setting !== "string") return { journal: setting, ownJournal: false };
  try {
    return { journal: await openJournal(setting, root), ownJournal: true };
  } catch (thrown) {
    const from = configured === undefined ? "" : ` (from ${configured.from})`;
    throw new RuntimeError(
      "JOURNAL_FAILED",
      `the journal ${shownSetting(setting)}${from} could not be opened: ${thrownText(thrown)}`,
    );
  }
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** A top-level call; bad call options reject the promise (OPTIONS_INVALID) rather than throw synchronously. */
function callIn(
  engine: Engine,
  run: RunState,
  name: string,
  args: unknown,
  options: CallOptions | undefined,
): Promise<CallOutcome> {
  let resolved: CallOptions;
  try {
    resolved = resolveCallOptions(options);
  } catch (thrown) {
    return Promise.reject(thrown);
  }
  if (resolved.replayOnly === true && engine.journal === undefined) {
    return Promise.reject(
      new RuntimeError(
        "OPTIONS_INVALID",
        "call option replayOnly answers from the run's journal, and this runtime has none: pass createRuntime({ journal })",
      ),
    );
  }
  return runCall(engine, run, null, name, args, resolved);
}

/** The lock's path as messages show it: relative to the root, POSIX; never this machine's absolute path. */
function shownPath(root: string, path: string): string {
  const rel = relative(root, path);
  if (rel === "" || isAbsolute(rel))
    throw new RuntimeError(
      "OPTIONS_INVALID",
      'lock must name a file on the same drive as root, relative to it (e.g. "cave.lock")',
    );
  return rel.split(sep).join("/");
}

/**
 * The tools whose powers only the OS layer enforces (the lock's osLayerTools), for the sandbox to check now: only their
 * entries are read at start-up. One that is refused on its first read is left out here: it is refused at its call, and
 * one bad tool never stops the others.
 */
function sandboxedTools(lock: RuntimeLock): Record<string, LockedTool> {
  const sandboxed: Record<string, LockedTool> = Object.create(null);
  for (const name of lock.osLayerTools) {
    try {
      sandboxed[name] = lock.tool(name)!;
    } catch {
      continue;
    }
  }
  return sandboxed;
}
