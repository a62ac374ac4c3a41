// The host-side egress broker on its own: a channel (one child's Unix socket) against real HTTP and HTTPS servers on
// 127.0.0.1, named by test host names that the `resolve` option maps to loopback. Requests are sent to the socket
// as the child's routing sends them (absolute-form HTTP/1.1).
import { existsSync, statSync } from "node:fs";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EgressChannel,
  resolveEgressOptions,
  upstreamAgents,
  type EgressScope,
} from "../../runtime/sandbox/egress/index.js";
import { startUpstream, testCertificates, viaSocket, type Upstream } from "./support/upstream.js";

let api: Upstream;
let hooks: Upstream;
let secure: Upstream;
let ca: string;
const agents = upstreamAgents();
const channels: EgressChannel[] = [];

beforeAll(async () => {
  api = await startUpstream("api");
  hooks = await startUpstream("hooks");
  const certs = await testCertificates(["secure.example.test"]);
  ca = certs.ca;
  secure = await startUpstream("secure", certs);
});
afterAll(async () => {
  for (const channel of channels) channel.close();
  agents.http.destroy();
  agents.https.destroy();
  await Promise.all([api.close(), hooks.close(), secure.close()]);
});

function resolveAll(extra: Record<string, string> = {}) {
  return {
    "api.example.test": `127.0.0.1:${api.port}`,
    "hooks.example.test": `127.0.0.1:${hooks.port}`,
    "a.wild.example.test": `127.0.0.1:${api.port}`,
    "secure.example.test": `127.0.0.1:${secure.port}`,
    ...extra,
  };
}

function open(
  scope: Partial<EgressScope>,
  options: { ca?: string; resolve?: Record<string, string> } = {},
): EgressChannel {
  const channel = new EgressChannel(
    { egress: [], secrets: {}, ...scope },
    resolveEgressOptions({
      resolve: options.resolve ?? resolveAll(),
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    }),
    agents,
  );
  channels.push(channel);
  return channel;
}

