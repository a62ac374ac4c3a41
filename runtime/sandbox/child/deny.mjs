// @ts-check
// The deny layer, installed before any tool byte is evaluated. Node 20's permission model does not
// touch the network, and import hooks are not a fence (../shared/sandbox.md, findings 3-5). Every
// socket, whatever JavaScript reached it, is finally made by a method of one of Node's native handle
// classes (TCP, Pipe, UDP, c-ares' ChannelWrap): those methods are denied on the classes' prototypes,
// which no code can get around by finding another route to the same class (the sandbox-boundary
// issue's weaknesses 1 and 2). On top, the routes are named where all roads meet, for a clear
// message: the builtin module objects themselves (which `import`, `require`, `createRequire` and
// `process.getBuiltinModule` all return), the prototypes their internals call through, and the
// globals (fetch, WebSocket). Functions are replaced, never classes Node's own code calls (TLSSocket
// calls net.Socket without `new`), and nothing ordinary libraries write at import is frozen (sharp
// sets process.report.excludeNetwork): libraries import normally and fail only when they act. Every
// module is loaded before anything is replaced, and syncBuiltinESMExports() then makes
// `import { connect } from "node:net"` see it too. What JavaScript cannot stop (existence checks
// through module resolution, the kernel's whole surface) is the OS layer's job (docs/sandbox.md).

import { createRequire, syncBuiltinESMExports } from "node:module";
import { resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";

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
    Object.defineProperty(target, key, {
      value,
      writable: true,
      configurable: true,
      enumerable: Object.prototype.propertyIsEnumerable.call(target, key),
    });
  } catch {
    target[key] = value;
  }
}

/** Replaces every listed function property of `target` with one that throws. @param {any} target @param {string} prefix @param {readonly string[]} keys @param {boolean} network */
function denyAll(target, prefix, keys, network) {
  for (const key of keys)
    if (target !== undefined && key in target) replace(target, key, denyFunction(`${prefix}.${key}`, network));
}

/** Every function-valued own property (dns, dns/promises, child_process: nothing in them is harmless). @param {any} target @param {string} prefix @param {boolean} network */
function denyFunctions(target, prefix, network) {
  for (const key of Object.getOwnPropertyNames(target)) {
    if (typeof target[key] === "function" && !/^[A-Z]/.test(key))
      replace(target, key, denyFunction(`${prefix}.${key}`, network));
  }
}

/**
 * The native handle classes' prototypes, found from objects Node hands out (the permission model refuses
 * process.binding, so this is how the layer reaches them, as a tool could): Pipe from `pipe`, the caller's own
 * channel to its host, already open; TCP from a server handle net makes on the loopback (bound to an ephemeral
 * port, never listening, closed at once); UDP from an unbound dgram socket; ChannelWrap from a dns.Resolver.
 * Missing one is fatal: the layer would have a hole.
 * @param {Record<string, any>} m @param {any} pipe
 */
function nativePrototypes(m, pipe) {
  const found = /** @type {Record<string, any>} */ ({});
  if (pipe?.constructor?.name !== "Pipe") throw new Error("the deny layer needs the child's channel (a Pipe handle)");
  found.Pipe = Object.getPrototypeOf(pipe);
  let tcp = m.net._createServerHandle("127.0.0.1", 0, 4);
  if (typeof tcp === "number") tcp = m.net._createServerHandle("::1", 0, 6);
  if (typeof tcp === "number") throw new Error(`the deny layer could not reach the TCP handle class (error ${tcp})`);
  found.TCP = Object.getPrototypeOf(tcp);
  tcp.close();
  const udp = new m.dgram.Socket("udp4");
  const state = Object.getOwnPropertySymbols(udp)
    .map((key) => udp[key])
    .find(
      (value) => value !== null && typeof value === "object" && value.handle !== undefined && value.handle !== null,
    );
  if (state === undefined) throw new Error("the deny layer could not reach the UDP handle class");
  found.UDP = Object.getPrototypeOf(state.handle);
  udp.close();
  found.ChannelWrap = Object.getPrototypeOf(new m.dns.Resolver()._handle);
  return found;
}

/** The native methods that make a socket do something: connect, bind, listen, send, or wrap an inherited descriptor (open). */
const NATIVE_DENIED = {
  TCP: ["open", "bind", "bind6", "listen", "connect", "connect6"],
  Pipe: ["open", "bind", "listen", "connect"],
  UDP: [
    "open",
    "bind",
    "bind6",
    "connect",
    "connect6",
    "send",
    "send6",
    "addMembership",
    "addSourceSpecificMembership",
  ],
};

