// @ts-check
// The deny layer, installed before any tool byte is evaluated. Node 20's permission model does not
// touch the network, and import hooks are not a fence (../shared/sandbox.md, findings 3-5), so every
// network route and escape hatch is replaced where all roads meet: the builtin module objects
// themselves (which `import`, `require`, `createRequire` and `process.getBuiltinModule` all return),
// the prototypes their internals call through (net.Socket#connect, Agent#createConnection,
// dgram.Socket#send), and the globals (fetch, WebSocket). Every module is loaded before anything is
// replaced, and syncBuiltinESMExports() then makes `import { connect } from "node:net"` see it too.

import { createRequire, syncBuiltinESMExports } from "node:module";

const require = createRequire(import.meta.url);

/**
 * The error every denied operation throws. `network` tells the host to report NETWORK_REFUSED.
 * @param {string} route
 * @param {boolean} network
 */
export function denial(route, network) {
  const error = new Error(`${route} is denied in the cave sandbox${network ? " (no network access)" : ""}`);
  Object.defineProperties(error, {
    code: { value: "ERR_SANDBOX_DENIED", enumerable: true },
    route: { value: route, enumerable: true },
    network: { value: network, enumerable: true },
  });
  return error;
}

/** @param {string} route @param {boolean} network */
function denyFunction(route, network) {
  return function denied() {
    throw denial(route, network);
  };
}

/** A class whose construction is denied (`new WebSocket(...)`, `new Worker(...)`). @param {string} route @param {boolean} network */
function denyClass(route, network) {
  return class Denied {
    constructor() {
      throw denial(route, network);
    }
  };
}

/** @param {any} target @param {string} key @param {unknown} value */
function replace(target, key, value) {
  if (target === undefined || target === null) return;
  try {
    // Writable on purpose: a library that wraps or polyfills (http.request = wrap(http.request), globalThis.fetch = ...)
    // must still load; what it wraps is the denial, and the originals are kept nowhere a tool can reach.
    Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: Object.prototype.propertyIsEnumerable.call(target, key) });
  } catch {
    target[key] = value;
  }
}

/** Replaces every listed function property of `target` with one that throws. @param {any} target @param {string} prefix @param {readonly string[]} keys @param {boolean} network */
function denyAll(target, prefix, keys, network) {
  for (const key of keys) if (target !== undefined && key in target) replace(target, key, denyFunction(`${prefix}.${key}`, network));
}

/** Every function-valued own property (dns, dns/promises, child_process: nothing in them is harmless). @param {any} target @param {string} prefix @param {boolean} network */
function denyFunctions(target, prefix, network) {
  for (const key of Object.getOwnPropertyNames(target)) {
    if (typeof target[key] === "function" && !/^[A-Z]/.test(key)) replace(target, key, denyFunction(`${prefix}.${key}`, network));
  }
}

/**
 * Installs the layer. `selfPid` is the one process a tool may still signal: itself (it may exit
 * anyway); the host, its group (0 or a negative pid) and every other process are refused.
 * @param {{ selfPid: number }} options
 */
