import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { coveringEntry, defaultPort, secretHeaderValue, type SecretScope } from "../../../src/contract/egress.js";
import type { EgressRecord } from "../../../src/contract/outcome.js";
import { http } from "../builtins.js";
import { refusalHead, REFUSAL_HEADER, type Refusal } from "./refusal.js";
import { resolveTarget } from "./resolve.js";
import type { ResolvedEgressOptions } from "./options.js";
import { openUpstream, type UpstreamAgents } from "./upstream.js";
import { monotonicMs } from "../../run/clock.js";

/** What one sandboxed tool may reach: its locked sandboxProfile.egress and .secrets. */
export interface EgressScope {
  readonly egress: readonly string[];
  readonly secrets: Readonly<Record<string, SecretScope>>;
}

/** Where the channel's socket is seen inside the child's mount namespace (the OS layer binds it there). */
export const CHILD_SOCKET_PATH = "/run/cave/egress.sock";

/** Headers that describe one hop, never forwarded either way (RFC 9110 §7.6.1), and the broker's own. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);

interface InFlight {
  readonly record: MutableRecord;
  readonly cut: () => void;
}

type MutableRecord = { -readonly [K in keyof EgressRecord]: EgressRecord[K] } & { readonly started: number };

/**
 * One sandbox child's egress: a Unix socket of its own, served by a small HTTP/1.1 proxy on the host. Policy comes
 * only from which channel a request arrives on (this one's scope), never from anything the child sends. The child
 * sends every request in absolute-form (`GET https://api.github.com/x HTTP/1.1`, as to a forward proxy); the scheme
 * in it says whether the broker opens TLS upstream. The broker resolves the host itself, refuses internal addresses
 * unless the host is listed by its exact name, connects to the address it checked, injects the scope's secrets on
 * their hosts only, passes redirects back to the child (a follow-up to an unlisted host is refused like any other
 * request), streams both bodies, and records each request for the call's receipt, never a header or a body.
 * Requests are served only while a call is armed; ending the call cuts what is still in flight.
 */
export class EgressChannel {
  /** The socket's path on the host (inside a private 0700 folder). */
  readonly hostPath: string;
  private readonly dir: string;
  private readonly server: Server;
  private secrets: ReadonlyMap<string, string> | undefined;
  private records: EgressRecord[] = [];
  private readonly inFlight = new Set<InFlight>();
  private closed = false;

