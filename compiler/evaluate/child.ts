/**
 * The build-time evaluator's child process. It runs from `--eval` under Node's permission model with an
 * empty environment and the runtime sandbox's deny layer (no network, no escape hatches), imports each
 * staged bundle by its file URL from a private copy of the build folder's files (read access to that copy
 * only, nothing written), as the runtime does, and reports the tool and agent definitions it exports as
 * plain data. `execute` is never called. child-script.ts bundles it with what it imports, so it must import
 * only node builtins and self-contained modules. When asked, it imports the build's SDK module first and
 * deep-freezes what it exports, so that no module can change the SDK another module is evaluated with; after each
 * module it asks its realm guard whether the module left anything changed, and exits if so (realm-guard.ts).
 */
import { readSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { AGENT_BRAND, ARTIFACT_BRAND, TOOL_BRAND } from "../../src/contract/brands.js";
import { installDenyLayer } from "../../runtime/sandbox/child/deny.mjs";
import { encodeFrame, FrameReader } from "../../runtime/sandbox/child/frames.mjs";
import { rawStack } from "../../runtime/sandbox/child/raw-stack.mjs";
import { deepFreeze, realmObjects } from "./freeze.js";
import {
  ADDONS_ARGUMENT,
  CHANNEL_FD,
  MAX_REQUEST_BYTES,
  PRELOADED_BUILTINS,
  type ChildMessage,
  type ChildReply,
  type ExportReport,
  type ImportRequest,
  type ParentMessage,
  type RawAgent,
  type RawSchema,
  type RawTool,
  type SdkRequest,
} from "./protocol.js";
import { createRealmGuard, type RealmGuard } from "./realm-guard.js";

// An empty environment: whatever a launcher adds on the way (bwrap sets PWD) goes before any module runs.
for (const name of Object.keys(process.env)) delete process.env[name];
// Build-time evaluation is hermetic: a module that fetches its schema at import would make the lock
// depend on the network (and Node 20's permission model does not stop network access).
// Native addons only in a child the parent started for one module with external packages under the OS layer
// (session.ts): what an addon's native code does, the Node layers cannot stop.
installDenyLayer({ selfPid: process.pid, pipe: ipcPipe(), addons: process.argv.includes(ADDONS_ARGUMENT) });
/** A native Pipe handle for the deny layer to find the class by: stderr's (a pipe to the parent, see session.ts). */
function ipcPipe(): unknown {
  return (process.stderr as unknown as { _handle?: unknown })._handle;
}
// Taken before any module runs: what a deep freeze of the shared SDK must leave alone.
const REALM = realmObjects();

const TYPEBOX_KIND = Symbol.for("TypeBox.Kind");
const MAX_MESSAGE = 2000;

const require = createRequire(import.meta.url);

/**
 * What the realm guard walks besides the globals and `process`: every public builtin module loaded so far, and objects
 * only a getter reaches. The builtins a module is likeliest to use are loaded first, so that the guard covers them
 * from the start (a builtin first loaded later retires the child: a module could have changed it for the next).
 */
function guardRoots(loadList: readonly string[] | undefined): unknown[] {
  for (const name of PRELOADED_BUILTINS) {
    try {
      require(`node:${name}`);
    } catch {
      // Not in this Node version, or refused here: a module that loads it retires the child.
    }
  }
  const roots: unknown[] = [];
  for (const entry of loadList ?? []) {
    if (!entry.startsWith("NativeModule ") || entry.startsWith("NativeModule internal/")) continue;
    try {
      roots.push(require(`node:${entry.slice("NativeModule ".length)}`));
    } catch {
      // Loaded by Node for itself but not requirable by that name: no module can reach it by require either.
    }
  }
  for (const stream of [process.stdout, process.stderr])
    roots.push(stream, (stream as unknown as { _handle?: unknown })._handle);
  return roots;
}

// Captured before any module runs, so a module that patches globals cannot change how it is reported: the channel is
// fd 3, read and written with the fs functions as they are now (their work is done by Node's internal bindings, which
// no module can reach), one request at a time. Nothing listens for messages, so no module sees another's request.
const reallyExit = (process as unknown as { reallyExit: (code: number) => never }).reallyExit.bind(process);
const parse = JSON.parse;
const stringify = JSON.stringify;
const reader = new FrameReader(MAX_REQUEST_BYTES);
const chunk = Buffer.alloc(64 * 1024);
const pendingTexts: string[] = [];

function send(message: ChildMessage): void {
  const frame = encodeFrame(stringify(message));
  for (let written = 0; written < frame.length; )
    written += writeSync(CHANNEL_FD, frame, written, frame.length - written);
}

/** The parent's next message, waiting for it; null when the parent closed the channel. */
function receive(): ParentMessage | null {
  while (pendingTexts.length === 0) {
    const read = readSync(CHANNEL_FD, chunk, 0, chunk.length, null);
    if (read === 0) return null;
    pendingTexts.push(...reader.push(Buffer.from(chunk.subarray(0, read))));
  }
  return parse(pendingTexts.shift()!) as ParentMessage;
}
const objectKeys = Object.keys;
const getPrototypeOf = Object.getPrototypeOf;
const defineProperty = Object.defineProperty;
const isArray = Array.isArray;
const isFinite = Number.isFinite;
const schedule = setImmediate;
const now = performance.now.bind(performance);
/** How long a module's pending work may take to finish after its import before the child retires. */
const SETTLE_MS = 200;
/** Made once the SDK is shared, before any module runs (serve()): what each module left behind. */
let guard: RealmGuard | undefined;
// The child's own wait is not work a module left behind.
const nextTurn = () =>
  new Promise<void>((resolve) => (guard === undefined ? schedule(resolve) : guard.untracked(() => schedule(resolve))));

class ExitCalled extends Error {
  constructor(readonly exitCode: number) {
    super(`process.exit(${exitCode}) was called`);
  }
}

/** A definition that cannot be read as data; `code` and `hint`, when given, say more precisely what to do than CAVE5004. */
class Unreadable extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
    readonly hint: string | null = null,
  ) {
    super(message);
  }
}

