// Issue 13, item 8: a recovery key file that was not exactly 32 bytes (a 0-byte key left by a crash at first use)
// was used as the HMAC key, so forged cursors and references passed. The key is created atomically and any other
// length is refused (RECOVERY_KEY_INVALID).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createHmac } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planResult } from "../../compiler/results/planner.js";
import { ResultPlans } from "../../runtime/results/engine.js";
import { createFileRecoveryStore, createMemoryRecoveryStore } from "../../runtime/results/store.js";

/**
 * Issue 13 item 8: the recovery key signs every cursor and reference, so a key that is not exactly 32 bytes
 * (a crash or a full disk at first use leaves a 0-byte file) must never be used: with an empty key, anyone can
 * compute the MAC and forge a reference to any stored result.
 */
const root = mkdtempSync(join(tmpdir(), "cave-key-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BINDING = { lockIntegrity: `sha256-${"0".repeat(64)}`, tool: "tool", run: "run-1" };
const plan = (() => {
  const planned = planResult("tool", { policy: "exact_ccr" }, null, ".cave");
  if (!planned.ok) throw new Error("no plan");
  return planned.plan;
})();
const big = Array.from({ length: 400 }, (_, i) => ({ i, text: `row ${i} of a large result` }));

describe("the recovery key", () => {
  it("is created atomically with mode 0600 and exactly 32 bytes, and every store on the folder reads the same key", async () => {
    const dir = join(root, "fresh");
    const keys = await Promise.all(Array.from({ length: 8 }, () => createFileRecoveryStore(dir).key()));
    for (const key of keys) expect(Buffer.from(key).equals(Buffer.from(keys[0]!))).toBe(true);
    expect(keys[0]!.length).toBe(32);
    expect(statSync(join(dir, "key")).mode & 0o777).toBe(0o600);
    // No temporary file is left behind.
    expect(readdirSync(dir)).toEqual(["key"]);
  });

  it("a 0-byte key left by a crash is refused with a clear error, and a reference forged with the empty key does not pass", async () => {
    const dir = join(root, "crashed");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "key"), "");
    const plans = new ResultPlans({ root, store: createFileRecoveryStore(dir) });
    const stored = await plans.apply(plan, big, undefined, BINDING);
    expect(stored).toMatchObject({ ok: false, code: "RECOVERY_KEY_INVALID" });
    expect((stored as { message: string }).message).toMatch(/is 0 bytes, not 32/);
    expect((stored as { message: string }).message).toMatch(/delete/i);

    // The attack: an empty key makes the MAC computable by anyone.
    const forged = (body: string) =>
      `${body}.${createHmac("sha256", new Uint8Array(0)).update(body).digest().subarray(0, 16).toString("base64url")}`;
    const ref = forged(`rf1.${"a".repeat(64)}.1200`);
    const outcome = await plans.reserved("cave_recover", { ref }, BINDING);
    expect(outcome).toMatchObject({ ok: false, code: "RECOVERY_KEY_INVALID" });
  });

  it("a key of the wrong length (33 bytes) is refused, not truncated or replaced", async () => {
    const dir = join(root, "long");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "key"), Buffer.alloc(33, 7));
    await expect(createFileRecoveryStore(dir).key()).rejects.toThrow(/33 bytes, not 32/);
    expect(statSync(join(dir, "key")).size).toBe(33);
  });

  it("a custom store whose key() gives fewer than 32 bytes is refused by the engine", async () => {
    const weak = { ...createMemoryRecoveryStore(), key: async () => new Uint8Array(4) };
    const plans = new ResultPlans({ root, store: weak });
    expect(await plans.apply(plan, big, undefined, BINDING)).toMatchObject({ ok: false, code: "RECOVERY_KEY_INVALID" });
    expect(() => createMemoryRecoveryStore(new Uint8Array(16))).toThrow(/16 bytes, not 32, .*give 32 random bytes/);
  });
});
