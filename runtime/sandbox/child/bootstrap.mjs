// @ts-check
// The sandbox child's entry script, run by Node directly under the permission model (read access to
// this folder and to one staged bundle only). It talks to the host over fd 3 in length-prefixed JSON
// frames (protocol: runtime/sandbox/protocol.ts). Order matters: the channel is opened and the
// built-ins this file relies on are captured first; the bundle is read once and its sha256 checked
// against the lock; the deny layer goes in; only then is the bundle imported, by file URL, from the host's
// private copy of the verified files (runtime/loading/private-copy.ts: read-only files this child cannot write,
// which nobody rewrites), so a file swapped in the build folder after the check is never evaluated.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Socket } from "node:net";
import { pathToFileURL } from "node:url";
import { classifyThrown, installDenyLayer } from "./deny.mjs";
import { prepareEgress } from "./egress.mjs";
import { encodeFrame, FrameReader } from "./frames.mjs";
import { LogTail } from "./log-tail.mjs";
import { installOutputCap } from "./output.mjs";
import { NOT_DATA } from "./data-rules.mjs";
import { serialise, serialiseNative } from "./plain-data.mjs";
import { thrownMessage, UNREADABLE } from "./thrown-message.mjs";
import { rawStack } from "./raw-stack.mjs";

const quote = JSON.stringify;
const parse = JSON.parse;
const freeze = Object.freeze;
const exit = process.exit.bind(process);
const TOOL_BRAND = Symbol.for("cave.tool");
/** Frames before init: the init frame is small. */
const INIT_FRAME_BYTES = 1 << 20;
/** Exit codes the host reads: the process's state is no longer trusted after a fault; the channel broke. */
const EXIT_FAULT = 70;
const EXIT_CHANNEL = 71;

/**
 * @typedef {{ t: "init", env: string[], bundle: string, shownBundle: string, sha256: string, exportName: string, name: string, opaqueInput: boolean, nativeOutput: boolean, addons: boolean, maxOutputBytes: number, maxFrameBytes: number, maxInboundFrameBytes: number, egress: string | null }} Init
 * @typedef {{ id: string, open: boolean, nextSub: number, subs: Map<number, { resolve: (outcome: unknown) => void, reject: (error: Error) => void }> }} Call
 */

const channel = new Socket({ fd: 3, readable: true, writable: true });
let reader = new FrameReader(INIT_FRAME_BYTES);
/** @type {Init | undefined} */
let init;
/** @type {any} */
let tool;
/** @type {Call | undefined} */
let current;
/** @type {{ reset(): void, flushed(): Promise<void> } | undefined} */
let output;
/** The running call's console output tail (log-tail.mjs). */
const logs = new LogTail();

/** @param {string} text */
function send(text) {
  channel.write(encodeFrame(text));
}

/** Sends a last frame, then ends the process (its state can no longer be trusted). @param {string} text @param {number} code */
function sendAndExit(text, code) {
  channel.write(encodeFrame(text), () => exit(code));
}