  constructor(
    private readonly scope: EgressScope,
    private readonly options: ResolvedEgressOptions,
    private readonly agents: UpstreamAgents,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), "cave-egress-"));
    this.hostPath = join(this.dir, "s");
    this.server = http().createServer({ requireHostHeader: false }, (req, res) => void this.serve(req, res));
    this.server.on("upgrade", (req: IncomingMessage, socket: Duplex) =>
      this.refuseRaw(req, socket, {
        kind: "refused",
        route: upgradeRoute(req),
        message: `${upgradeRoute(req)} is not supported through the cave egress broker (HTTP/1.1 requests only)`,
      }),
    );
    this.server.on("connect", (req: IncomingMessage, socket: Duplex) =>
      this.refuseRaw(req, socket, {
        kind: "refused",
        route: "CONNECT tunnel",
        message: "a CONNECT tunnel (raw TCP) is not supported through the cave egress broker (HTTP/1.1 requests only)",
      }),
    );
    this.server.on("clientError", (_error, socket: Socket) => socket.destroy());
    // Binding is synchronous for a path: the socket exists when the constructor returns, before the child is started.
    this.server.listen(this.hostPath);
    this.server.unref();
  }

  /** A call begins: requests are served with these secret values (name -> value) until disarm(); each one ends up in `log` (the call's receipt). */
  arm(secrets: ReadonlyMap<string, string>, log: EgressRecord[] = []): void {
    this.secrets = secrets;
    this.records = log;
  }

  /** The call ended: requests still in flight are cut (and logged); returns the call's log. */
  disarm(): EgressRecord[] {
    this.secrets = undefined;
    for (const flight of [...this.inFlight]) {
      flight.cut();
      this.finish(flight, "cut");
    }
    const records = this.records;
    this.records = [];
    return records;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.disarm();
    this.server.close();
    this.server.closeAllConnections();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = monotonicMs();
    const target = parseTarget(req.url ?? "");
    const record: MutableRecord = {
      host: target?.host ?? "",
      port: target?.port ?? 0,
      method: req.method ?? "",
      status: null,
      outcome: "refused",
      bytesSent: 0,
      bytesReceived: 0,
      durationMs: 0,
      started,
    };
    const secrets = this.secrets;
    if (target === null)
      return this.refuse(req, res, record, {
        kind: "refused",
        route: "request",
        message: "the cave egress broker takes requests in absolute-form only (GET https://host/path HTTP/1.1)",
      });
    const named = `${target.host}:${target.port}`;
    if (secrets === undefined)
      return this.refuse(req, res, record, {
        kind: "refused",
        route: named,
        message: `egress to ${named} was refused: no call of this tool is running (module top-level code and leftover timers have no egress)`,
      });
    const covering = coveringEntry(this.scope.egress, target.host, target.port);
    if (covering === undefined)
      return this.refuse(req, res, record, {
        kind: "refused",
        route: named,
        message: `egress to ${named} was refused: it is not in the tool's sandboxProfile.egress; add "${target.port === defaultPort(target.scheme) ? target.host : named}" there and rebuild`,
      });
    const exact = !covering.rule.wildcard;
    const resolved = await resolveTarget(target.host, target.port, exact, this.options.resolve);
    if (!resolved.ok) return this.refuse(req, res, record, resolved.refusal);
    const headers = forwardHeaders(req.rawHeaders);
    headers.push("host", target.authority);
    for (const [name, secret] of Object.entries(this.scope.secrets)) {
      if (coveringEntry(secret.hosts, target.host, target.port) === undefined) continue;
      const value = secrets.get(name);
      const text = value === undefined ? undefined : secretHeaderValue(secret.format, value);
      if (text === undefined) continue;
      // The tool's own header of that name is replaced, never sent beside the credential.
      for (let i = headers.length - 2; i >= 0; i -= 2)
        if (headers[i]!.toLowerCase() === secret.header) headers.splice(i, 2);
      headers.push(secret.header, text);
    }
    const upstream = openUpstream(this.agents, {
      scheme: target.scheme,
      host: target.host,
      address: resolved.address,
      port: resolved.port,
      method: req.method ?? "GET",
      path: target.path,
      headers,
      ca: this.options.ca,
    });
    const flight: InFlight = {
      record,
      cut: () => {
        upstream.destroy();
        res.destroy();
      },
    };
    this.inFlight.add(flight);
    req.on("data", (chunk: Buffer) => (record.bytesSent += chunk.length));
    req.pipe(upstream);
    req.on("aborted", () => upstream.destroy());
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (!this.inFlight.has(flight)) return;
      if (res.headersSent) {
        res.destroy();
        this.finish(flight, "failed");
        return;
      }
      this.inFlight.delete(flight);
      this.refuse(req, res, record, {
        kind: "failed",
        route: named,
        code: error.code ?? "EGRESS_FAILED",
        message: upstreamFailure(named, error),
      });
    });
    upstream.on("response", (response: IncomingMessage) => {
      record.status = response.statusCode ?? null;
      res.writeHead(response.statusCode ?? 502, response.statusMessage, forwardHeaders(response.rawHeaders));
      response.on("data", (chunk: Buffer) => (record.bytesReceived += chunk.length));
      response.pipe(res);
      response.on("error", () => res.destroy());
      res.on("close", () => {
        if (!res.writableFinished) response.destroy();
        this.finish(flight, res.writableFinished ? "ok" : "cut");
      });
    });
    res.on("close", () => {
      if (!res.headersSent) upstream.destroy();
    });
  }

  private finish(flight: InFlight, outcome: EgressRecord["outcome"]): void {
    if (!this.inFlight.delete(flight)) return;
    const record = flight.record;
    record.outcome = outcome;
    this.push(record);
  }

  private push(record: MutableRecord): void {
    const { started, ...rest } = record;
    this.records.push(Object.freeze({ ...rest, durationMs: Math.round((monotonicMs() - started) * 1000) / 1000 }));
  }

  private refuse(req: IncomingMessage, res: ServerResponse, record: MutableRecord, refusal: Refusal): void {
    record.outcome = refusal.kind;
    this.push(record);
    const { status, headers, body } = refusalHead(refusal);
    // The request's body is not wanted: the connection closes after the answer rather than reading it.
    res.shouldKeepAlive = false;
    res.writeHead(status, headers);
    res.end(body);
    req.resume();
  }

  private refuseRaw(req: IncomingMessage, socket: Duplex, refusal: Refusal): void {
    const target = parseTarget(req.url ?? "");
    const started = monotonicMs();
    this.push({
      host: target?.host ?? "",
      port: target?.port ?? 0,
      method: req.method ?? "",
      status: null,
      outcome: "refused",
      bytesSent: 0,
      bytesReceived: 0,
      durationMs: 0,
      started,
    });
    const { status, headers, body } = refusalHead(refusal);
    const lines = [
      `HTTP/1.1 ${status} Refused`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      `content-length: ${Buffer.byteLength(body)}`,
      "connection: close",
      "",
      "",
    ];
    socket.end(lines.join("\r\n") + body);
  }
}

export interface Target {
  readonly scheme: "http" | "https";
  readonly host: string;
  readonly port: number;
  /** host[:port] as the Host header carries it (the port only when it is not the scheme's default). */
  readonly authority: string;
  readonly path: string;
}

/** The target of an absolute-form request line, or null when it is not one (origin-form, userinfo, another scheme). */
export function parseTarget(url: string): Target | null {
  if (!/^https?:\/\//i.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.username !== "" || parsed.password !== "") return null;
  const scheme = parsed.protocol === "https:" ? "https" : "http";
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = parsed.port === "" ? defaultPort(scheme) : Number(parsed.port);
  return { scheme, host, port, authority: parsed.host, path: `${parsed.pathname}${parsed.search}` };
}

/** The raw header list without hop-by-hop headers, those the Connection header names, and the broker's own. */
function forwardHeaders(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === "connection")
      for (const token of raw[i + 1]!.split(",")) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (
      HOP_BY_HOP.has(name) ||
      named.has(name) ||
      name.startsWith("proxy-") ||
      name === REFUSAL_HEADER ||
      name.startsWith("x-cave-egress")
    )
      continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

function upgradeRoute(req: IncomingMessage): string {
  const protocol = String(req.headers.upgrade ?? "").toLowerCase();
  return protocol === "websocket"
    ? "WebSocket"
    : protocol.startsWith("h2")
      ? "HTTP/2"
      : `protocol upgrade (${protocol.slice(0, 40) || "unnamed"})`;
}

function upstreamFailure(named: string, error: NodeJS.ErrnoException): string {
  const code = error.code ?? "";
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code))
    return `egress to ${named} failed: its TLS certificate is not trusted (${code}); if it is signed by your own certificate authority, pass it in the egress ca option`;
  return `egress to ${named} failed: ${code !== "" ? `${code} ` : ""}${error.message}`;
}
