// @ts-check
// The child's side of scoped egress (runtime/sandbox/egress/): every HTTP client a tool ordinarily uses is routed
// to the one Unix socket the host bound into this sandbox for it, where the host's broker decides. fetch and
// undici's global dispatcher (what octokit and the OpenAI and Anthropic SDKs use) and the http/https modules'
// request functions (what axios and got use, whatever agent they pass, custom https.Agent instances included)
// send each request there in absolute-form (`GET https://api.github.com/x HTTP/1.1`); an https URL is sent as
// plain HTTP over the socket and the broker opens TLS upstream. Nothing here decides what is allowed: the child
// could send anything to its socket and the broker would still apply the host's policy. What it does decide is the
// routes that do not go there (HTTP/2, WebSocket, raw TCP, an undici pool or agent a tool makes itself): they end in
// the deny layer's refusals, NETWORK_REFUSED naming the route. A refusal by the broker becomes NETWORK_REFUSED
// naming the host.

import { createRequire, syncBuiltinESMExports } from "node:module";

const require = createRequire(import.meta.url);
/** Where undici (Node's own and any copy a tool bundles) keeps the dispatcher fetch uses. */
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");
/** The origin undici is told it talks to: only a key for its connection pool, never a real host. */
const BROKER_ORIGIN = "http://cave-egress";
const REFUSAL_HEADER = "x-cave-egress";

/**
 * Captures what the routes need before the deny layer replaces it (the socket's connect, http.request, fetch and
 * the Agent class of Node's own undici); returns the function that installs the routes once the layer is in.
 * @param {string} socketPath
 */
export async function prepareEgress(socketPath) {
  const net = require("node:net");
  const http = require("node:http");
  const https = require("node:https");
  const NetSocket = net.Socket;
  const socketConnect = /** @type {(this: import("node:net").Socket, options: { path: string }) => void} */ (
    /** @type {unknown} */ (net.Socket.prototype.connect)
  );
  const httpRequest = http.request;
  const fetch = globalThis.fetch;
  // Node loads its undici on the first fetch, which also makes the global dispatcher; a data: URL reaches no network.
  await fetch("data:,");
  const UndiciAgent = /** @type {any} */ (globalThis)[GLOBAL_DISPATCHER]?.constructor;
  if (typeof UndiciAgent !== "function")
    throw new Error("the egress routing could not reach Node's undici Agent class");

  const connectBroker = () => {
    const socket = new NetSocket();
    socketConnect.call(socket, { path: socketPath });
    return socket;
  };

  return function installEgress() {
    const agent = new UndiciAgent({
      connect(/** @type {unknown} */ _options, /** @type {(error: Error | null, socket: any) => void} */ callback) {
        const socket = connectBroker();
        const onError = (/** @type {Error} */ error) => callback(error, null);
        socket.once("error", onError);
        socket.once("connect", () => {
          socket.off("error", onError);
          callback(null, socket);
        });
        return socket;
      },
    });
    const dispatcher = {
      /** @param {any} options @param {any} handler */
      dispatch(options, handler) {
        if (options.upgrade) {
          const error = refusedRoute(
            `${String(options.upgrade).toLowerCase() === "websocket" ? "WebSocket" : "an HTTP upgrade"} through fetch or undici`,
          );
          queueMicrotask(() => handler.onError?.(error));
          return true;
        }
        const origin = typeof options.origin === "string" ? options.origin : String(options.origin);
        return agent.dispatch(
          { ...options, origin: BROKER_ORIGIN, path: `${origin.replace(/\/$/, "")}${options.path}` },
          refusalAware(handler),
        );
      },
      close: () => agent.close(),
      destroy: (/** @type {any[]} */ ...args) => agent.destroy(...args),
    };
    Object.defineProperty(globalThis, GLOBAL_DISPATCHER, {
      value: dispatcher,
      writable: true,
      enumerable: false,
      configurable: false,
    });
    Object.defineProperty(globalThis, "fetch", { value: fetch, writable: true, enumerable: true, configurable: true });

    // http and https: one keep-alive agent whose connections all go to the broker socket.
    const brokerAgent = new http.Agent({ keepAlive: true });
    Object.defineProperty(brokerAgent, "createConnection", { value: connectBroker });
    for (const [mod, scheme] of /** @type {const} */ ([
      [http, "http:"],
      [https, "https:"],
    ])) {
      const request = routedRequest(httpRequest, brokerAgent, scheme);
      replace(mod, "request", request);
      replace(mod, "get", function get(/** @type {any[]} */ ...args) {
        const req = request(...args);
        req.end();
        return req;
      });
    }
    syncBuiltinESMExports();
  };
}

/**
 * http.request / https.request through the broker: the arguments read as Node reads them (url, options, callback),
 * the target carried in the request line, the tool's agent, TLS and socket options ignored (the broker connects).
 * @param {typeof import("node:http").request} httpRequest @param {import("node:http").Agent} agent @param {"http:" | "https:"} scheme
 */