// A module that exits at import would take every later module with it; report it instead.
process.exit = ((code?: number | string | null) => {
  throw new ExitCalled(typeof code === "number" ? code : Number(code ?? 0) || 0);
}) as typeof process.exit;
// Failures in timers or promises a module leaves behind do not change what it exported. They are counted, though: a
// module evaluated with the shared, frozen SDK is trusted only if nothing threw meanwhile (a swallowed failure could be
// its attempt to change the frozen SDK, which would have worked on the SDK of its own process at run time).
let strayFailures = 0;
process.on("uncaughtException", () => void strayFailures++);
process.on("unhandledRejection", () => void strayFailures++);

function describe(thrown: unknown, replace?: { readonly from: string; readonly to: string }): string {
  let text: string;
  try {
    if (thrown instanceof Error || (typeof thrown === "object" && thrown !== null && "message" in thrown)) {
      const { name, message } = thrown as { name?: unknown; message?: unknown };
      text = `${typeof name === "string" ? name : "Error"}: ${typeof message === "string" ? message : String(message)}`;
    } else text = String(thrown);
  } catch {
    text = "a value that cannot be turned into text";
  }
  if (replace) text = text.split(replace.from).join(replace.to);
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}...` : text;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (isArray(value)) return "an array";
  if (typeof value === "object") {
    const proto = getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
    const name = proto?.constructor?.name;
    return typeof name === "string" && name !== "" ? `a ${name}` : "an object";
  }
  return typeof value === "bigint" ? "a BigInt" : `a ${typeof value}`;
}

/** A deep copy that is plain JSON, or Unreadable naming the first path that is not. */
function toJson(value: unknown, path: string, seen: Set<object>): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!isFinite(value)) throw new Unreadable(`${path} is ${String(value)}, which JSON cannot hold`);
    return value;
  }
  if (typeof value !== "object") throw new Unreadable(`${path} is ${kindOf(value)}, which JSON cannot hold`);
  if (seen.has(value)) throw new Unreadable(`${path} refers back to itself (a cycle)`);
  seen.add(value);
  let out: unknown;
  if (isArray(value)) {
    out = value.map((item, i) => {
      if (item === undefined) throw new Unreadable(`${path}[${i}] is undefined, which JSON cannot hold`);
      return toJson(item, `${path}[${i}]`, seen);
    });
  } else {
    const proto = getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      throw new Unreadable(`${path} is ${kindOf(value)}, not a plain object`);
    const copy: Record<string, unknown> = {};
    for (const key of objectKeys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue; // as JSON.stringify does
      defineProperty(copy, key, {
        value: toJson(item, `${path}.${key}`, seen),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out = copy;
  }
  seen.delete(value);
  return out;
}

function readSchema(schema: unknown, jsonSchemaOption: unknown, side: "input" | "output"): RawSchema | null {
  if (schema === undefined) return null;
  if ((typeof schema === "object" || typeof schema === "function") && schema !== null) {
    if (TYPEBOX_KIND in schema) return { kind: "typebox", jsonSchema: toJson(schema, side, new Set()) };
    const standard = (schema as { "~standard"?: unknown })["~standard"];
    if (typeof standard === "object" && standard !== null) {
      const { vendor, jsonSchema } = standard as { vendor?: unknown; jsonSchema?: Record<string, unknown> };
      const convert = jsonSchema?.[side];
      const jsonKey = `${side}JSONSchema`;
      let converted: unknown;
      if (typeof convert === "function") {
        let failure: unknown;
        try {
          converted = (convert as (options: { target: string }) => unknown).call(jsonSchema, { target: "draft-07" });
        } catch (thrown) {
          failure = thrown;
        }
        // Output follows the rules of input (contract, "Schemas"): where the library cannot describe a side (a transform),
        // the author's JSON Schema does; where it can, a second description could disagree with it.
        if (failure === undefined && jsonSchemaOption !== undefined) {
          throw new Unreadable(
            `${jsonKey} is given, but ${String(vendor)} describes the ${side} itself`,
            "CAVE1012",
            `Drop ${jsonKey}: two descriptions of the ${side} could disagree. ${jsonKey} is for ${side === "output" ? "an output" : "an input"} the library cannot describe, such as one with a transform.`,
          );
        }
        if (failure !== undefined) {
          if (jsonSchemaOption === undefined) {
            throw new Unreadable(
              `${side}: ${String(vendor)} could not convert it to draft-07 JSON Schema (${describe(failure)})`,
              "CAVE5004",
              `Pass ${jsonKey}: the draft-07 JSON Schema of ${side === "output" ? "what the validator returns (after its transforms)" : "what the validator accepts"}, which providers are told; the validator itself still runs on every call.`,
            );
          }
          converted = jsonSchemaOption;
        }
      } else converted = jsonSchemaOption ?? null;
      return { kind: "standard", vendor, jsonSchema: toJson(converted, `${side} JSON Schema`, new Set()) };
    }
  }
  throw new Unreadable(`${side} is ${kindOf(schema)}, not a schema`);
}

function readResult(result: unknown): unknown {
  if (typeof result === "object" && result !== null && ARTIFACT_BRAND in result) {
    const { strategy, maxInlineTokens, recovery } = result as Record<string, unknown>;
    return { policy: "artifact", artifact: { strategy, maxInlineTokens, recovery } };
  }
  return { policy: result };
}

function names(list: unknown, field: string): unknown {
  if (!isArray(list)) return list;
  return list.map((item, i) => {
    const name = (item as { name?: unknown } | null)?.name;
    if (typeof name !== "string") throw new Unreadable(`${field}[${i}] is not a tool() definition`);
    return name;
  });
}

function readTool(value: Record<PropertyKey, unknown>): RawTool {
  const profile = (value.sandboxProfile ?? {}) as Record<string, unknown>;
  return {
    name: value.name,
    description: value.description,
    effect: value.effect,
    timeout: value.timeout,
    allowRepeat: value.allowRepeat,
    sandbox: value.sandbox,
    network: profile.network ?? false,
    env: toJson(profile.env ?? [], "sandboxProfile.env", new Set()),
    egress: toJson(profile.egress ?? [], "sandboxProfile.egress", new Set()),
    secrets: toJson(profile.secrets ?? {}, "sandboxProfile.secrets", new Set()),
    fs: toJson(profile.fs ?? null, "sandboxProfile.fs", new Set()),
    addons: profile.addons ?? false,
    nestedTools: names(value.nestedTools, "nestedTools"),
    result: toJson(readResult(value.result), "result", new Set()),
    input: readSchema(value.input, value.inputJSONSchema, "input"),
    output: readSchema(value.output, value.outputJSONSchema, "output"),
    schemaSemanticsSHA256: value.schemaSemanticsSHA256 ?? null,
  };
}

function readAgent(value: Record<PropertyKey, unknown>): RawAgent {
  return { name: value.name, description: value.description ?? null, tools: names(value.tools, "tools") };
}

function readExports(namespace: Record<string, unknown>): ExportReport[] {
  const reports: ExportReport[] = [];
  // A module namespace lists its exports sorted already.
  for (const exportName of objectKeys(namespace)) {
    let value: unknown;
    try {
      value = namespace[exportName];
    } catch {
      continue; // an export that was never initialised is not a definition
    }
    if ((typeof value !== "object" && typeof value !== "function") || value === null) continue;
    const what = TOOL_BRAND in value ? "tool" : AGENT_BRAND in value ? "agent" : undefined;
    if (!what) continue;
    try {
      const record = value as Record<PropertyKey, unknown>;
      reports.push(
        what === "tool"
          ? { exportName, kind: "tool", tool: readTool(record) }
          : { exportName, kind: "agent", agent: readAgent(record) },
      );
    } catch (thrown) {
      const unreadable = thrown instanceof Unreadable ? thrown : null;
      reports.push({
        exportName,
        kind: "unreadable",
        what,
        message: unreadable ? unreadable.message : describe(thrown),
        code: unreadable?.code ?? null,
        hint: unreadable?.hint ?? null,
      });
    }
  }
  return reports;
}

/** An authoring rule the SDK enforced while the module ran (a CaveError), so the build reports it under the rule's own code. */
function authoringRule(thrown: unknown): { code: string; hint: string; subject: string } | null {
  if (typeof thrown !== "object" || thrown === null) return null;
  const { name, code, hint, subject } = thrown as { name?: unknown; code?: unknown; hint?: unknown; subject?: unknown };
  return name === "CaveError" && typeof code === "string" && /^CAVE1\d{3}$/.test(code) && typeof hint === "string"
    ? { code, hint, subject: typeof subject === "string" ? subject : "" }
    : null;
}

/** Paths of the private copy become the build folder's relative paths in messages (`file:///tmp/x/.cave/...` -> `.cave/...`). */
function describeImport(thrown: unknown, request: ImportRequest): string {
  let text = describe(thrown);
  for (const prefix of [request.baseUrl, request.base]) text = text.split(prefix).join("");
  return text;
}

