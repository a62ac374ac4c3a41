import { cpSync, rmSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { REPO_ROOT } from "../support/golden.js";

const temps: string[] = [];
function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), "cave-build-"));
  temps.push(dir);
  cpSync(join(REPO_ROOT, "fixtures", name), dir, { recursive: true });
  return dir;
}

describe("build()", () => {
  it("refuses unknown build options with CAVE2007 and a did-you-mean hint", async () => {
    const result = await build({ root: REPO_ROOT, wirte: false } as never);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["CAVE2007"]);
    expect(result.diagnostics[0]!.hint).toContain('Did you mean "write"?');
  });

  it("writes cave.lock and the build folder, and nothing when write is false", async () => {
    const root = copyFixture("basic");
    const dry = await build({ root, write: false });
    expect(dry.ok).toBe(true);
    expect(existsSync(join(root, "cave.lock"))).toBe(false);
    expect(existsSync(join(root, ".cave"))).toBe(false);
    const real = await build({ root });
    expect(real.written).toBe(true);
    expect(readFileSync(join(root, "cave.lock"), "utf8")).toBe(dry.lockText);
    for (const [path, code] of dry.files) expect(readFileSync(join(root, path), "utf8")).toBe(code);
  });

  it("reports CAVE8001 and leaves the previous lock and folder intact when the output cannot be written", async () => {
    const root = copyFixture("basic");
    expect((await build({ root })).ok).toBe(true);
    const snapshot = () =>
      Object.fromEntries(
        readdirSync(join(root, ".cave"), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => [join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), "utf8")]),
      );
    const lockBefore = readFileSync(join(root, "cave.lock"), "utf8");
    const folderBefore = snapshot();
    // A regular file where the lock's folder must be: the write fails even for root, after the build folder was staged aside.
    writeFileSync(join(root, "locks"), "not a folder\n");
    const second = await build({ root, config: { lock: "locks/cave.lock" } });
    expect(second.ok).toBe(false);
    const failure = second.diagnostics.find((d) => d.code === "CAVE8001");
    expect(failure?.message).toMatch(/could not write the build output/);
    expect(failure?.message).not.toContain(root);
    expect(failure?.hint).toMatch(/nothing was half-written/);
    expect(readFileSync(join(root, "cave.lock"), "utf8")).toBe(lockBefore);
    expect(snapshot()).toEqual(folderBefore);
    expect(readdirSync(root).filter((name) => name.includes(".tmp-") || name.includes(".old-"))).toEqual([]);
  });
});

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("build cache", () => {
  it("reuses an identical build byte for byte, and misses on any change of input or output", async () => {
    const root = copyFixture("basic");
    const first = await build({ root });
    expect(first.cached).toBe(false);
    const again = await build({ root });
    expect(again.cached).toBe(true);
    expect(again.lockText).toBe(first.lockText);
    expect([...again.files]).toEqual([...first.files]);

    // A changed source: a full build, with the new description in the lock.
    const module = join(root, "tools", "policy.ts");
    writeFileSync(
      module,
      readFileSync(module, "utf8").replace("Read current refund policy.", "Read the current refund policy."),
    );
    const changed = await build({ root });
    expect(changed.cached).toBe(false);
    expect(changed.lockText).toContain("Read the current refund policy.");

    // A tampered build folder is never served from the cache: the rebuild restores the real bytes.
    const [bundlePath, bundleCode] = [...changed.files].find(([path]) => path.includes("/bundles/"))!;
    writeFileSync(join(root, bundlePath), `${bundleCode}// tampered\n`);
    const repaired = await build({ root });
    expect(repaired.cached).toBe(false);
    expect(readFileSync(join(root, bundlePath), "utf8")).toBe(bundleCode);

    // Same for an edited lock.
    writeFileSync(join(root, "cave.lock"), repaired.lockText!.replace('"timeoutMs": 5000', '"timeoutMs": 6000'));
    const relocked = await build({ root });
    expect(relocked.cached).toBe(false);
    expect(readFileSync(join(root, "cave.lock"), "utf8")).toBe(repaired.lockText);
  });

  it("two copies of one project never share an entry", async () => {
    const a = copyFixture("basic");
    const b = copyFixture("basic");
    await build({ root: a });
    await build({ root: b });
    const module = join(b, "tools", "policy.ts");
    writeFileSync(module, readFileSync(module, "utf8").replace("timeout: 5_000", "timeout: 7_000"));
    const rebuilt = await build({ root: b });
    expect(rebuilt.cached).toBe(false);
    expect(rebuilt.lockText).toContain('"timeoutMs": 7000');
  });

  it("cache: false always builds; write: false never records", async () => {
    const root = copyFixture("basic");
    expect((await build({ root, write: false })).cached).toBe(false);
    expect((await build({ root, write: false })).cached).toBe(false);
    await build({ root });
    expect((await build({ root, cache: false })).cached).toBe(false);
    expect((await build({ root, write: false })).cached).toBe(true);
  });
});