function routedRequest(httpRequest, agent, scheme) {
  return function request(/** @type {any[]} */ ...args) {
    /** @type {any} */
    let options = {};
    const callback = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
    if (typeof args[0] === "string" || args[0] instanceof URL) {
      const url = new URL(args[0]);
      options = {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        ...(url.username !== ""
          ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
          : {}),
        ...(args[1] ?? {}),
      };
    } else options = { ...(args[0] ?? {}) };
    if (options.socketPath !== undefined)
      throw refusedRoute(`${scheme.slice(0, -1)}.request to a local socket (socketPath)`);
    const protocol = options.protocol ?? scheme;
    if (protocol !== "http:" && protocol !== "https:")
      throw Object.assign(new TypeError(`Protocol "${protocol}" not supported. Expected "http:" or "https:"`), {
        code: "ERR_INVALID_PROTOCOL",
      });
    const hostname = String(options.hostname ?? options.host ?? "localhost").replace(/^\[(.*)\]$/, "$1");
    const port =
      options.port !== undefined && options.port !== "" && options.port !== null
        ? Number(options.port)
        : protocol === "https:"
          ? 443
          : 80;
    const host = hostname.includes(":") ? `[${hostname}]` : hostname;
    const req = httpRequest(
      {
        method: options.method,
        headers: options.headers,
        auth: options.auth,
        timeout: options.timeout,
        signal: options.signal,
        maxHeaderSize: options.maxHeaderSize,
        insecureHTTPParser: options.insecureHTTPParser,
        joinDuplicateHeaders: options.joinDuplicateHeaders,
        uniqueHeaders: options.uniqueHeaders,
        agent,
        host: "cave-egress",
        port: 80,
        protocol: "http:",
        setHost: false,
        path: `${protocol}//${host}:${port}${options.path ?? "/"}`,
      },
      callback,
    );
    // A broker refusal is an error of the request, never a response the tool's code would read as the API's answer.
    const emit = req.emit;
    req.emit = function emitChecked(/** @type {string | symbol} */ event, /** @type {any[]} */ ...rest) {
      if (event === "response") {
        const error = refusalOf(rest[0]?.headers?.[REFUSAL_HEADER], (name) => rest[0].headers[name]);
        if (error !== undefined) {
          rest[0].resume();
          req.destroy(error);
          return true;
        }
      }
      return emit.call(this, event, ...rest);
    };
    return req;
  };
}

/**
 * Wraps an undici handler so that a broker refusal aborts the request with its error instead of reaching fetch as a
 * response. Everything else is the tool's handler itself (prototype delegation keeps its state where it expects it).
 * @param {any} handler
 */
function refusalAware(handler) {
  /** @type {((error: Error) => void) | undefined} */
  let abort;
  const wrapped = Object.create(handler);
  wrapped.onConnect = function onConnect(
    /** @type {(error: Error) => void} */ abortRequest,
    /** @type {any[]} */ ...rest
  ) {
    abort = abortRequest;
    return handler.onConnect?.call(this, abortRequest, ...rest);
  };
  wrapped.onHeaders = function onHeaders(
    /** @type {number} */ status,
    /** @type {Buffer[]} */ raw,
    /** @type {any[]} */ ...rest
  ) {
    /** @type {Record<string, string>} */
    const seen = {};
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = String(raw[i]).toLowerCase();
      if (name.startsWith(REFUSAL_HEADER)) seen[name] = String(raw[i + 1]);
    }
    const error = refusalOf(seen[REFUSAL_HEADER], (name) => seen[name]);
    if (error !== undefined && abort !== undefined) {
      abort(error);
      return false;
    }
    return handler.onHeaders?.call(this, status, raw, ...rest);
  };
  return wrapped;
}

/**
 * The error a broker answer stands for, or undefined for an ordinary response. "refused": NETWORK_REFUSED naming the
 * host or route (the deny layer's error shape); "failed": a network error with the upstream's code (ECONNREFUSED...).
 * @param {unknown} kind @param {(name: string) => unknown} header
 */
function refusalOf(kind, header) {
  if (kind !== "refused" && kind !== "failed") return undefined;
  const message = String(header("x-cave-egress-message") ?? "egress was refused");
  const route = String(header("x-cave-egress-route") ?? "egress");
  if (kind === "failed")
    return Object.assign(new Error(message), { code: String(header("x-cave-egress-code") ?? "ECONNRESET"), route });
  const error = new Error(message);
  Object.defineProperties(error, {
    code: { value: "ERR_SANDBOX_DENIED", enumerable: true },
    route: { value: route, enumerable: true },
    network: { value: true, enumerable: true },
  });
  return error;
}

/** @param {string} route */
function refusedRoute(route) {
  const error = new Error(
    `${route} is refused in the cave sandbox: only HTTP/1.1 requests through fetch, undici's global dispatcher or the http/https modules reach the egress broker`,
  );
  Object.defineProperties(error, {
    code: { value: "ERR_SANDBOX_DENIED", enumerable: true },
    route: { value: route, enumerable: true },
    network: { value: true, enumerable: true },
  });
  return error;
}

/** @param {any} target @param {string} key @param {unknown} value */
function replace(target, key, value) {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    configurable: true,
    enumerable: Object.prototype.propertyIsEnumerable.call(target, key),
  });
}