async function importModule(request: ImportRequest): Promise<ChildReply> {
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(request.url)) as Record<string, unknown>;
  } catch (thrown) {
    const message = describeImport(thrown, request);
    return {
      type: "threw",
      module: request.module,
      message,
      exitCode: thrown instanceof ExitCalled ? thrown.exitCode : null,
      rule: authoringRule(thrown),
      stack: rawStack(thrown) ?? null,
    };
  }
  return { type: "imported", module: request.module, exports: readExports(namespace) };
}

/**
 * A module evaluated with the shared SDK is reported only when it is exactly what importing it in a process of its own
 * would give: it succeeded, and nothing threw elsewhere meanwhile (checked a turn later, when Node has reported
 * rejections left unhandled). A module that tried to change the frozen SDK got a TypeError where its own process's
 * SDK would have changed; so anything else is "untrusted" and the parent imports it again in a child of its own.
 */
async function importShared(request: ImportRequest): Promise<ChildReply> {
  const failures = strayFailures;
  const reply = await importModule(request);
  await nextTurn();
  return reply.type === "imported" && strayFailures === failures
    ? reply
    : { type: "untrusted", module: request.module };
}

let shared = false;

/** Imports the SDK module once and freezes what it exports and reaches. On any failure, nothing is shared. */
async function shareSdk(request: SdkRequest): Promise<ChildMessage> {
  if (shared) return { type: "sdk", nonce: request.nonce, shared: false, message: "the SDK was shared already" };
  try {
    const namespace = (await import(request.url)) as Record<string, unknown>;
    // A module namespace cannot be frozen itself (its bindings are live), and needs not be: importers cannot assign to it.
    deepFreeze(Object.fromEntries(objectKeys(namespace).map((key) => [key, namespace[key]])), REALM);
    shared = true;
    return { type: "sdk", nonce: request.nonce, shared: true, message: null };
  } catch (thrown) {
    return { type: "sdk", nonce: request.nonce, shared: false, message: describe(thrown) };
  }
}

