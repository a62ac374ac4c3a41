// Adversarial table rows 16, 17 and 20 (../shared/sandbox.md): every network route and escape hatch
// is denied. A canary on 127.0.0.1 (ephemeral port, TCP and UDP) proves that nothing arrives. The
// network rows run with the Node layers only (isolation "node") and again under the OS layer
// (isolation "os": bubblewrap, an empty network namespace), which must be available on Linux.
import { readlinkSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallOutcome, DispatchRequest } from "../../runtime/index.js";
import { createSandboxDispatcher, sandboxLayers } from "../../runtime/sandbox/index.js";
import { tool } from "../../src/index.js";
import { removeCopies } from "../support/projects.js";
import { startCanary, type Canary } from "./support/canary.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, sandboxed } from "./support/runtime.js";

const layers = await sandboxLayers();

let root: string;
let canary: Canary;
beforeAll(async () => {
  root = await builtProject("sandbox");
  canary = await startCanary();
});
afterAll(async () => {
  closeSandboxes();
  await canary.close();
  removeCopies();
});

function code(outcome: CallOutcome): string {
  return outcome.ok ? `ok ${JSON.stringify(outcome.content)}` : outcome.error.code;
}

/** Each route and how the sandbox refuses it: the deny layer names network routes NETWORK_REFUSED. */
const ROUTES: ReadonlyArray<readonly [string, string]> = [
  ["fetch", "NETWORK_REFUSED"],
  ["net.connect", "NETWORK_REFUSED"],
  ["net.Socket#connect", "NETWORK_REFUSED"],
  ["http.get", "NETWORK_REFUSED"],
  ["https.get", "NETWORK_REFUSED"],
  ["globalAgent.createConnection", "NETWORK_REFUSED"],
  ["tls.connect", "NETWORK_REFUSED"],
  ["http2.connect", "NETWORK_REFUSED"],
  ["dgram", "NETWORK_REFUSED"],
  ["dns.lookup", "NETWORK_REFUSED"],
  ["dns.promises", "NETWORK_REFUSED"],
  ["WebSocket", "NETWORK_REFUSED"],
  ["createRequire", "NETWORK_REFUSED"],
  ["import", "NETWORK_REFUSED"],
  ["getBuiltinModule", "NETWORK_REFUSED"],
  ["Function-process", "NETWORK_REFUSED"],
  ["socket-fd", "NETWORK_REFUSED"],
  ["listen", "NETWORK_REFUSED"],
  // Raw bindings are refused whole, network or not.
  ["binding-tcp_wrap", "SANDBOX_DENIED"],
];

const MODES = [
  { name: "Node layers only", isolation: "node" as const, skip: undefined },
  {
    name: "under the OS layer",
    isolation: "os" as const,
    // Linux CI installs bubblewrap (.ci/run): there, a missing OS layer fails the tests instead of skipping them.
    skip: process.platform === "linux" ? undefined : `skipped: the OS layer is Linux-only (${layers.osLayer.reason})`,
  },
];

for (const mode of MODES) {
  describe(`row 16: every network route (${mode.name})`, () => {
    if (mode.skip !== undefined) {
      it.skip(mode.skip, () => undefined);
      return;
    }

    it.each(ROUTES)("%s is refused (%s) and the canary sees nothing", async (route, expected) => {
      const before = { ...canary.seen };
      const { runtime } = await sandboxed(root, { sandbox: { isolation: mode.isolation } });
      const outcome = await runtime.call("net_route", { route, port: canary.port });
      expect(code(outcome)).toBe(expected);
      if (!outcome.ok) expect(outcome.error.message).toContain("ERR_SANDBOX_DENIED");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(canary.seen).toEqual(before);
    });

    it("the canary itself is reachable from the host, so its silence means something", async () => {
      const { connect } = await import("node:net");
      const before = canary.seen.connections;
      const socket = connect(canary.port, "127.0.0.1");
      await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
      socket.destroy();
      expect(canary.seen.connections).toBe(before + 1);
    });

    it(`the child's network namespace is ${mode.isolation === "node" ? "the host's" : "its own"}`, async () => {
      const { runtime, sandbox } = await sandboxed(root, { sandbox: { isolation: mode.isolation, spare: false } });
      expect((await runtime.call("add", { a: 1, b: 1 })).ok).toBe(true);
      const [pid] = sandbox.pids();
      const same = readlinkSync(`/proc/${pid}/ns/net`) === readlinkSync("/proc/self/ns/net");
      expect(same).toBe(mode.isolation === "node");
    });
  });
}

