import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { PassCacheFile } from "../../compiler/cache/pass-cache.js";

/** The entry check is over JSON.stringify's text: whatever JSON data was stored must read back as a hit, unchanged. */

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it("entries of any JSON shape read back as hits, equal to what was stored", () => {
  const root = mkdtempSync(join(tmpdir(), "cave-pass-cache-"));
  made.push(root);
  mkdirSync(join(root, "node_modules"));
  const values: unknown[] = [
    { "10": 1, "9": 2, b: [1.5, -0, 1e21, null], a: { z: true, y: "é\u2028\u0000" } },
    ["lone \ud800 surrogate", 0.1 + 0.2, {}],
    "text",
    null,
  ];
  const writer = new PassCacheFile<unknown>(root, "check", { identity: "sha256-test", write: true });
  for (const [i, value] of values.entries()) writer.set(["entry", i], value);
  writer.save();
  const reader = new PassCacheFile<unknown>(root, "check", { identity: "sha256-test", write: false });
  for (const [i, value] of values.entries())
    expect(reader.get(["entry", i])).toEqual(JSON.parse(JSON.stringify(value)));
});