export function installDenyLayer({ selfPid }) {
  /** @type {Record<string, any>} */
  const m = {};
  for (const name of ["net", "http", "https", "tls", "dgram", "dns", "dns/promises", "http2", "child_process", "worker_threads", "inspector", "v8", "wasi", "cluster", "module", "trace_events"]) {
    m[name] = require(`node:${name}`);
  }
  try {
    m["inspector/promises"] = require("node:inspector/promises");
  } catch {
    // Not in every Node version.
  }

  // Network: the globals.
  replace(globalThis, "fetch", async function fetch() {
    throw denial("fetch", true);
  });
  // Defined even where this Node has no such global (WebSocket is behind a flag on 20), so a tool
  // gets the same refusal on every version instead of a ReferenceError on some.
  for (const name of ["WebSocket", "EventSource"]) replace(globalThis, name, denyClass(name, true));

  // net: the choke points under http, https, tls and every client library.
  const net = m.net;
  const OriginalSocket = net.Socket;
  class Socket extends OriginalSocket {
    /** @param {any} options */
    constructor(options) {
      // Wrapping an inherited descriptor (`{ fd }`) or handle would bypass connect().
      if (options !== null && typeof options === "object" && (options.fd !== undefined || options.handle !== undefined)) throw denial("new net.Socket({ fd })", true);
      super(options);
    }
  }
  replace(OriginalSocket.prototype, "connect", denyFunction("net.Socket.prototype.connect", true));
  replace(net.Server.prototype, "listen", denyFunction("net.Server.prototype.listen", true));
  replace(net, "Socket", Socket);
  replace(net, "Stream", Socket);
  denyAll(net, "net", ["connect", "createConnection", "createServer", "_createServerHandle"], true);

  for (const name of ["http", "https"]) {
    const mod = m[name];
    replace(mod.Agent.prototype, "createConnection", denyFunction(`${name}.Agent.prototype.createConnection`, true));
    if (Object.hasOwn(mod.globalAgent, "createConnection")) replace(mod.globalAgent, "createConnection", denyFunction(`${name}.globalAgent.createConnection`, true));
    denyAll(mod, name, ["request", "get", "createServer"], true);
  }
  replace(m.http, "ClientRequest", denyClass("http.ClientRequest", true));
  denyAll(m.tls, "tls", ["connect", "createServer", "createSecurePair"], true);
  denyAll(m.http2, "http2", ["connect", "createServer", "createSecureServer", "performServerHandshake"], true);

  const dgram = m.dgram;
  for (const key of ["bind", "send", "connect", "sendto", "addMembership", "addSourceSpecificMembership"]) {
    if (typeof dgram.Socket.prototype[key] === "function") replace(dgram.Socket.prototype, key, denyFunction(`dgram.Socket.prototype.${key}`, true));
  }
  denyAll(dgram, "dgram", ["createSocket", "_createSocketHandle"], true);

  for (const name of ["dns", "dns/promises"]) {
    const mod = m[name];
    denyFunctions(mod, name, true);
    for (const key of Object.getOwnPropertyNames(mod.Resolver.prototype)) {
      if (key !== "constructor" && typeof mod.Resolver.prototype[key] === "function") replace(mod.Resolver.prototype, key, denyFunction(`${name}.Resolver.prototype.${key}`, true));
    }
  }
  // dns.promises is the same object as dns/promises, already done.

  // Escape hatches (the permission model refuses most of them too; this layer names them).
  denyFunctions(m.child_process, "child_process", false);
  replace(m.child_process, "ChildProcess", denyClass("child_process.ChildProcess", false));
  replace(m.worker_threads, "Worker", denyClass("worker_threads.Worker", false));
  denyAll(m.inspector, "inspector", ["open", "url", "waitForDebugger"], false);
  replace(m.inspector, "Session", denyClass("inspector.Session", false));
  if (m["inspector/promises"]) replace(m["inspector/promises"], "Session", denyClass("inspector.Session", false));
  denyAll(m.v8, "v8", ["setFlagsFromString", "writeHeapSnapshot", "setHeapSnapshotNearHeapLimit"], false);
  replace(m.wasi, "WASI", denyClass("wasi.WASI", false));
  denyAll(m.cluster, "cluster", ["fork", "setupPrimary", "setupMaster"], false);
  denyAll(m.module, "module", ["register"], false);
  denyAll(m.trace_events, "trace_events", ["createTracing"], false);

  // process: raw bindings, addons, reports written to disk, signals.
  denyAll(process, "process", ["binding", "_linkedBinding", "dlopen", "abort", "_debugProcess", "_debugEnd", "_startProfilerIdleNotifier", "_stopProfilerIdleNotifier", "setuid", "setgid", "seteuid", "setegid", "setgroups", "initgroups"], false);
  replace(process, "report", Object.freeze({ writeReport: denyFunction("process.report.writeReport", false), getReport: denyFunction("process.report.getReport", false) }));
  // pid 0 and negative pids name process groups; only this process's own pid may be signalled.
  // process.kill() calls process._kill() (the raw binding) itself, so both check.
  const kill = process.kill.bind(process);
  const rawKill = /** @type {any} */ (process)._kill.bind(process);
  /** @param {string} route @param {unknown} pid */
  const checkPid = (route, pid) => {
    if (pid !== selfPid) throw denial(`${route}(${typeof pid === "number" ? pid : typeof pid})`, false);
  };
  replace(process, "kill", function killSelf(/** @type {unknown} */ pid, /** @type {any} */ signal) {
    checkPid("process.kill", pid);
    return kill(selfPid, signal);
  });
  replace(process, "_kill", function rawKillSelf(/** @type {unknown} */ pid, /** @type {unknown} */ signal) {
    checkPid("process._kill", pid);
    return rawKill(pid, signal);
  });

  syncBuiltinESMExports();
}

/**
 * Which outcome code a thrown value maps to: a refusal of this layer or of the permission model, or
 * an ordinary tool error. Looks through `cause` (fetch and client libraries wrap errors).
 * @param {unknown} thrown
 * @returns {"NETWORK_REFUSED" | "SANDBOX_DENIED" | "TOOL_ERROR"}
 */
export function classifyThrown(thrown) {
  try {
    let error = /** @type {any} */ (thrown);
    for (let depth = 0; typeof error === "object" && error !== null && depth < 4; depth++, error = error.cause) {
      if (error.code === "ERR_SANDBOX_DENIED") return error.network === true ? "NETWORK_REFUSED" : "SANDBOX_DENIED";
      if (error.code === "ERR_ACCESS_DENIED" || error.code === "ERR_DLOPEN_DISABLED") return "SANDBOX_DENIED";
    }
  } catch {
    // A getter that throws: an ordinary error.
  }
  return "TOOL_ERROR";
}