describe("the layers report", () => {
  it("names the permission model flag and the active layers on this Node", async () => {
    expect(layers.permissionModel).toBe(
      process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission",
    );
    expect(layers.denyLayer).toBe(true);
    expect(layers.node).toBe(process.version);
    expect(typeof layers.osLayer.reason).toBe("string");
    expect((await sandboxLayers("node")).osLayer).toEqual({
      active: false,
      namespaces: [],
      reason: 'turned off (isolation "node")',
    });
  });
});

describe("row 17: escape hatches", () => {
  it.each([
    ["child_process.spawn", "ERR_SANDBOX_DENIED"],
    ["child_process.execSync", "ERR_SANDBOX_DENIED"],
    ["Worker", "ERR_SANDBOX_DENIED"],
    ["inspector.open", "ERR_SANDBOX_DENIED"],
    ["inspector.Session", "ERR_SANDBOX_DENIED"],
    ["dlopen", "ERR_SANDBOX_DENIED"],
    ["wasi", "ERR_SANDBOX_DENIED"],
    ["v8.setFlagsFromString", "ERR_SANDBOX_DENIED"],
    ["process.binding", "ERR_SANDBOX_DENIED"],
    ["writeReport", "ERR_SANDBOX_DENIED"],
  ])("%s is denied (SANDBOX_DENIED, %s)", async (hatch, named) => {
    const { runtime } = await sandboxed(root);
    const outcome = await runtime.call("escape_hatch", { hatch });
    expect(code(outcome)).toBe("SANDBOX_DENIED");
    expect(outcome.ok ? "" : outcome.error.message).toContain(named);
  });
});

describe("row 20: network: true", () => {
  it("fails closed when the tool is defined (CAVE1008), with the documented reason", () => {
    expect(() =>
      tool({
        name: "wants_net",
        description: "Needs egress.",
        effect: "external",
        sandboxProfile: { network: true as never },
        execute: () => null,
      }),
    ).toThrow(
      expect.objectContaining({
        code: "CAVE1008",
        message: expect.stringMatching(
          /requests unbounded egress, which the sandbox never grants, so it fails closed.*sandboxProfile\.egress/,
        ),
      }),
    );
  });

  it("a dispatch request whose locked tool asks for the network is refused without starting a child (NETWORK_REFUSED)", async () => {
    const sandbox = createSandboxDispatcher();
    try {
      const { runtime } = await sandboxed(root);
      void runtime;
      const lock = JSON.parse((await import("node:fs")).readFileSync(`${root}/cave.lock`, "utf8")) as {
        tools: Record<string, DispatchRequest["tool"]>;
      };
      const locked = lock.tools.add!;
      const request: DispatchRequest = {
        name: "add",
        tool: { ...locked, sandbox: { ...locked.sandbox, network: true as never } },
        root,
        runId: "row-20",
        input: { a: 1, b: 2 },
        context: {
          signal: new AbortController().signal,
          callId: "row-20-call",
          call: () => Promise.reject(new Error("no nested calls")),
        },
        loadModule: () => Promise.reject(new Error("never loaded in the host")),
        stageFiles: () => Promise.reject(new Error("never staged: the tool is refused first")),
      };
      const result = await sandbox.dispatch(request);
      expect(result).toMatchObject({ ok: false, code: "NETWORK_REFUSED" });
      expect(result.ok ? "" : result.message).toContain("fails closed");
      expect(sandbox.stats().spawned).toBe(0);
    } finally {
      sandbox.close();
    }
  });
});