/** The shared thrown-value message (thrown-message.mjs), with the sandbox's own refusals named. @param {unknown} thrown @returns {string} */
function deniedOrThrownMessage(thrown) {
  let text;
  try {
    const denied = /** @type {any} */ (thrown);
    // Node's permission model says only "Access to this API has been restricted"; name what it refused,
    // but never the resource (a path on this machine).
    if (denied?.code === "ERR_ACCESS_DENIED")
      text = `ERR_ACCESS_DENIED: Node's permission model refused ${typeof denied.permission === "string" ? denied.permission : "the operation"}`;
    else if (denied?.code === "ERR_SANDBOX_DENIED") text = `ERR_SANDBOX_DENIED: ${String(denied.message)}`;
    else return thrownMessage(thrown);
  } catch {
    text = UNREADABLE;
  }
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

/** The code/transient chain of a thrown error, for the host's retry rule (runtime/run/retry.ts). @param {unknown} thrown */
function errorChain(thrown) {
  const chain = [];
  try {
    let error = /** @type {any} */ (thrown);
    for (let depth = 0; typeof error === "object" && error !== null && depth < 3; depth++, error = error.cause) {
      chain.push({
        code: typeof error.code === "string" ? error.code.slice(0, 100) : null,
        transient: error.transient === true,
      });
    }
  } catch {
    // A getter that throws tells the host nothing reliable.
  }
  return chain;
}

/** @param {string} id @param {string} code @param {string} message @param {Record<string, unknown>} [extra] */
function failText(id, code, message, extra = {}) {
  return quote({ t: "fail", id, code, message, ...extra });
}

/** @param {string} id @param {unknown} thrown */
function thrownText(id, thrown) {
  const code = classifyThrown(thrown);
  let message = deniedOrThrownMessage(thrown);
  // A client library wraps the sandbox's refusal ("fetch failed"): the refusal names the host or route, so it is said too.
  const denial = code === "TOOL_ERROR" ? undefined : deniedCause(thrown);
  if (denial !== undefined && denial !== thrown) {
    const said = deniedOrThrownMessage(denial);
    if (!message.includes(said.replace(/^ERR_SANDBOX_DENIED: /, ""))) message = `${message} (${said})`;
  }
  return failText(id, code, message, { chain: errorChain(thrown), stack: rawStack(thrown) });
}

/** The sandbox's own refusal in a thrown error's cause chain. @param {unknown} thrown */
function deniedCause(thrown) {
  try {
    let error = /** @type {any} */ (thrown);
    for (let depth = 0; typeof error === "object" && error !== null && depth < 4; depth++, error = error.cause)
      if (error.code === "ERR_SANDBOX_DENIED") return error;
  } catch {
    // A getter that throws.
  }
  return undefined;
}

channel.on("data", (/** @type {Buffer} */ chunk) => {
  let texts;
  try {
    texts = reader.push(chunk);
  } catch {
    exit(EXIT_CHANNEL);
    return;
  }
  for (const text of texts) {
    let frame;
    try {
      frame = parse(text);
    } catch {
      exit(EXIT_CHANNEL);
      return;
    }
    void onFrame(frame);
  }
});
// The channel ended: the host is gone, or the tool closed fd 3 under the bootstrap.
channel.on("end", () => exit(EXIT_CHANNEL));
channel.on("error", () => exit(EXIT_CHANNEL));

process.on("uncaughtException", (thrown) => fault("an uncaught exception", thrown));
process.on("unhandledRejection", (thrown) => fault("an unhandled promise rejection", thrown));

/** @param {string} what @param {unknown} thrown */
function fault(what, thrown) {
  const call = current;
  if (call === undefined || !call.open) {
    exit(EXIT_FAULT);
    return;
  }
  call.open = false;
  current = undefined;
  // fatal: the host must not reuse this process, which exits right after the frame is written.
  sendAndExit(
    withLogs(
      failText(call.id, classifyThrown(thrown), `${what}: ${deniedOrThrownMessage(thrown)}`, {
        chain: errorChain(thrown),
        stack: rawStack(thrown),
        fatal: true,
      }),
      logs.take(call),
    ),
    EXIT_FAULT,
  );
}

/** @param {any} frame */
async function onFrame(frame) {
  if (init === undefined) {
    if (frame?.t !== "init") exit(EXIT_CHANNEL);
    else await start(frame);
    return;
  }
  switch (frame?.t) {
    case "run":
      return run(frame);
    case "validate":
      return validate(frame);
    case "nested": {
      const call = current;
      const waiting = call !== undefined && call.id === frame.id ? call.subs.get(frame.sub) : undefined;
      if (call === undefined || waiting === undefined) return exit(EXIT_CHANNEL);
      call.subs.delete(frame.sub);
      return typeof frame.error === "string" ? waiting.reject(new Error(frame.error)) : waiting.resolve(frame.outcome);
    }
    default:
      exit(EXIT_CHANNEL);
  }
}

/** @param {Init} frame */
async function start(frame) {
  init = frame;
  reader = new FrameReader(frame.maxInboundFrameBytes);
  // Only the tool's allow-listed names: whatever a launcher added on the way (bwrap sets PWD) goes.
  for (const name of Object.keys(process.env)) if (!frame.env.includes(name)) delete process.env[name];
  const what = `tool ${quote(frame.name)}: its staged bundle ${frame.shownBundle}`;
  let bytes;
  try {
    bytes = readFileSync(frame.bundle);
  } catch (thrown) {
    const code = /** @type {{ code?: unknown }} */ (thrown)?.code;
    const why =
      code === "ENOENT" || code === "ENOTDIR"
        ? "is missing"
        : `could not be read (${typeof code === "string" ? code : "read error"})`;
    return sendAndExit(
      quote({
        t: "load-failed",
        code: "LOCK_MISMATCH",
        message: `${what} ${why}; deploy cave.lock together with its build folder`,
      }),
      0,
    );
  }
  const actual = `sha256-${createHash("sha256").update(bytes).digest("hex")}`;
  if (actual !== frame.sha256) {
    return sendAndExit(
      quote({
        t: "load-failed",
        code: "LOCK_MISMATCH",
        message: `${what} does not match the lock (the lock says ${frame.sha256}, the file hashes to ${actual}); rebuild with cave build and deploy the lock with its build folder`,
      }),
      0,
    );
  }

  // Scoped egress: the routes to the broker socket are prepared before the deny layer and installed after it.
  const installEgress = frame.egress === null ? undefined : await prepareEgress(frame.egress);
  installDenyLayer({
    selfPid: process.pid,
    pipe: /** @type {any} */ (channel)._handle,
    egressSocket: frame.egress ?? undefined,
    addons: frame.addons === true,
  });
  installEgress?.();
  output = installOutputCap((chunk, encoding) => logs.observe(chunk, encoding));

  let namespace;
  try {
    namespace = await import(pathToFileURL(frame.bundle).href);
  } catch (thrown) {
    return sendAndExit(
      quote({
        t: "load-failed",
        code: classifyThrown(thrown),
        message: `tool ${quote(frame.name)}: its module failed to load: ${deniedOrThrownMessage(thrown)}`,
      }),
      0,
    );
  }
  const value = Object.hasOwn(namespace, frame.exportName) ? namespace[frame.exportName] : undefined;
  if (
    typeof value !== "object" ||
    value === null ||
    value[TOOL_BRAND] !== true ||
    typeof value.execute !== "function" ||
    value.name !== frame.name
  ) {
    return sendAndExit(
      quote({
        t: "load-failed",
        code: "LOCK_MISMATCH",
        message: `${what} does not export it as ${quote(frame.exportName)} (a tool() definition with that name); rebuild with cave build`,
      }),
      0,
    );
  }
  tool = value;
  send('{"t":"ready"}');
}

/** @param {{ id: string, callId: string, idem?: string, input: unknown }} frame */
async function run(frame) {
  /** @type {Call} */
  const call = { id: frame.id, open: true, nextSub: 0, subs: new Map() };
  current = call;
  output?.reset();
  // Everything the call's code writes, now and from what it starts, is attributed to this call's tail.
  const text = await logs.run(call, () => runExecute(frame, call));
  if (!call.open) return; // an uncaught fault already answered for it
  call.open = false;
  current = undefined;
  // The answer comes after the call's (capped) output, so the next call never waits behind it.
  await output?.flushed();
  send(withLogs(text, logs.take(call)));
}

/** The answer's text to a run request: execute's result, or why there is none. @param {{ callId: string, idem?: string, input: unknown }} frame @param {Call} call @returns {Promise<string>} */
async function runExecute(frame, call) {
  const opts = /** @type {Init} */ (init);
  let text;
  try {
    let input = frame.input;
    if (opts.opaqueInput) {
      // The host validated the arguments already; an opaque validator's output (transforms applied)
      // is not necessarily JSON data, so it is produced again here, where execute receives it.
      const checked = await standardValidate("input", input);
      if (!checked.ok) {
        text = failText(
          call.id,
          "INPUT_INVALID",
          `the input validator of tool ${quote(opts.name)} rejected the arguments inside the sandbox although the host accepted them (does the validator keep state?)`,
          { issues: checked.issues },
        );
      } else input = checked.value;
    }
    if (text === undefined) {
      // idempotencyKey: idempotent tools only, the same for every attempt and resume of the call (docs/runtime.md).
      const context = freeze({
        signal: new AbortController().signal,
        callId: String(frame.callId),
        idempotencyKey: frame.idem === undefined ? undefined : String(frame.idem),
        call: (/** @type {unknown} */ name, /** @type {unknown} */ args) => nested(call, name, args),
      });
      const value = await tool.execute(input, context);
      // A tool without an output schema keeps native JSON serialisation; one with a schema returns plain data.
      const data = (opts.nativeOutput ? serialiseNative : serialise)(
        value === undefined ? null : value,
        opts.maxOutputBytes,
      );
      text = data.ok
        ? `{"t":"result","id":${quote(call.id)},"value":${data.text}}`
        : failText(call.id, problemCode(data.problem), "", { problem: data.problem });
    }
  } catch (thrown) {
    text = thrownText(call.id, thrown);
  }
  return text;
}

/** An answer frame's text with the call's output tail as its `logs` field (every answer is a JSON object). @param {string} text @param {string | undefined} tail */
function withLogs(text, tail) {
  return tail === undefined ? text : `${text.slice(0, -1)},"logs":${quote(tail)}}`;
}

/** The fail code for a value that cannot leave the child. @param {{ kind: string }} problem */
function problemCode(problem) {
  return problem.kind === "too-large"
    ? "OUTPUT_TOO_LARGE"
    : problem.kind === "too-deep"
      ? "OUTPUT_TOO_DEEP"
      : "OUTPUT_NOT_SERIALISABLE";
}

/** @param {Call} call @param {unknown} name @param {unknown} args */
function nested(call, name, args) {
  const opts = /** @type {Init} */ (init);
  if (!call.open) {
    const error = new Error(
      `tool ${quote(opts.name)} called ${quote(String(name))} after its own call had finished; await nested calls inside execute`,
    );
    return Promise.reject(Object.assign(error, { code: "PARENT_SETTLED" }));
  }
  if (typeof name !== "string")
    return Promise.reject(new TypeError(`context.call() needs a tool name string, got ${typeof name}`));
  const data = serialise(args, opts.maxFrameBytes);
  if (!data.ok) {
    const why =
      data.problem.kind === "too-large"
        ? `they are over ${opts.maxFrameBytes} bytes`
        : data.problem.kind === "too-deep"
          ? `they nest objects and arrays more than ${data.problem.maxDepth} levels deep`
          : `${data.problem.kind === "pollution" ? NOT_DATA.pollution : data.problem.what} at ${("path" in data.problem && data.problem.path) || "the top level"}`;
    return Promise.reject(
      new TypeError(`context.call(${quote(name)}) arguments must be plain JSON data to leave the sandbox: ${why}`),
    );
  }
  const sub = ++call.nextSub;
  return new Promise((resolve, reject) => {
    call.subs.set(sub, { resolve, reject });
    send(`{"t":"call","id":${quote(call.id)},"sub":${sub},"name":${quote(name)},"args":${data.text}}`);
  });
}

/** @param {{ id: string, side: "input" | "output", wantValue: boolean, value: unknown }} frame */
async function validate(frame) {
  const opts = /** @type {Init} */ (init);
  /** @type {Call} */
  const call = { id: frame.id, open: true, nextSub: 0, subs: new Map() };
  current = call;
  let text;
  try {
    const checked = await standardValidate(frame.side, frame.value);
    if (!checked.ok) text = quote({ t: "invalid", id: call.id, issues: checked.issues });
    else if (!frame.wantValue) text = `{"t":"validated","id":${quote(call.id)},"value":null}`;
    else {
      const data = serialise(checked.value, opts.maxOutputBytes);
      text = data.ok
        ? `{"t":"validated","id":${quote(call.id)},"value":${data.text}}`
        : failText(call.id, problemCode(data.problem), "", { problem: data.problem });
    }
  } catch (thrown) {
    text =
      thrown instanceof MissingValidator
        ? failText(call.id, "LOCK_MISMATCH", thrown.message)
        : thrownText(call.id, thrown);
  }
  if (!call.open) return;
  call.open = false;
  current = undefined;
  send(text);
}

class MissingValidator extends Error {}

/**
 * Runs the tool's Standard Schema for one side.
 * @param {"input" | "output"} side @param {unknown} value
 * @returns {Promise<{ ok: true, value: unknown } | { ok: false, issues: { path: string, message: string }[] }>}
 */
async function standardValidate(side, value) {
  const opts = /** @type {Init} */ (init);
  const standard = tool[side]?.["~standard"];
  if (typeof standard?.validate !== "function") {
    throw new MissingValidator(
      `tool ${quote(opts.name)}: the staged bundle ${opts.shownBundle} has no Standard Schema ${side} although the lock says it is validated by one; rebuild with cave build`,
    );
  }
  const result = await standard.validate(value);
  if (result.issues !== undefined) return { ok: false, issues: [...result.issues].slice(0, 100).map(toIssue) };
  return { ok: true, value: result.value };
}

/** Standard Schema paths are keys or { key } segments; issues use JSON Pointers. @param {any} issue */
function toIssue(issue) {
  const path = [...(issue?.path ?? [])]
    .map((segment) => {
      const key = typeof segment === "object" && segment !== null ? segment.key : segment;
      return `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
    })
    .join("");
  return { path, message: typeof issue?.message === "string" ? issue.message.slice(0, 1000) : "is invalid" };
}
