import { schema, tool } from "cave";
import { createRequire } from "node:module";
import * as staticNet from "node:net";

/** Waits for a callback-style or event-style attempt to fail (or, if the sandbox let it through, to connect). */
function attempt(start: (done: (error: unknown, value?: unknown) => void) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ reached: "no answer within 3 s" }), 3000);
    try {
      start((error, value) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve({ reached: value ?? true });
      });
    } catch (thrown) {
      clearTimeout(timer);
      reject(thrown);
    }
  });
}

/**
 * Tries one network route at the canary the test started on 127.0.0.1 (row 16). It does not catch the
 * error, so the call's outcome says how the route was stopped.
 */
export const netRoute = tool({
  name: "net_route",
  description: "Try to reach the network one way.",
  input: schema.object({ route: schema.string(), port: schema.integer() }),
  effect: "read",
  allowRepeat: true,
  timeout: 10_000,
  async execute({ route, port }) {
    const host = "127.0.0.1";
    const url = `http://${host}:${port}/`;
    // A data: URL module (how staged bundles are imported) has no file URL of its own to resolve from.
    const require = createRequire(import.meta.url.startsWith("file:") ? import.meta.url : "file:///");
    switch (route) {
      case "fetch":
        return { reached: (await fetch(url)).status };
      case "net.connect":
        return attempt((done) => staticNet.connect(port, host).on("connect", () => done(null, "connect")).on("error", done));
      case "net.Socket#connect":
        return attempt((done) => new staticNet.Socket().connect(port, host).on("connect", () => done(null, "connect")).on("error", done));
      case "http.get": {
        const http = await import("node:http");
        return attempt((done) => http.get(url, (res) => done(null, res.statusCode)).on("error", done));
      }
      case "https.get": {
        const https = await import("node:https");
        return attempt((done) => https.get(`https://${host}:${port}/`, { rejectUnauthorized: false }, (res) => done(null, res.statusCode)).on("error", done));
      }
      case "globalAgent.createConnection": {
        const http = await import("node:http");
        const agent = http.globalAgent as unknown as { createConnection(options: object): staticNet.Socket };
        return attempt((done) => agent.createConnection({ port, host }).on("connect", () => done(null, "connect")).on("error", done));
      }
      case "tls.connect": {
        const tls = await import("node:tls");
        return attempt((done) => tls.connect({ port, host, rejectUnauthorized: false }).on("secureConnect", () => done(null, "tls")).on("error", done));
      }
      case "http2.connect": {
        const http2 = await import("node:http2");
        return attempt((done) => http2.connect(url).on("connect", () => done(null, "h2")).on("error", done));
      }
      case "dgram": {
        const dgram = await import("node:dgram");
        return attempt((done) => dgram.createSocket("udp4").send("canary", port, host, (error) => done(error, "sent")));
      }
      case "dns.lookup": {
        const dns = await import("node:dns");
        return attempt((done) => dns.lookup("localhost", (error, address) => done(error, address)));
      }
      case "dns.promises": {
        const dns = await import("node:dns/promises");
        return { reached: await dns.resolve4("localhost") };
      }
      case "WebSocket": {
        const WS = (globalThis as unknown as { WebSocket: new (url: string) => unknown }).WebSocket;
        return attempt((done) => {
          const ws = new WS(`ws://${host}:${port}/`) as { addEventListener(type: string, f: (e: unknown) => void): void };
          ws.addEventListener("open", () => done(null, "open"));
          ws.addEventListener("error", (e) => done(e));
        });
      }
      case "createRequire": {
        const net = require("node:net") as typeof staticNet;
        return attempt((done) => net.connect(port, host).on("connect", () => done(null, "connect")).on("error", done));
      }
      case "import": {
        const net = await import("node:net");
        return attempt((done) => net.connect(port, host).on("connect", () => done(null, "connect")).on("error", done));
      }
      case "getBuiltinModule": {
        const net = (process as unknown as { getBuiltinModule(id: string): typeof staticNet }).getBuiltinModule("node:net");
        return attempt((done) => net.createConnection({ port, host }).on("connect", () => done(null, "connect")).on("error", done));
      }
      case "Function-process": {
        const proc = Function("return process")() as { getBuiltinModule(id: string): typeof staticNet };
        const net = proc.getBuiltinModule("net");
        return attempt((done) => net.connect(port, host).on("connect", () => done(null, "connect")).on("error", done));
      }
      case "binding-tcp_wrap": {
        const binding = (process as unknown as { binding(name: string): { TCP: new (type: number) => unknown } }).binding("tcp_wrap");
        return { reached: typeof new binding.TCP(0) };
      }
      case "socket-fd":
        return { reached: typeof new staticNet.Socket({ fd: 3 }) };
      case "listen":
        return attempt((done) => staticNet.createServer().listen(0, host, () => done(null, "listening")).on("error", done));
      default:
        throw new Error(`unknown route ${route}`);
    }
  },
});
