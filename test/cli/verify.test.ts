import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealLock } from "../../src/contract/lock-seal.js";
import type { CaveLock, LockedTool } from "../../src/contract/lock.js";
import { checkDeployment } from "../../runtime/lock/deploy-check.js";
import { copyProject, removeCopies } from "../support/projects.js";
import { cave, expectRelativeOnly } from "./helpers.js";

const temps: string[] = [];
afterAll(() => {
  removeCopies();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

let built: string;
let lock: CaveLock;

beforeAll(async () => {
  built = copyProject("fixtures/basic");
  expect((await cave(["build"], built)).code).toBe(0);
  lock = JSON.parse(readFileSync(join(built, "cave.lock"), "utf8")) as CaveLock;
});

/** A fresh copy of the built project (lock and build folder) to tamper with. */
function deployCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "cave-deploy-"));
  temps.push(dir);
  cpSync(join(built, "cave.lock"), join(dir, "cave.lock"));
  cpSync(join(built, ".cave"), join(dir, ".cave"), { recursive: true });
  return dir;
}

type MutableLock = { -readonly [K in keyof CaveLock]: CaveLock[K] } & Record<string, unknown>;

/** Rewrites the lock; with `reseal`, recomputes integrity as a forger would, so only the deeper checks can catch it. */
function editLock(dir: string, edit: (lock: MutableLock) => void, reseal: boolean): void {
  const copy = JSON.parse(readFileSync(join(dir, "cave.lock"), "utf8")) as MutableLock;
  edit(copy);
  // A forger recomputes every hash (tool hashes and integrity), so only the deeper checks can catch it.
  const { integrity: _integrity, toolHashes: _hashes, ...body } = copy;
  writeFileSync(join(dir, "cave.lock"), `${JSON.stringify(reseal ? sealLock(body as never) : copy, null, 2)}\n`);
}

function flipOneByte(path: string): void {
  const bytes = readFileSync(path);
  bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 1;
  writeFileSync(path, bytes);
}

async function verify(dir: string): Promise<{ code: number; codes: string[]; lines: string[] }> {
  const run = await cave(["verify"], dir);
  expectRelativeOnly(run, dir);
  const lines = run.stderr.split("\n").filter((l) => l.startsWith("error "));
  const direct = await checkDeployment(dir);
  expect(direct.map((p) => p.code)).toEqual(lines.map((l) => l.split(" ")[1]!.replace(":", "")));
  return { code: run.code, codes: lines.map((l) => l.split(" ")[1]!.replace(":", "")), lines };
}

const tool = (l: CaveLock, name: string) => l.tools[name] as LockedTool;