/**
 * Serves the parent's requests in turn. Once the SDK is shared, the realm guard is made, before any module runs; a
 * module after which it sees anything changed is the last this child imports: it answers for it (what the module did to
 * the realm it did to itself first) and exits, so the next module starts in a fresh child.
 */
async function serve(): Promise<never> {
  // Nothing else keeps the event loop alive while a module's import waits forever: the parent's time limit must end it,
  // not an exit that looks like success.
  setInterval(() => undefined, 1 << 30);
  send({ type: "ready" });
  for (let request = receive(); request !== null; request = receive()) {
    if (request.type === "sdk") {
      const reply = await shareSdk(request);
      // The guard's first walk is made now, before any module runs, and not charged to the first module's time limit.
      if (shared && guard === undefined) {
        const loadList = (process as unknown as { moduleLoadList?: string[] }).moduleLoadList;
        guard = createRealmGuard(guardRoots(loadList), loadList);
      }
      send(reply);
      continue;
    }
    if (!request.sharedSdk) {
      send({ ...(await importModule(request)), nonce: request.nonce });
      continue;
    }
    if (!shared || guard === undefined) {
      send({ type: "untrusted", nonce: request.nonce, module: request.module });
      continue;
    }
    const reply = await importShared(request);
    // Node's module loader closes the files it read a little later; a module's own pending work gets the same short
    // while to finish, so that what it does then is seen by the guard too. Work still pending after it retires the child.
    for (const until = now() + SETTLE_MS; guard.pending() > 0 && now() < until; ) await nextTurn();
    const changed = guard.changed();
    send({ ...reply, nonce: request.nonce });
    if (changed !== null) reallyExit(0);
  }
  return reallyExit(0);
}

void serve();