describe("the egress broker", () => {
  it("binds a socket of its own in a private folder, and removes it on close", () => {
    const channel = open({ egress: ["api.example.test"] });
    expect(existsSync(channel.hostPath)).toBe(true);
    expect(statSync(channel.hostPath).isSocket()).toBe(true);
    // Only the host's own user may reach the folder the socket is in.
    expect(statSync(channel.hostPath.replace(/\/s$/, "")).mode & 0o077).toBe(0);
    channel.close();
    expect(existsSync(channel.hostPath)).toBe(false);
  });

  it("forwards a request to a listed host and records it (no header, no body) for the receipt", async () => {
    const channel = open({ egress: ["api.example.test"] });
    channel.arm(new Map());
    const before = api.seen.length;
    const answer = await viaSocket(channel.hostPath, "http://api.example.test/echo?q=1", {
      method: "POST",
      headers: { "content-type": "text/plain", "x-tool": "yes" },
      body: "12345",
    });
    expect(answer.status).toBe(200);
    const echoed = JSON.parse(answer.body) as { url: string; headers: Record<string, string>; bodyBytes: number };
    expect(echoed.url).toBe("/echo?q=1");
    // The upstream sees the target's own Host header and the tool's headers, not the broker's plumbing.
    expect(echoed.headers.host).toBe("api.example.test");
    expect(echoed.headers["x-tool"]).toBe("yes");
    expect(echoed.bodyBytes).toBe(5);
    expect(api.seen.length).toBe(before + 1);
    const records = channel.disarm();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      host: "api.example.test",
      port: 80,
      method: "POST",
      status: 200,
      outcome: "ok",
      bytesSent: 5,
      bytesReceived: Buffer.byteLength(answer.body),
    });
    expect(Object.keys(records[0]!).sort()).toEqual([
      "bytesReceived",
      "bytesSent",
      "durationMs",
      "host",
      "method",
      "outcome",
      "port",
      "status",
    ]);
  });

  it("refuses an unlisted host with a message naming it, and the upstream sees nothing", async () => {
    const channel = open({ egress: ["api.example.test"] });
    channel.arm(new Map());
    const before = hooks.seen.length;
    const answer = await viaSocket(channel.hostPath, "http://hooks.example.test/echo");
    expect(answer.status).toBe(403);
    expect(answer.headers["x-cave-egress"]).toBe("refused");
    expect(answer.headers["x-cave-egress-route"]).toBe("hooks.example.test:80");
    expect(answer.body).toContain(
      'egress to hooks.example.test:80 was refused: it is not in the tool\'s sandboxProfile.egress; add "hooks.example.test" there and rebuild',
    );
    expect(hooks.seen.length).toBe(before);
    expect(channel.disarm()).toMatchObject([{ host: "hooks.example.test", outcome: "refused", status: null }]);
  });

  it("matches ports: a bare host allows 80 and 443 only, a host:port entry that port only", async () => {
    const channel = open({ egress: ["api.example.test", "hooks.example.test:8443"] });
    channel.arm(new Map());
    expect((await viaSocket(channel.hostPath, "http://api.example.test:8080/")).status).toBe(403);
    expect((await viaSocket(channel.hostPath, "http://hooks.example.test/")).status).toBe(403);
    expect((await viaSocket(channel.hostPath, "http://hooks.example.test:8443/")).body).toBe("hello from hooks");
  });

  it("connects a name resolving to loopback only when that exact name is listed, never through a wildcard", async () => {
    const exact = open({ egress: ["a.wild.example.test"] });
    exact.arm(new Map());
    expect((await viaSocket(exact.hostPath, "http://a.wild.example.test/")).body).toBe("hello from api");
    const wild = open({ egress: ["*.wild.example.test"] });
    wild.arm(new Map());
    const answer = await viaSocket(wild.hostPath, "http://a.wild.example.test/");
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(
      "egress to a.wild.example.test:80 was refused: it resolves to an internal address (127.0.0.1: loopback, private or link-local), which only a host listed by its exact name in sandboxProfile.egress may reach",
    );
    // A real name resolved by DNS: localhost is loopback, and a wildcard entry cannot reach it either.
    const local = open({ egress: ["*.localhost"] }, { resolve: {} });
    local.arm(new Map());
    expect((await viaSocket(local.hostPath, `http://x.localhost:${api.port}/`)).status).toBe(403);
    // An IP literal is a host like any other: refused unless listed.
    expect((await viaSocket(exact.hostPath, `http://127.0.0.1:${api.port}/`)).status).toBe(403);
    const literal = open({ egress: [`127.0.0.1:${api.port}`] }, { resolve: {} });
    literal.arm(new Map());
    expect((await viaSocket(literal.hostPath, `http://127.0.0.1:${api.port}/`)).body).toBe("hello from api");
  });

  it("opens TLS upstream itself for an https target, trusting the ca option; without it the certificate is not trusted", async () => {
    const trusted = open({ egress: ["secure.example.test"] }, { ca });
    trusted.arm(new Map());
    const answer = await viaSocket(trusted.hostPath, "https://secure.example.test/echo");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ from: "secure", headers: { host: "secure.example.test" } });
    expect(trusted.disarm()).toMatchObject([{ host: "secure.example.test", port: 443, status: 200, outcome: "ok" }]);

    const untrusted = open({ egress: ["secure.example.test"] });
    untrusted.arm(new Map());
    const refused = await viaSocket(untrusted.hostPath, "https://secure.example.test/echo");
    expect(refused.status).toBe(502);
    expect(refused.headers["x-cave-egress"]).toBe("failed");
    expect(refused.body).toContain("egress to secure.example.test:443 failed: its TLS certificate is not trusted");
    expect(refused.body).toContain("pass it in the egress ca option");
    expect(untrusted.disarm()).toMatchObject([{ outcome: "failed" }]);
  });

  it("passes a redirect back to the child and refuses the follow-up to an unlisted host", async () => {
    const channel = open({ egress: ["api.example.test"] });
    channel.arm(new Map());
    const before = hooks.seen.length;
    const redirect = await viaSocket(
      channel.hostPath,
      "http://api.example.test/redirect?to=http://hooks.example.test/echo",
    );
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe("http://hooks.example.test/echo");
    expect((await viaSocket(channel.hostPath, redirect.headers.location!)).status).toBe(403);
    expect(hooks.seen.length).toBe(before);
  });

  it("injects a secret on its hosts only, replacing the tool's own header of that name", async () => {
    const channel = open({
      egress: ["api.example.test", "hooks.example.test"],
      secrets: { API_TOKEN: { hosts: ["api.example.test"], header: "authorization", format: "Bearer {}" } },
    });
    channel.arm(new Map([["API_TOKEN", "s3cr3t-value"]]));
    await viaSocket(channel.hostPath, "http://api.example.test/echo", { headers: { authorization: "Bearer forged" } });
    expect(api.seen.at(-1)!.headers.authorization).toBe("Bearer s3cr3t-value");
    const toHooks = JSON.parse((await viaSocket(channel.hostPath, "http://hooks.example.test/echo")).body) as {
      headers: Record<string, string>;
    };
    expect(toHooks.headers.authorization).toBeUndefined();
    expect(JSON.stringify(hooks.seen)).not.toContain("s3cr3t-value");
    // The receipt's records hold no trace of it.
    expect(JSON.stringify(channel.disarm())).not.toContain("s3cr3t");
  });

  it("serves nothing while no call is armed", async () => {
    const channel = open({ egress: ["api.example.test"] });
    const answer = await viaSocket(channel.hostPath, "http://api.example.test/");
    expect(answer.status).toBe(403);
    expect(answer.body).toContain("no call of this tool is running");
  });

  it("refuses origin-form requests, WebSocket upgrades and CONNECT tunnels, naming the route", async () => {
    const channel = open({ egress: ["api.example.test"] });
    channel.arm(new Map());
    const origin = await viaSocket(channel.hostPath, "/echo", { headers: { host: "api.example.test" } });
    expect(origin.status).toBe(403);
    expect(origin.body).toContain("absolute-form only");
    const upgrade = await rawAnswer(
      channel.hostPath,
      "GET http://api.example.test/ws HTTP/1.1\r\nhost: api.example.test\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n",
    );
    expect(upgrade).toMatch(/^HTTP\/1\.1 403/);
    expect(upgrade).toContain("x-cave-egress-route: WebSocket");
    const tunnel = await rawAnswer(
      channel.hostPath,
      "CONNECT api.example.test:443 HTTP/1.1\r\nhost: api.example.test:443\r\n\r\n",
    );
    expect(tunnel).toContain("x-cave-egress-route: CONNECT tunnel");
  });

  it("streams a large body through without holding it, and cuts what is in flight when the call ends", async () => {
    const channel = open({ egress: ["api.example.test"] });
    channel.arm(new Map());
    const answer = await viaSocket(channel.hostPath, "http://api.example.test/stream?mb=8");
    expect(answer.body.length).toBe(8 * 1_048_576);
    expect(channel.disarm()).toMatchObject([{ outcome: "ok", bytesReceived: 8 * 1_048_576 }]);

    channel.arm(new Map());
    const cut = new Promise<string>((resolve) => {
      const req = request(
        { socketPath: channel.hostPath, path: "http://api.example.test/stream?mb=512", agent: false },
        (res) => {
          res.once("data", () => {
            const records = channel.disarm();
            expect(records).toMatchObject([{ outcome: "cut", status: 200 }]);
          });
          res.on("error", () => resolve("cut"));
          res.on("end", () => resolve("ended"));
          res.on("close", () => resolve("cut"));
        },
      );
      req.on("error", () => resolve("cut"));
      req.end();
    });
    expect(await cut).toBe("cut");
  });

  it("keeps two scopes apart: each socket allows its own hosts and injects its own secret", async () => {
    const first = open({
      egress: ["api.example.test"],
      secrets: { A: { hosts: ["api.example.test"], header: "x-key", format: "{}" } },
    });
    const second = open({
      egress: ["hooks.example.test"],
      secrets: { B: { hosts: ["hooks.example.test"], header: "x-key", format: "{}" } },
    });
    first.arm(new Map([["A", "value-a"]]));
    second.arm(new Map([["B", "value-b"]]));
    expect((await viaSocket(first.hostPath, "http://hooks.example.test/")).status).toBe(403);
    expect((await viaSocket(second.hostPath, "http://api.example.test/")).status).toBe(403);
    const a = JSON.parse((await viaSocket(first.hostPath, "http://api.example.test/echo")).body) as {
      headers: Record<string, string>;
    };
    const b = JSON.parse((await viaSocket(second.hostPath, "http://hooks.example.test/echo")).body) as {
      headers: Record<string, string>;
    };
    expect([a.headers["x-key"], b.headers["x-key"]]).toEqual(["value-a", "value-b"]);
  });
});

function rawAnswer(socketPath: string, text: string): Promise<string> {
  return new Promise(async (resolve, reject) => {
    const { connect } = await import("node:net");
    const socket = connect(socketPath);
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
    socket.write(text);
  });
}