describe("cave verify", () => {
  it("passes a fresh build and says so", async () => {
    const run = await cave(["verify"], deployCopy());
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("cave verify: cave.lock and its build folder match");
    const json = JSON.parse((await cave(["verify", "--json"], built)).stdout);
    expect(json).toEqual({ lock: "cave.lock", ok: true, problems: [] });
  });

  it("finds one changed byte in a staged bundle (CAVE9007)", async () => {
    const dir = deployCopy();
    const bundle = tool(lock, "lookup_policy").source.bundle;
    flipOneByte(join(dir, bundle));
    const result = await verify(dir);
    expect(result.code).toBe(1);
    expect(result.codes).toEqual(["CAVE9007"]);
    expect(result.lines[0]).toContain(`${bundle} does not match the lock (staged bundle of tool "lookup_policy")`);
    expect(result.lines[0]).toContain("run cave build and deploy its output unchanged");
  });

  it("finds one changed byte in a validator (CAVE9007)", async () => {
    const dir = deployCopy();
    const validation = tool(lock, "lookup_policy").input!.validation;
    if (validation.kind !== "precompiled") throw new Error("fixture input must be precompiled");
    flipOneByte(join(dir, validation.module));
    const result = await verify(dir);
    expect(result.codes).toEqual(["CAVE9007"]);
    expect(result.lines[0]).toContain(validation.module);
  });

  it("finds a missing file (CAVE9006), a link instead of a file (CAVE9006), a missing folder (CAVE9011)", async () => {
    const dir = deployCopy();
    const bundle = tool(lock, "set_policy").source.bundle;
    unlinkSync(join(dir, bundle));
    const missing = await verify(dir);
    expect(missing.codes).toEqual(["CAVE9006"]);
    expect(missing.lines[0]).toContain(`${bundle} is missing`);

    symlinkSync(join(built, bundle), join(dir, bundle));
    const linked = await verify(dir);
    expect(linked.codes).toEqual(["CAVE9006"]);
    expect(linked.lines[0]).toContain("is not a regular file");

    rmSync(join(dir, ".cave"), { recursive: true });
    const gone = await verify(dir);
    expect(gone.codes).toEqual(["CAVE9011"]);
    expect(gone.lines[0]).toContain("the build folder .cave does not exist");
  });

  it("finds an extra file in the build folder (CAVE9008)", async () => {
    const dir = deployCopy();
    writeFileSync(join(dir, ".cave", "payload.js"), "export const x = 1;\n");
    const result = await verify(dir);
    expect(result.codes).toEqual(["CAVE9008"]);
    expect(result.lines[0]).toContain(".cave/payload.js is in the build folder but the lock does not reference it");
  });

  it("finds an edited lock value with a stale integrity (CAVE9005)", async () => {
    const dir = deployCopy();
    editLock(dir, (l) => ((l.tools.set_policy as { timeoutMs: number }).timeoutMs = 999_999), false);
    const result = await verify(dir);
    expect(result.codes).toEqual(["CAVE9005"]);
    expect(result.lines[0]).toContain(
      'cave.lock: tool "set_policy": its entry was edited after cave build (toolHashes says sha256-',
    );
  });

  it("finds a missing tool, with a stale integrity and with a forged one (CAVE9009)", async () => {
    const stale = deployCopy();
    editLock(stale, (l) => delete (l.tools as Record<string, unknown>).set_policy, false);
    // set_policy's input validator stays behind, pinned by nothing now.
    expect((await verify(stale)).codes).toEqual(["CAVE9005", "CAVE9009", "CAVE9008"]);
    const forged = deployCopy();
    editLock(forged, (l) => delete (l.tools as Record<string, unknown>).set_policy, true);
    const result = await verify(forged);
    expect(result.codes).toEqual(["CAVE9009", "CAVE9008"]);
    expect(result.lines[0]).toContain('agent "policy_desk" (tools) names tool "set_policy", which is not in the lock');
  });

  it("finds an extra tool, with a stale integrity and with a forged one (CAVE9010)", async () => {
    const extra = (l: MutableLock) => ((l.tools as Record<string, unknown>).read_all_policies = l.tools.lookup_policy);
    const stale = deployCopy();
    editLock(stale, extra, false);
    expect((await verify(stale)).codes).toEqual(["CAVE9005", "CAVE9010"]);
    const forged = deployCopy();
    editLock(forged, extra, true);
    const result = await verify(forged);
    expect(result.codes).toEqual(["CAVE9010"]);
    expect(result.lines[0]).toContain(
      'tools "lookup_policy" and "read_all_policies" both claim export tools/policy.ts#lookupPolicy',
    );
  });

  it("refuses a bundle outside the build folder even with a forged integrity (CAVE9004)", async () => {
    const dir = deployCopy();
    editLock(
      dir,
      (l) => ((l.tools.lookup_policy as { source: { bundle: string } }).source.bundle = "tools/policy.ts"),
      true,
    );
    const result = await verify(dir);
    expect(result.codes).toContain("CAVE9004");
    expect(result.lines.find((l) => l.includes("CAVE9004"))).toContain(
      "source.bundle tools/policy.ts is outside the build folder .cave",
    );
  });

  it("refuses an unknown lockfileVersion before anything else (CAVE9003)", async () => {
    const dir = deployCopy();
    editLock(dir, (l) => ((l as Record<string, unknown>).lockfileVersion = 3), true);
    const result = await verify(dir);
    expect(result.codes).toEqual(["CAVE9003"]);
    expect(result.lines[0]).toContain("cave.lock has lockfileVersion 3, but this Cave reads lockfileVersion 1 and 2");
  });

  it("finds an edited header (stale integrity) and an edited pin in toolHashes (CAVE9005)", async () => {
    const header = deployCopy();
    editLock(
      header,
      (l) => ((l.agents as Record<string, { description: string | null }>).policy_desk!.description = "edited"),
      false,
    );
    expect((await verify(header)).lines).toEqual([
      expect.stringMatching(
        /^error CAVE9005: cave\.lock was edited after cave build: its integrity says sha256-\S+, its content without the tools' entries hashes to sha256-/,
      ),
    ]);
    const pin = deployCopy();
    editLock(pin, (l) => ((l.toolHashes as Record<string, string>).set_policy = `sha256-${"0".repeat(64)}`), false);
    const result = await verify(pin);
    expect(result.codes).toEqual(["CAVE9005", "CAVE9005"]);
    expect(result.lines[1]).toContain(
      `cave.lock: tool "set_policy": its entry was edited after cave build (toolHashes says sha256-${"0".repeat(64)}`,
    );
  });

  it("refuses a lock that is not JSON (CAVE9002) or not there (CAVE9001)", async () => {
    const dir = deployCopy();
    appendFileSync(join(dir, "cave.lock"), "}");
    expect((await verify(dir)).codes).toEqual(["CAVE9002"]);
    rmSync(join(dir, "cave.lock"));
    const result = await verify(dir);
    expect(result.codes).toEqual(["CAVE9001"]);
    expect(result.lines[0]).toContain("cave.lock does not exist; run cave build");
  });

  it("--json lists every problem with its code; --lock picks another lock file", async () => {
    const dir = deployCopy();
    writeFileSync(join(dir, ".cave", "extra.txt"), "x");
    const run = await cave(["verify", "--json"], dir);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout);
    expect(json.ok).toBe(false);
    expect(json.problems.map((p: { code: string }) => p.code)).toEqual(["CAVE9008"]);
    expect((await cave(["verify", "--lock", "elsewhere.lock"], dir)).stderr).toContain(
      "error CAVE9001: elsewhere.lock does not exist",
    );
    expect((await cave(["verify", "extra-arg"], dir)).code).toBe(1);
  });

  it("checks result transforms the plans pin (examples/support-desk): intact, then one byte off (CAVE9007)", async () => {
    const root = copyProject("examples/support-desk");
    expect((await cave(["build"], root)).code).toBe(0);
    expect((await cave(["verify"], root)).code).toBe(0);
    const lockText = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as CaveLock;
    const withTransform = Object.entries(lockText.tools).find(([, t]) => t.result.plan.transform !== null);
    if (!withTransform) throw new Error("the example must lock a compress plan");
    const [name, locked] = withTransform;
    flipOneByte(join(root, locked.result.plan.transform!.module));
    const result = await verify(root);
    expect(result.codes).toEqual(["CAVE9007"]);
    expect(result.lines[0]).toContain(`(result transform of tool "${name}")`);
  });
});
