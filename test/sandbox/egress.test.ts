// Scoped egress end to end: tools built by the real compiler, locked with sandboxProfile.egress and .secrets, run in
// sandbox children under the OS layer (an empty network namespace), reaching real HTTP and HTTPS servers on
// 127.0.0.1 only through their own broker socket. Test host names are mapped to loopback by the `resolve` option.
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type CallOutcome } from "../../runtime/index.js";
import { createSandboxDispatcher, sandboxLayers } from "../../runtime/sandbox/index.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, sandboxed } from "./support/runtime.js";
import { startUpstream, testCertificates, type Upstream } from "./support/upstream.js";

const layers = await sandboxLayers("os");
const TOKEN = "tok-9f8e7d6c5b4a-secret";

let root: string;
let api: Upstream;
let hooks: Upstream;
let secure: Upstream;
let ca: string;

beforeAll(async () => {
  root = await builtProject("egress");
  api = await startUpstream("api");
  hooks = await startUpstream("hooks");
  const certs = await testCertificates(["secure.example.test"]);
  ca = certs.ca;
  secure = await startUpstream("secure", certs);
}, 60_000);
afterAll(async () => {
  closeSandboxes();
  await Promise.all([api.close(), hooks.close(), secure.close()]);
  removeCopies();
});

function options(secrets: Record<string, string> = { API_TOKEN: TOKEN }) {
  return {
    sandbox: {
      isolation: "os" as const,
      secrets,
      egress: {
        ca,
        resolve: {
          "api.example.test": `127.0.0.1:${api.port}`,
          "hooks.example.test": `127.0.0.1:${hooks.port}`,
          "secure.example.test": `127.0.0.1:${secure.port}`,
          "a.wild.example.test": `127.0.0.1:${api.port}`,
          "a.listed.example.test": `127.0.0.1:${api.port}`,
          "unlisted.example.test": `127.0.0.1:${hooks.port}`,
        },
      },
    },
  };
}

function value(outcome: CallOutcome): { status: number; body: string } {
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.content as { status: number; body: string };
}

const describeOs = process.platform === "linux" ? describe : describe.skip;