/**
 * Installs the layer. `selfPid` is the one process a tool may still signal: itself (it may exit
 * anyway); the host, its group (0 or a negative pid) and every other process are refused. `pipe` is the
 * caller's own open channel handle (see nativePrototypes). `egressSocket`: the path of the tool's egress broker
 * socket, the only address a Unix socket may connect to (child/egress.mjs), when the tool has scoped egress.
 * `addons`: the tool's profile allows native addons (sandboxProfile.addons, only ever under the OS layer), so
 * process.dlopen stays.
 * @param {{ selfPid: number, pipe: any, egressSocket?: string, addons?: boolean }} options
 */
export function installDenyLayer({ selfPid, pipe, egressSocket, addons = false }) {
  /** @type {Record<string, any>} */
  const m = {};
  for (const name of [
    "net",
    "http",
    "https",
    "tls",
    "dgram",
    "dns",
    "dns/promises",
    "http2",
    "child_process",
    "worker_threads",
    "inspector",
    "v8",
    "wasi",
    "cluster",
    "module",
    "trace_events",
  ]) {
    m[name] = require(`node:${name}`);
  }
  for (const name of ["os", "fs", "fs/promises"]) m[name] = require(`node:${name}`);
  try {
    m["inspector/promises"] = require("node:inspector/promises");
  } catch {
    // Not in every Node version.
  }

  // Node makes process.stdout/stderr/stdin on first use, wrapping a pipe descriptor with the native open() this layer
  // refuses: they are made now, so a tool's console.log and console.error keep working.
  for (const stream of ["stdout", "stderr", "stdin"]) {
    try {
      void (/** @type {any} */ (process)[stream]);
    } catch {
      // A descriptor Node cannot wrap (closed, or refused by the permission model): it stays unusable, as before.
    }
  }

  // Network, at the bottom: the native handles every route ends in.
  const native = nativePrototypes(m, pipe);
  const pipeConnect = native.Pipe.connect;
  for (const [name, keys] of Object.entries(NATIVE_DENIED)) {
    for (const key of keys)
      if (typeof native[name][key] === "function")
        replace(native[name], key, denyFunction(`native ${name}.${key}`, true));
  }
  if (egressSocket !== undefined) {
    // The one connection a tool with scoped egress may open: to its own broker socket, where the host decides.
    replace(
      native.Pipe,
      "connect",
      /** @this {any} @param {unknown} req @param {unknown} address @param {unknown[]} rest */ function connect(
        req,
        address,
        ...rest
      ) {
        if (address !== egressSocket) throw denial("native Pipe.connect", true);
        return pipeConnect.call(this, req, address, ...rest);
      },
    );
  }
  for (const key of Object.getOwnPropertyNames(native.ChannelWrap)) {
    if (/^(query|getHostByAddr)/.test(key))
      replace(native.ChannelWrap, key, denyFunction(`native ChannelWrap.${key}`, true));
  }

  // Network: the globals.
  replace(globalThis, "fetch", async function fetch() {
    throw denial("fetch", true);
  });
  // Defined even where this Node has no such global (WebSocket is behind a flag on 20), so a tool
  // gets the same refusal on every version instead of a ReferenceError on some.
  for (const name of ["WebSocket", "EventSource"]) replace(globalThis, name, denyClass(name, true));

  // net: the choke points under http, https, tls and every client library (net.Socket itself stays:
  // Node's TLSSocket calls it without `new`; wrapping a descriptor is refused by the native open()).
  const net = m.net;
  replace(net.Socket.prototype, "connect", denyFunction("net.Socket.prototype.connect", true));
  replace(net.Server.prototype, "listen", denyFunction("net.Server.prototype.listen", true));
  denyAll(net, "net", ["connect", "createConnection", "createServer", "_createServerHandle"], true);

  for (const name of ["http", "https"]) {
    const mod = m[name];
    replace(mod.Agent.prototype, "createConnection", denyFunction(`${name}.Agent.prototype.createConnection`, true));
    if (Object.hasOwn(mod.globalAgent, "createConnection"))
      replace(mod.globalAgent, "createConnection", denyFunction(`${name}.globalAgent.createConnection`, true));
    denyAll(mod, name, ["request", "get", "createServer"], true);
  }
  denyAll(m.tls, "tls", ["connect", "createServer", "createSecurePair"], true);
  denyAll(m.http2, "http2", ["connect", "createServer", "createSecureServer", "performServerHandshake"], true);

  const dgram = m.dgram;
  for (const key of ["bind", "send", "connect", "sendto", "addMembership", "addSourceSpecificMembership"]) {
    if (typeof dgram.Socket.prototype[key] === "function")
      replace(dgram.Socket.prototype, key, denyFunction(`dgram.Socket.prototype.${key}`, true));
  }
  denyAll(dgram, "dgram", ["createSocket", "_createSocketHandle"], true);

  for (const name of ["dns", "dns/promises"]) {
    const mod = m[name];
    denyFunctions(mod, name, true);
    for (const key of Object.getOwnPropertyNames(mod.Resolver.prototype)) {
      if (key !== "constructor" && typeof mod.Resolver.prototype[key] === "function")
        replace(mod.Resolver.prototype, key, denyFunction(`${name}.Resolver.prototype.${key}`, true));
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
  denyAll(
    process,
    "process",
    [
      "binding",
      "_linkedBinding",
      ...(addons ? [] : ["dlopen"]),
      "abort",
      "_debugProcess",
      "_debugEnd",
      "_startProfilerIdleNotifier",
      "_stopProfilerIdleNotifier",
      "setuid",
      "setgid",
      "seteuid",
      "setegid",
      "setgroups",
      "initgroups",
    ],
    false,
  );
  // process.report stays Node's own object, which libraries read and write at import (sharp and detect-libc set
  // excludeNetwork and read the glibc version from getReport()); only what writes a file or installs a handler is refused.
  denyReport(process.report);

  // The host's (or, as root, any process's) scheduling priority: only this process's own may change.
  const setPriority = m.os.setPriority;
  replace(m.os, "setPriority", function setOwnPriority(/** @type {unknown} */ pid, /** @type {unknown} */ priority) {
    if (priority === undefined) return setPriority(pid);
    if (pid !== 0 && pid !== selfPid)
      throw denial(`os.setPriority(${typeof pid === "number" ? pid : typeof pid})`, false);
    return setPriority(pid, priority);
  });

  // fs.realpath in JavaScript walks paths with checks the permission model (Node 20) does not make, which would
  // tell a tool whether any path on the machine exists: a path it may not read is refused first, as a read is.
  const permission = /** @type {any} */ (process).permission;
  if (permission !== undefined) {
    const has = permission.has.bind(permission);
    /** @param {unknown} path */
    const checkRead = (path) => {
      let text = path instanceof URL ? fileURLToPath(path) : Buffer.isBuffer(path) ? path.toString() : String(path);
      text = resolvePath(text);
      if (!has("fs.read", text))
        throw Object.assign(new Error("Access to this API has been restricted"), {
          code: "ERR_ACCESS_DENIED",
          permission: "FileSystemRead",
          resource: text,
        });
    };
    const fs = m.fs;
    const { realpathSync, realpath } = fs;
    const nativeSync = realpathSync.native;
    const nativeAsync = realpath.native;
    const checkedSync = Object.assign(
      function realpathSyncChecked(/** @type {any} */ path, /** @type {any} */ options) {
        checkRead(path);
        return realpathSync(path, options);
      },
      { native: nativeSync },
    );
    const checked = Object.assign(
      function realpathChecked(/** @type {any} */ path, /** @type {any} */ options, /** @type {any} */ callback) {
        try {
          checkRead(path);
        } catch (error) {
          const done = typeof options === "function" ? options : callback;
          if (typeof done === "function") process.nextTick(done, error);
          return undefined;
        }
        return realpath(path, options, callback);
      },
      { native: nativeAsync },
    );
    replace(fs, "realpathSync", checkedSync);
    replace(fs, "realpath", checked);
  }
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
 * Refuses what would make Node write a report file or act on a signal, and keeps the rest of process.report (a live
 * object libraries configure at import) as Node made it.
 * @param {any} report
 */
function denyReport(report) {
  if (report === undefined || report === null) return;
  replace(report, "writeReport", denyFunction("process.report.writeReport", false));
  for (const key of [
    "directory",
    "filename",
    "reportOnFatalError",
    "reportOnSignal",
    "reportOnUncaughtException",
    "signal",
  ]) {
    const descriptor = Object.getOwnPropertyDescriptor(report, key);
    if (descriptor === undefined) continue;
    const route = `setting process.report.${key}`;
    Object.defineProperty(report, key, {
      get: descriptor.get ?? (() => descriptor.value),
      set() {
        throw denial(route, false);
      },
      enumerable: descriptor.enumerable,
      configurable: false,
    });
  }
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
    /** @type {"SANDBOX_DENIED" | undefined} */
    let denied;
    for (let depth = 0; typeof error === "object" && error !== null && depth < 4; depth++, error = error.cause) {
      // A client library's wrapper copies the code but not `network` (got's RequestError): the cause decides.
      if (error.code === "ERR_SANDBOX_DENIED" && typeof error.network === "boolean")
        return error.network ? "NETWORK_REFUSED" : "SANDBOX_DENIED";
      if (
        error.code === "ERR_SANDBOX_DENIED" ||
        error.code === "ERR_ACCESS_DENIED" ||
        error.code === "ERR_DLOPEN_DISABLED"
      )
        denied ??= "SANDBOX_DENIED";
    }
    if (denied !== undefined) return denied;
  } catch {
    // A getter that throws: an ordinary error.
  }
  return "TOOL_ERROR";
}
