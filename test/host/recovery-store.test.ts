import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256 } from "../../src/contract/hash.js";
import { createFileRecoveryStore, RECOVERY_RETENTION } from "../../runtime/results/store.js";

/** Issue 13 item 9: stored results are private to the owner, and the store keeps them for a documented time and size. */
const root = mkdtempSync(join(tmpdir(), "cave-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bytesOf = (text: string) => Buffer.from(text, "utf8");
const fileOf = (dir: string, hash: string) => join(dir, hash.slice(7, 9), `${hash.slice(7)}.json`);

describe("the file recovery store", () => {
  it("writes results and their folders readable by the owner only (0600, 0700)", async () => {
    const dir = join(root, "perms");
    const store = createFileRecoveryStore(dir);
    const bytes = bytesOf('{"secret":"1234"}');
    await store.put(sha256(bytes), bytes);
    expect(statSync(fileOf(dir, sha256(bytes))).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, sha256(bytes).slice(7, 9))).mode & 0o777).toBe(0o700);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("has a documented default retention of 7 days and 1 GiB", () => {
    expect(RECOVERY_RETENTION).toEqual({ maxAgeMs: 7 * 24 * 3600 * 1000, maxBytes: 1024 ** 3 });
    expect(createFileRecoveryStore(join(root, "defaults")).retentionMs).toBe(RECOVERY_RETENTION.maxAgeMs);
  });

  it("does not return a result older than maxAgeMs, and prune() deletes it", async () => {
    const dir = join(root, "age");
    let now = Date.now();
    const store = createFileRecoveryStore(dir, { maxAgeMs: 60_000, now: () => now });
    const bytes = bytesOf("[1,2,3]");
    await store.put(sha256(bytes), bytes);
    expect(await store.get(sha256(bytes))).not.toBeNull();
    const old = new Date(now - 61_000);
    utimesSync(fileOf(dir, sha256(bytes)), old, old);
    expect(await store.get(sha256(bytes))).toBeNull();
    await store.prune();
    expect(() => statSync(fileOf(dir, sha256(bytes)))).toThrow();
    // Storing the same bytes again makes them fresh.
    now += 1;
    await store.put(sha256(bytes), bytes);
    expect(await store.get(sha256(bytes))).not.toBeNull();
  });

  it("keeps the store under maxBytes by deleting the oldest results first", async () => {
    const dir = join(root, "size");
    const store = createFileRecoveryStore(dir, { maxBytes: 3_000 });
    const hashes: string[] = [];
    const start = Date.now() - 100_000;
    for (let i = 0; i < 5; i++) {
      const bytes = bytesOf(String(i).repeat(1_000));
      await store.put(sha256(bytes), bytes);
      const at = new Date(start + i * 1_000);
      utimesSync(fileOf(dir, sha256(bytes)), at, at);
      hashes.push(sha256(bytes));
    }
    await store.prune();
    const kept = await Promise.all(hashes.map(async (hash) => (await store.get(hash)) !== null));
    expect(kept).toEqual([false, false, true, true, true]);
    expect(readdirSync(dir).includes("key")).toBe(false);
  });

  it("prunes on its own as results are written, without being asked", async () => {
    const dir = join(root, "auto");
    const store = createFileRecoveryStore(dir, { maxBytes: 2_000 });
    for (let i = 0; i < 20; i++) {
      const bytes = bytesOf(`${i}`.padEnd(500, "x"));
      await store.put(sha256(bytes), bytes);
    }
    let total = 0;
    for (const folder of readdirSync(dir))
      for (const file of readdirSync(join(dir, folder))) total += statSync(join(dir, folder, file)).size;
    expect(total).toBeLessThanOrEqual(2_000 + 500);
  });

  it("refuses unknown options", () => {
    expect(() => createFileRecoveryStore(join(root, "x"), { maxAge: 1 } as never)).toThrow(/maxAge/);
  });
});
