import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializeResult } from "../../src/contract/results/serial.js";
import { build } from "../../compiler/build.js";
import { createRuntime } from "../../runtime/create-runtime.js";
import { copyProject, removeCopies } from "../support/projects.js";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";

let root = "";
beforeAll(async () => {
  root = copyProject("test/results/projects/plans");
  const result = await build({ root });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
}, 120_000);
afterAll(() => removeCopies());

const orders = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i,
    customer: `Zoë Ångström ${i} 東京`,
    total: i * 1.25,
    paid: i % 2 === 0,
  }));
const argOf = (content: string, tool: string) =>
  JSON.parse(new RegExp(`${tool} (\\{[^}]*\\})`).exec(content)![1]!) as Record<string, unknown>;
const body = (content: string) => content.slice(content.indexOf("\n") + 1);

describe("result plans through the runtime's call pipeline", () => {
  it("the lock carries each plan and the build folder the pinned transforms", () => {
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
    expect(lock.tools.list_orders.result.plan.strategy).toBe("page");
    expect(lock.tools.export_orders.result.plan.transform.module).toBe(".cave/transforms/table@1.mjs");
    expect(readFileSync(join(root, ".cave", "transforms", "table@1.mjs"), "utf8")).toContain("export function decode");
  });

  it("declares cave_page and cave_recover because locked plans need them", async () => {
    const runtime = await createRuntime({ root, mode: "host" });
    const names = runtime.toolDeclarations("mcp").map((d) => d.name);
    expect(names).toEqual(["dump", "export_orders", "list_orders", "read_log", "cave_page", "cave_recover"]);
    const page = runtime.toolDeclarations("openai").find((d) => d.function.name === "cave_page")!;
    expect(page.function.parameters).toMatchObject({ required: ["cursor"], additionalProperties: false });
  });

  it("small results stay inline; large ones are paged and cave_page serves every page with a receipt", async () => {
    const receipts: Array<{ tool: string; outcome: string; resultSha256: string | null }> = [];
    const runtime = await createRuntime({
      root,
      mode: "host",
      receipts: { record: (r: (typeof receipts)[number]) => void receipts.push(r) } as never,
    });
    const small = await runtime.call("list_orders", { count: 3 });
    expect(small).toMatchObject({ ok: true, content: orders(3) });

    const big = await runtime.call("list_orders", { count: 500 });
    expect(big.ok).toBe(true);
    const first = (big as { content: string }).content;
    const count = Number(/page 1 of (\d+)/.exec(first)![1]);
    let joined = body(first);
    let cursor = argOf(first, "cave_page").cursor;
    for (let page = 2; page <= count; page++) {
      const next = await runtime.call("cave_page", { cursor });
      expect(next.ok, JSON.stringify(next)).toBe(true);
      const content = (next as { content: string }).content;
      joined += body(content);
      if (page < count) cursor = argOf(content, "cave_page").cursor;
    }
    expect(joined).toBe(serializeResult(orders(500)));
    expect(receipts.filter((r) => r.tool === "cave_page")).toHaveLength(count - 1);
    expect(receipts.find((r) => r.tool === "list_orders" && r.outcome === "ok")?.resultSha256).toMatch(/^sha256-/);
  });

  it("a cursor works in the run that was shown it, and not in another run or another runtime on the same root", async () => {
    const runtime = await createRuntime({ root, mode: "host" });
    const run = runtime.startRun();
    const big = await run.call("list_orders", { count: 500 });
    const { cursor } = argOf((big as { content: string }).content, "cave_page");
    expect(await run.call("cave_page", { cursor })).toMatchObject({ ok: true });
    expect(await runtime.startRun().call("cave_page", { cursor })).toMatchObject({
      ok: false,
      error: { code: "PAGE_CURSOR_INVALID" },
    });
    expect(await runtime.call("cave_page", { cursor })).toMatchObject({
      ok: false,
      error: { code: "PAGE_CURSOR_INVALID" },
    });
    const other = await createRuntime({ root, mode: "host" });
    expect(await other.call("cave_page", { cursor })).toMatchObject({
      ok: false,
      error: { code: "PAGE_CURSOR_INVALID" },
    });
  });

  it("a forged cursor is a clear error through the pipeline", async () => {
    const runtime = await createRuntime({ root, mode: "host" });
    const outcome = await runtime.call("cave_page", {
      cursor: `pg2.tool.${"a".repeat(64)}.1200.3.2.4102444800.${"A".repeat(22)}`,
    });
    expect(outcome).toMatchObject({ ok: false, error: { code: "PAGE_CURSOR_INVALID" } });
    const bad = await runtime.call("cave_recover", { ref: 5 });
    expect(bad).toMatchObject({ ok: false, error: { code: "INPUT_INVALID" } });
  });

  it("long text is elided after its exact form is stored; cave_recover returns it byte for byte", async () => {
    const runtime = await createRuntime({ root, mode: "host" });
    const outcome = await runtime.call("read_log", { lines: 3000 });
    const content = (outcome as { content: string }).content;
    expect(content).toContain("compressed by elide@1 (lossy)");
    const ref = argOf(content, "cave_recover").ref;
    let recovered = "";
    const first = (await runtime.call("cave_recover", { ref })) as { ok: true; content: string };
    const pages = Number(/page 1 of (\d+)/.exec(first.content)?.[1] ?? 1);
    recovered = pages === 1 ? first.content : body(first.content);
    for (let page = 2; page <= pages; page++)
      recovered += body(((await runtime.call("cave_recover", { ref, page })) as { content: string }).content);
    const expected = Array.from(
      { length: 3000 },
      (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z INFO served request ${i} — ok ✓`,
    ).join("\n");
    expect(JSON.parse(recovered)).toBe(expected);
  });

  it("compress applies the pinned table transform; an exact artifact shows a view and a reference", async () => {
    const runtime = await createRuntime({ root, mode: "host" });
    const table = (await runtime.call("export_orders", { count: 4 })) as { content: string };
    expect(table.content.split("\n")[0]).toBe("[compressed by table@1 (lossless)]");
    expect(JSON.parse(body(table.content)).columns).toEqual(["id", "customer", "total", "paid"]);
    const dump = (await runtime.call("dump", { count: 200 })) as { content: string };
    expect(dump.content.split("\n")[0]).toContain('the exact result (an object with 2 keys: "rows", "note"');
  });

  it("a transform module changed after the build is refused by verifyAll and by the call, which shows nothing", async () => {
    const runtime = await createRuntime({ root, mode: "host" });
    appendFileSync(join(root, ".cave", "transforms", "table@1.mjs"), "\n// edited after the build\n");
    await expect(runtime.verifyAll()).rejects.toMatchObject({ code: "LOCK_MISMATCH" });
    const outcome = await runtime.call("export_orders", { count: 4 });
    expect(outcome).toMatchObject({ ok: false, error: { code: "TRANSFORM_MISMATCH" } });
    expect(JSON.stringify(outcome)).not.toContain("Ångström");
  });
});
