// The example's escalate_to_vendor tool, built from examples/support-desk by the real compiler and run in the
// sandbox under the OS layer: its fetch reaches a vendor desk (HTTPS, a test certificate authority) on 127.0.0.1
// only through its egress broker, which adds the vendor token; the tool never holds it.
import { createServer, type Server } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { copyProject, removeCopies } from "../support/projects.js";
import { closeSandboxes, sandboxed } from "./support/runtime.js";
import { testCertificates } from "./support/upstream.js";

const TOKEN = "vendor-token-5f1c2e";
let root: string;
let desk: Server;
let port: number;
let ca: string;
const seen: Array<{ authorization: string | undefined; body: string }> = [];

beforeAll(async () => {
  root = copyProject("examples/support-desk");
  expect((await build({ root })).ok).toBe(true);
  const certs = await testCertificates(["support.vendor.example"]);
  ca = certs.ca;
  desk = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      seen.push({ authorization: req.headers.authorization, body });
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorised"}');
        return;
      }
      res
        .writeHead(201, { "content-type": "application/json" })
        .end(JSON.stringify({ id: 4100 + seen.length, status: "received" }));
    });
  });
  await new Promise<void>((resolve) => desk.listen(0, "127.0.0.1", resolve));
  port = (desk.address() as { port: number }).port;
}, 120_000);
afterAll(async () => {
  closeSandboxes();
  await new Promise((resolve) => desk.close(resolve));
  removeCopies();
});

const describeOs = process.platform === "linux" ? describe : describe.skip;

describeOs("examples/support-desk: escalate_to_vendor through the egress broker", () => {
  const options = (secrets: Record<string, string>) => ({
    sandbox: {
      isolation: "os" as const,
      secrets,
      egress: { ca, resolve: { "support.vendor.example": `127.0.0.1:${port}` } },
    },
  });

  it("opens a vendor ticket with the token injected by the broker, recorded in the receipt without it", async () => {
    const { runtime, receipts } = await sandboxed(root, options({ VENDOR_DESK_TOKEN: TOKEN }));
    const outcome = await runtime.call("escalate_to_vendor", {
      orderId: "ORD-10001",
      problem: "The keyboard's space bar stopped working after a week.",
    });
    if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
    expect(outcome.content).toEqual({ vendorTicket: `VT-${4100 + seen.length}`, status: "received" });
    const last = seen.at(-1)!;
    expect(last.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(last.body)).toEqual({
      reference: "ORD-10001",
      products: ["KB-TKL-RED", "CBL-USBC-2M"],
      problem: "The keyboard's space bar stopped working after a week.",
    });
    expect(outcome.receipt.egress).toMatchObject([
      { host: "support.vendor.example", port: 443, method: "POST", status: 201, outcome: "ok" },
    ]);
    expect(JSON.stringify(receipts.receipts)).not.toContain(TOKEN);
  });

  it("without the token the call is SECRET_MISSING naming it, and the vendor hears nothing", async () => {
    const before = seen.length;
    const { runtime } = await sandboxed(root, options({}));
    const outcome = await runtime.call("escalate_to_vendor", {
      orderId: "ORD-10001",
      problem: "The keyboard's space bar stopped working after a week.",
    });
    expect(outcome.ok ? "ok" : outcome.error.code).toBe("SECRET_MISSING");
    if (!outcome.ok) expect(outcome.error.message).toContain("VENDOR_DESK_TOKEN");
    expect(seen.length).toBe(before);
  });
});