describeOs("scoped egress through the broker (under the OS layer)", () => {
  it("the OS layer is available here (Linux CI installs bubblewrap)", () => {
    expect(layers.osLayer.active, layers.osLayer.reason).toBe(true);
  });

  it.each(["fetch", "axios", "got", "http-agent", "octokit"])(
    "%s reaches a listed host over HTTP, with the token injected by the broker",
    async (client) => {
      const { runtime, receipts } = await sandboxed(root, options());
      const before = api.seen.length;
      const outcome = await runtime.call("egress_call", { client, url: "http://api.example.test/echo/x" });
      const answer = value(outcome);
      expect(answer.status).toBe(200);
      const echoed = JSON.parse(answer.body) as { headers: Record<string, string> };
      expect(echoed.headers.host).toBe("api.example.test");
      expect(echoed.headers.authorization).toBe("[present]");
      expect(api.seen.length).toBe(before + 1);
      expect(api.seen.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
      // The receipt lists the request (never a header) and holds no trace of the token.
      const receipt = receipts.receipts.at(-1)!;
      expect(receipt.isolation).toBe("os");
      expect(receipt.egress).toMatchObject([
        { host: "api.example.test", port: 80, method: "GET", status: 200, outcome: "ok" },
      ]);
      expect(JSON.stringify(receipts.receipts)).not.toContain(TOKEN);
    },
  );

  it.each(["fetch", "axios", "got", "http-agent"])(
    "%s reaches an HTTPS host: the broker opens TLS upstream with the ca option",
    async (client) => {
      const { runtime } = await sandboxed(root, options());
      const answer = value(await runtime.call("egress_call", { client, url: "https://secure.example.test/echo" }));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ from: "secure", headers: { host: "secure.example.test" } });
      // The token is for api.example.test only.
      expect(secure.seen.at(-1)!.headers.authorization).toBeUndefined();
    },
  );

  it.each(["fetch", "axios", "got", "http-agent"])(
    "%s to an unlisted host is NETWORK_REFUSED naming the host, and nothing reaches it",
    async (client) => {
      const { runtime } = await sandboxed(root, options());
      const before = hooks.seen.length;
      const outcome = await runtime.call("egress_call", { client, url: "http://unlisted.example.test/echo" });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.code).toBe("NETWORK_REFUSED");
      expect(outcome.error.message).toContain(
        "egress to unlisted.example.test:80 was refused: it is not in the tool's sandboxProfile.egress",
      );
      expect(hooks.seen.length).toBe(before);
      expect(outcome.receipt.egress).toMatchObject([
        { host: "unlisted.example.test", outcome: "refused", status: null },
      ]);
    },
  );

  it("a name resolving to loopback is reached when listed exactly, refused through a wildcard", async () => {
    const { runtime } = await sandboxed(root, options());
    expect(
      value(await runtime.call("egress_call", { client: "fetch", url: "http://a.listed.example.test/" })).body,
    ).toBe("hello from api");
    const outcome = await runtime.call("egress_call", { client: "fetch", url: "http://a.wild.example.test/" });
    expect(outcome.ok ? "ok" : outcome.error.code).toBe("NETWORK_REFUSED");
    if (!outcome.ok) expect(outcome.error.message).toContain("resolves to an internal address");
  });

  it("a redirect to an unlisted host is refused when the client follows it", async () => {
    const { runtime } = await sandboxed(root, options());
    const before = hooks.seen.length;
    for (const client of ["fetch", "axios", "got"]) {
      const outcome = await runtime.call("egress_call", {
        client,
        url: "http://api.example.test/redirect?to=http://unlisted.example.test/echo",
      });
      expect(outcome.ok ? "ok" : outcome.error.code, client).toBe("NETWORK_REFUSED");
      if (!outcome.ok) expect(outcome.error.message, client).toContain("unlisted.example.test:80");
    }
    expect(hooks.seen.length).toBe(before);
  });

  it.each([
    ["http2", "http2.connect"],
    ["websocket", "WebSocket"],
    ["tcp", "net.connect"],
  ])("%s is NETWORK_REFUSED naming the route", async (client, route) => {
    const { runtime } = await sandboxed(root, options());
    const outcome = await runtime.call("egress_call", { client, url: "http://api.example.test/" });
    expect(outcome.ok ? "ok" : outcome.error.code).toBe("NETWORK_REFUSED");
    if (!outcome.ok) expect(outcome.error.message).toContain(route);
  });

  it("an undici pool or agent the tool makes itself is NETWORK_REFUSED; undici's own fetch goes through the broker", async () => {
    const { runtime } = await sandboxed(root, options());
    for (const kind of ["pool", "agent"]) {
      const outcome = await runtime.call("own_pool", { url: "http://api.example.test/", kind });
      expect(outcome.ok ? "ok" : outcome.error.code, kind).toBe("NETWORK_REFUSED");
      if (!outcome.ok)
        expect(outcome.error.message, kind).toMatch(/net\.Socket\.prototype\.connect|net\.connect|Pipe|TCP/);
    }
    const viaGlobal = await runtime.call("own_pool", { url: "http://api.example.test/", kind: "global" });
    expect(viaGlobal.ok && (viaGlobal.content as { body: string }).body).toBe("hello from api");
  });

  it("streams a large response through without buffering it whole", async () => {
    const { runtime } = await sandboxed(root, options());
    const answer = value(
      await runtime.call("egress_call", { client: "stream", url: "http://api.example.test/stream?mb=64" }),
    );
    expect(answer.body).toBe(String(64 * 1_048_576));
  });

  it("a secret missing at run time is SECRET_MISSING naming it, before the tool starts", async () => {
    const { runtime, sandbox } = await sandboxed(root, options({}));
    const spawned = sandbox.stats().spawned;
    const outcome = await runtime.call("egress_call", { client: "fetch", url: "http://api.example.test/echo" });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("SECRET_MISSING");
    expect(outcome.error.message).toContain(
      "needs the secret API_TOKEN (sandboxProfile.secrets), but the secrets provider has no value for it; it was not run",
    );
    expect(sandbox.stats().spawned).toBe(spawned);
  });

  it("a tool hunting for its credential finds it nowhere: environment, arguments, /proc, its whole heap, another host", async () => {
    const { runtime } = await sandboxed(root, options());
    const before = hooks.seen.length;
    const outcome = await runtime.call("hunter", { url: "http://hooks.example.test/echo" });
    if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
    const found = outcome.content as Record<string, string>;
    expect(Number(found.heapBytes)).toBeGreaterThan(1_000_000);
    found.heap = gunzipSync(Buffer.from(found.heap!, "base64")).toString("latin1");
    expect(found.heap.length).toBe(Number(found.heapBytes));
    expect(found.environ).toMatch(/^refused/);
    for (const [where, text] of Object.entries(found)) expect(text.includes(TOKEN), where).toBe(false);
    // The authorised host got it; the other host never did.
    expect(api.seen.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(hooks.seen.length).toBe(before + 1);
    expect(JSON.stringify(hooks.seen)).not.toContain(TOKEN);
  });

  it("two tools with different scopes run at once: neither reaches the other's host, socket or secret", async () => {
    const { runtime } = await sandboxed(root, options({ TOKEN_A: "value-a-123", TOKEN_B: "value-b-456" }));
    const sockets = () =>
      readdirSync(tmpdir())
        .filter((name) => name.startsWith("cave-egress-"))
        .map((name) => join(tmpdir(), name, "s"));
    // Start both children, so each one's broker socket exists on the host while the other runs.
    await Promise.all([
      runtime.call("scope_a", { url: "http://api.example.test/echo", paths: [] }),
      runtime.call("scope_b", { url: "http://hooks.example.test/echo", paths: [] }),
    ]);
    const paths = sockets();
    expect(paths.length).toBeGreaterThanOrEqual(2);
    const run = runtime.startRun();
    const [a, b, aOther, bOther] = await Promise.all([
      run.call("scope_a", { url: "http://api.example.test/echo", paths }),
      run.call("scope_b", { url: "http://hooks.example.test/echo", paths }),
      run.call("scope_a", { url: "http://hooks.example.test/echo", paths }),
      run.call("scope_b", { url: "http://api.example.test/echo", paths }),
    ]);
    for (const outcome of [a, b, aOther, bOther]) expect(outcome.ok).toBe(true);
    const own = [a, b].map((outcome) => outcome.ok && (outcome.content as { status: number; visible: boolean[] }));
    expect(own.map((probe) => probe && probe.status)).toEqual([200, 200]);
    // The host's socket paths are not in the children's file system at all.
    expect(own.every((probe) => probe && probe.visible.every((seen) => !seen))).toBe(true);
    const crossed = [aOther, bOther].map(
      (outcome) => outcome.ok && (outcome.content as { status: string; body: string }),
    );
    expect(crossed.map((probe) => probe && probe.status)).toEqual(["ERR_SANDBOX_DENIED", "ERR_SANDBOX_DENIED"]);
    expect(crossed[0] && crossed[0].body).toContain("hooks.example.test:80");
    expect(crossed[1] && crossed[1].body).toContain("api.example.test:80");
    expect(
      api.seen
        .filter((seen) => seen.headers["x-key"] !== undefined)
        .every((seen) => seen.headers["x-key"] === "value-a-123"),
    ).toBe(true);
    expect(
      hooks.seen
        .filter((seen) => seen.headers["x-key"] !== undefined)
        .every((seen) => seen.headers["x-key"] === "value-b-456"),
    ).toBe(true);
  });
});

describe("scoped egress needs the OS layer", () => {
  it('is refused with isolation "node" (OS_LAYER_REQUIRED naming the powers) at createRuntime, before any child starts', async () => {
    const sandbox = createSandboxDispatcher({ ...options().sandbox, isolation: "node" });
    try {
      await expect(createRuntime({ root, mode: "host", dispatchers: { required: sandbox } })).rejects.toMatchObject({
        code: "OS_LAYER_REQUIRED",
        message: expect.stringMatching(
          /tool "egress_call" is locked with powers only the sandbox's OS layer can enforce \(egress to [^)]*the secret [A-Z_]+/,
        ),
      });
    } finally {
      sandbox.close();
    }
    expect(sandbox.stats().spawned).toBe(0);
  });
});
