// The example's order store (issue 14): place_replacement_order, built from examples/support-desk by the real
// compiler, keeps replacement orders in SQLite (better-sqlite3 12, an external package) in WAL mode under its
// data/orders write scope, and runs in the default sandbox under the OS layer. What one call writes the next reads;
// a new process over the same folder reads it too; the database and its -wal/-shm side files stay in the scope, and
// nothing else in the project changes. Without the OS layer the runtime is refused.
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime } from "../../runtime/index.js";
import { createSandboxDispatcher } from "../../runtime/sandbox/index.js";
import { snapshot } from "../cli/helpers.js";
import { REPO_ROOT } from "../support/golden.js";
import { copyProject, removeCopies } from "../support/projects.js";
import { closeSandboxes, sandboxed } from "./support/runtime.js";

const CLI = join(REPO_ROOT, "dist/compiler/cli/bin.js");
const TOOL = "place_replacement_order";
let root: string;

beforeAll(async () => {
  root = copyProject("examples/support-desk");
  const result = await build({ root });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  expect(result.ok).toBe(true);
}, 120_000);
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

type Replacement = {
  replacementId: string;
  orderId: string;
  sku: string;
  name: string;
  quantity: number;
  reason: string;
  placedAt: string;
};
const ids = (list: readonly Replacement[]) => list.map((one) => `${one.replacementId} ${one.sku} x${one.quantity}`);
/** The project's files (bytes), but the store's folder. */
const projectFiles = () =>
  Object.fromEntries(Object.entries(snapshot(root)).filter(([path]) => !path.startsWith("/data/orders/")));
const lockOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")).packages as Record<
    string,
    { version: string; integrity: string }
  >;

