import {
  createServer as createHttpServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Socket } from "node:net";
import { Readable } from "node:stream";
import { generate } from "selfsigned";

/** What an upstream saw of one request: never trusted from the client's say-so, read off the wire. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly bodyBytes: number;
}

/**
 * A real HTTP or HTTPS server on 127.0.0.1 (ephemeral port) standing in for a remote API:
 * /echo... answers with what it saw as JSON (an authorization header only as "[present]": a tool reading the answer
 * must not learn a credential from it; `seen` has the real value), /redirect?to=URL answers 302 to URL,
 * /stream?mb=N streams N MiB, anything else answers 200 "hello from NAME".
 */
export interface Upstream {
  readonly name: string;
  readonly port: number;
  readonly seen: Seen[];
  close(): Promise<void>;
}

export async function startUpstream(name: string, tls?: { key: string; cert: string }): Promise<Upstream> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let bodyBytes = 0;
    req.on("data", (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on("end", () => {
      const entry = { method: req.method ?? "", url: req.url ?? "", headers: { ...req.headers }, bodyBytes };
      seen.push(entry);
      const url = new URL(req.url ?? "/", "http://upstream");
      if (url.pathname.startsWith("/echo")) {
        res.setHeader("content-type", "application/json");
        const headers = {
          ...entry.headers,
          ...(entry.headers.authorization === undefined ? {} : { authorization: "[present]" }),
        };
        res.end(JSON.stringify({ from: name, ...entry, headers }));
      } else if (url.pathname === "/redirect") {
        res.writeHead(302, { location: url.searchParams.get("to") ?? "/" });
        res.end();
      } else if (url.pathname === "/stream") {
        const total = Number(url.searchParams.get("mb") ?? "1") * 1_048_576;
        const chunk = Buffer.alloc(65_536, 120);
        let sent = 0;
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(total) });
        Readable.from(
          (function* () {
            while (sent < total) {
              sent += chunk.length;
              yield chunk;
            }
          })(),
        ).pipe(res);
      } else {
        res.setHeader("content-type", "text/plain");
        res.end(`hello from ${name}`);
      }
    });
  };
  const server: Server = tls === undefined ? createHttpServer(handler) : createHttpsServer(tls, handler);
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    name,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A throwaway certificate authority and a server certificate it signed for `hosts` (generated at test time). */
export async function testCertificates(hosts: readonly string[]): Promise<{ ca: string; key: string; cert: string }> {
  const ca = await generate([{ name: "commonName", value: "cave test CA" }], {
    keySize: 2048,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: "commonName", value: hosts[0] ?? "localhost" }], {
    keySize: 2048,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: hosts.map((host) => ({ type: 2 as const, value: host })) },
    ],
  });
  return { ca: ca.cert, key: leaf.private, cert: leaf.cert };
}

/** One request straight to a broker socket, as the child's routing sends it (absolute-form); the whole answer. */
export function viaSocket(
  socketPath: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; headers: IncomingMessage["headers"]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath, path: target, method: options.method ?? "GET", headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}
