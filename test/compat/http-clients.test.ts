// Issue 11: got and axios (test/compat/workspace) make real HTTP requests to a server this test starts on 127.0.0.1:
// in process (sandbox "none") straight to it; sandboxed, through the egress broker, the child's only network, to the
// one host the tools' sandboxProfile.egress lists (api.compat.test), which the broker's `resolve` maps to that server
// (as test/sandbox/egress.test.ts does). Scoped egress needs the sandbox's OS layer: Linux only, as there.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime, MemoryReceiptSink, type CallOutcome, type Runtime } from "../../runtime/index.js";
import { createSandboxDispatcher, type SandboxDispatcher } from "../../runtime/sandbox/index.js";
import { startUpstream, type Upstream } from "../sandbox/support/upstream.js";
import { copyWorkspace, expectSourceMaps, removeWorkspaceCopies } from "./workspace.js";

const describeOs = process.platform === "linux" ? describe : describe.skip;

let root: string;
let api: Upstream;
let sandbox: SandboxDispatcher;
let runtime: Runtime;
const receipts = new MemoryReceiptSink();

beforeAll(async () => {
  root = copyWorkspace(["got.ts", "axios.ts"]);
  const result = await build({ root });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  expect(Object.keys(result.lock!.tools).sort()).toEqual(["axios", "axios_host", "got", "got_host"]);
  api = await startUpstream("compat");
  sandbox = createSandboxDispatcher({
    isolation: "os",
    egress: { resolve: { "api.compat.test": `127.0.0.1:${api.port}` } },
  });
  runtime = await createRuntime({ root, mode: "host", receipts, dispatchers: { required: sandbox } });
}, 600_000);
afterAll(async () => {
  runtime?.close();
  sandbox?.close();
  await api?.close();
  removeWorkspaceCopies();
});

/** What the test server saw, as the tool returned it (its /echo answers with the request it read off the wire). */
function echoed(outcome: CallOutcome): { from: string; method: string; url: string; headers: Record<string, string> } {
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  const { status, body } = outcome.content as { status: number; body: string };
  expect(status).toBe(200);
  return JSON.parse(body) as { from: string; method: string; url: string; headers: Record<string, string> };
}

describeOs("got and axios make a real request in both sandbox modes", () => {
  it("each bundle ends with its source map, its sources named without a path of this machine (got's dependencies ship maps of their own)", () => {
    expectSourceMaps(root);
  });

  it.each([
    ["got", "/echo/orders/7"],
    ["axios", "/echo/orders/7?expand=orders"],
  ])(
    "%s in process reaches the server on 127.0.0.1 directly",
    async (name, path) => {
      const before = api.seen.length;
      const seen = echoed(await runtime.call(`${name}_host`, { url: `http://127.0.0.1:${api.port}/echo/orders/7` }));
      expect(seen).toMatchObject({
        from: "compat",
        method: "GET",
        url: path,
        headers: { host: `127.0.0.1:${api.port}`, "user-agent": `cave-compat ${name}` },
      });
      expect(api.seen.length).toBe(before + 1);
    },
    120_000,
  );

  it.each([
    ["got", "/echo/orders/7"],
    ["axios", "/echo/orders/7?expand=orders"],
  ])(
    "%s in the sandbox reaches it through the egress broker, by the host name its profile lists; the receipt records the request",
    async (name, path) => {
      const before = api.seen.length;
      const outcome = await runtime.call(name, { url: "http://api.compat.test/echo/orders/7" });
      const seen = echoed(outcome);
      expect(seen).toMatchObject({
        from: "compat",
        method: "GET",
        url: path,
        headers: { host: "api.compat.test", "user-agent": `cave-compat ${name}` },
      });
      expect(api.seen.length).toBe(before + 1);
      expect(outcome.receipt.isolation).toBe("os");
      expect(JSON.stringify(outcome.receipt)).toContain("api.compat.test");
    },
    120_000,
  );

  it.each(["got", "axios"])(
    "%s in the sandbox cannot reach the server by its address: the broker refuses what the profile does not list",
    async (name) => {
      const before = api.seen.length;
      const outcome = await runtime.call(name, { url: `http://127.0.0.1:${api.port}/echo/orders/7` });
      expect(outcome.ok, JSON.stringify(outcome.ok ? outcome.content : outcome.error)).toBe(false);
      const address = `127.0.0.1:${api.port}`;
      expect(outcome.ok ? null : [outcome.error.code, outcome.error.message]).toEqual([
        "NETWORK_REFUSED",
        `tool "${name}" tried to reach the network where its sandbox does not let it: ERR_SANDBOX_DENIED: egress to ${address} was refused: it is not in the tool's sandboxProfile.egress; add "${address}" there and rebuild. A sandboxed tool reaches only the hosts in its sandboxProfile.egress, through fetch, undici's global dispatcher or the http/https modules; add the host there and rebuild`,
      ]);
      expect(api.seen.length).toBe(before);
    },
    120_000,
  );
});