/** One `cave call` in a new process over the same project: a restart. */
async function caveCall(args: Record<string, unknown>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [CLI, "call", TOOL, JSON.stringify(args), "--root", root, "--json"],
      { cwd: root, env: { ...process.env, CAVE_ISOLATION: "os" } },
    );
    return { code: 0, stdout, stderr };
  } catch (thrown) {
    const failed = thrown as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("examples/support-desk: the order store (SQLite in WAL mode under a write scope, default sandbox)", () => {
  it("is locked with its write scope and native addons, and better-sqlite3 is pinned from the example's package-lock.json", () => {
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
    expect(lock.tools[TOOL].effect).toBe("write");
    expect(lock.tools[TOOL].sandbox).toEqual({
      addons: true,
      egress: [],
      env: [],
      fs: { read: [], write: ["data/orders"] },
      mode: "required",
      network: false,
      secrets: {},
    });
    const pinned = lockOf(join(REPO_ROOT, "examples/support-desk"))["node_modules/better-sqlite3"]!;
    expect(pinned.version).toMatch(/^12\./);
    expect(lock.externals["node_modules/better-sqlite3"]).toEqual({
      name: "better-sqlite3",
      version: pinned.version,
      integrity: pinned.integrity,
      optional: false,
    });
    expect(lock.tools[TOOL].source.externals).toContain("node_modules/better-sqlite3");
    // The tests run the example over the repository's node_modules (copyProject links it): the same versions, or the
    // runtime would refuse them (LOCK_MISMATCH).
    const repository = lockOf(REPO_ROOT);
    for (const path of Object.keys(lock.externals))
      expect(lock.externals[path].version, path).toBe(repository[path]?.version);
  });

  it("what one call writes the next reads back; the database and its WAL side files are in data/orders and nothing else changes", async () => {
    const before = projectFiles();
    const { runtime, receipts } = await sandboxed(root, { sandbox: { isolation: "os" } });
    const first = await runtime.call(TOOL, {
      orderId: "ORD-10001",
      sku: "CBL-USBC-2M",
      quantity: 1,
      reason: "The cable does not charge any more.",
    });
    if (!first.ok) throw new Error(`${first.error.code}: ${first.error.message}`);
    const one = first.content as { replacement: Replacement; replacementsForOrder: Replacement[] };
    expect(one.replacement).toMatchObject({
      replacementId: "RPL-00001",
      orderId: "ORD-10001",
      sku: "CBL-USBC-2M",
      name: "USB-C cable, 2 m",
      quantity: 1,
    });
    expect(ids(one.replacementsForOrder)).toEqual(["RPL-00001 CBL-USBC-2M x1"]);

    const second = await runtime.call(TOOL, {
      orderId: "ORD-10001",
      sku: "KB-TKL-RED",
      quantity: 1,
      reason: "Two keys stick.",
    });
    if (!second.ok) throw new Error(`${second.error.code}: ${second.error.message}`);
    const two = second.content as { replacement: Replacement; replacementsForOrder: Replacement[] };
    expect(ids(two.replacementsForOrder)).toEqual(["RPL-00001 CBL-USBC-2M x1", "RPL-00002 KB-TKL-RED x1"]);
    expect(two.replacementsForOrder[0]).toEqual(one.replacement);
    expect(receipts.receipts.map((receipt) => [receipt.tool, receipt.outcome, receipt.isolation])).toEqual([
      [TOOL, "ok", "os"],
      [TOOL, "ok", "os"],
    ]);

    // The sandbox process keeps its connection open: the WAL and its index are beside the database, in the scope.
    expect(readdirSync(join(root, "data/orders")).sort()).toEqual(["orders.db", "orders.db-shm", "orders.db-wal"]);
    const host = new Database(join(root, "data/orders/orders.db"), { readonly: true });
    try {
      expect(host.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(host.prepare("select count(*) as n from replacements").get()).toEqual({ n: 2 });
    } finally {
      host.close();
    }
    expect(projectFiles()).toEqual(before);
    closeSandboxes();
  });

  it("survives a restart: a new process (cave call) reads what the first runtime wrote and applies the limit from it", async () => {
    const third = await caveCall({
      orderId: "ORD-10001",
      sku: "CBL-USBC-2M",
      quantity: 1,
      reason: "The second cable is broken too.",
    });
    expect(third.stderr).toBe("");
    expect(third.code).toBe(0);
    const outcome = JSON.parse(third.stdout) as { ok: true; content: { replacementsForOrder: Replacement[] } };
    expect(ids(outcome.content.replacementsForOrder)).toEqual([
      "RPL-00001 CBL-USBC-2M x1",
      "RPL-00002 KB-TKL-RED x1",
      "RPL-00003 CBL-USBC-2M x1",
    ]);

    // The order had two cables, both are replaced now: a third is refused from the stored rows, and nothing is added.
    const fourth = await caveCall({
      orderId: "ORD-10001",
      sku: "CBL-USBC-2M",
      quantity: 1,
      reason: "Another cable, please.",
    });
    expect(fourth.code).toBe(1);
    expect(JSON.parse(fourth.stdout)).toMatchObject({
      ok: false,
      error: {
        code: "TOOL_ERROR",
        message:
          'tool "place_replacement_order" failed: Order ORD-10001 had 2 of CBL-USBC-2M and 2 were replaced already; none can be replaced. Offer a refund instead.',
      },
    });

    // And a new runtime in this process sees all three.
    const { runtime } = await sandboxed(root, { sandbox: { isolation: "os" } });
    const fifth = await runtime.call(TOOL, {
      orderId: "ORD-10001",
      sku: "KB-TKL-RED",
      quantity: 1,
      reason: "The replacement keyboard has the same fault.",
    });
    expect(fifth).toMatchObject({
      ok: false,
      error: {
        code: "TOOL_ERROR",
        message: expect.stringContaining(
          "Order ORD-10001 had 1 of KB-TKL-RED and 1 was replaced already; none can be replaced.",
        ),
      },
    });
    const other = await runtime.call(TOOL, {
      orderId: "ORD-10003",
      sku: "ARM-MON-1",
      quantity: 1,
      reason: "The arm's clamp cracked.",
    });
    expect(other).toMatchObject({
      ok: true,
      content: { replacement: { replacementId: "RPL-00004", orderId: "ORD-10003" } },
    });
    expect(readdirSync(join(root, "data/orders")).sort()).toEqual(["orders.db", "orders.db-shm", "orders.db-wal"]);
  });

  it("without better-sqlite3 installed the build is refused with CAVE5161 (the build imports the module), nothing written", async () => {
    const bare = copyProject("examples/support-desk");
    // The project's own node_modules: every package of the repository's but better-sqlite3.
    rmSync(join(bare, "node_modules"));
    mkdirSync(join(bare, "node_modules"));
    for (const name of readdirSync(join(REPO_ROOT, "node_modules")))
      if (name !== "better-sqlite3")
        symlinkSync(join(REPO_ROOT, "node_modules", name), join(bare, "node_modules", name));
    const result = await build({ root: bare });
    const { version } = lockOf(join(REPO_ROOT, "examples/support-desk"))["node_modules/better-sqlite3"]!;
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.file, d.message])).toEqual([
      [
        "CAVE5161",
        "error",
        "cave.config.json",
        `the tool modules import external packages that are not installed in the project's node_modules: better-sqlite3 ${version} (node_modules/better-sqlite3)`,
      ],
    ]);
    expect(readdirSync(bare)).not.toContain("cave.lock");
  }, 120_000);

  it("without the OS layer the runtime is refused (OS_LAYER_REQUIRED names the write scope and native addons)", async () => {
    await expect(
      createRuntime({ root, mode: "host", dispatchers: { required: createSandboxDispatcher({ isolation: "node" }) } }),
    ).rejects.toMatchObject({
      code: "OS_LAYER_REQUIRED",
      message: expect.stringContaining(
        `tool "${TOOL}" is locked with powers only the sandbox's OS layer can enforce (write access to data/orders, native addons), and the OS layer is not in use here (isolation is "node"`,
      ),
    });
  });
});
