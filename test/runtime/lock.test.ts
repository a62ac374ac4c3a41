import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, RuntimeError } from "../../runtime/index.js";
import { peekTool, readLock as readLockFile } from "../../runtime/lock/read-lock.js";
import { hashJson } from "../../src/contract/hash.js";
import type { CaveLock } from "../../src/contract/lock.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./helpers.js";

let built: string;
const copies: string[] = [];
beforeAll(async () => {
  built = await builtProject("pipeline");
});
afterAll(() => {
  removeCopies();
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A fresh copy of the built project (lock and build folder included) to tamper with. */
function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), "cave-runtime-lock-"));
  copies.push(dir);
  cpSync(built, dir, { recursive: true, filter: (source) => !source.includes("node_modules") });
  return dir;
}

function readLock(root: string): CaveLock {
  return JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as CaveLock;
}

/** Writes a lock with a correct integrity for its (changed) content. */
function writeSealed(root: string, lock: Record<string, unknown>): void {
  const { integrity: _old, ...body } = lock;
  writeFileSync(join(root, "cave.lock"), `${JSON.stringify({ ...body, integrity: hashJson(body) }, null, 2)}\n`);
}

async function refusal(options: Parameters<typeof createRuntime>[0]): Promise<RuntimeError> {
  try {
    await createRuntime(options);
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(RuntimeError);
    return thrown as RuntimeError;
  }
  throw new Error("createRuntime() did not refuse");
}

function flipByte(file: string, at = 200): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at] === 0x20 ? 0x09 : 0x20;
  writeFileSync(file, bytes);
}

describe("start-up verification", () => {
  it("refuses a lock edited after the build (stale integrity), naming the file relative to the root", async () => {
    const root = copy();
    const lock = readLock(root) as unknown as Record<string, Record<string, Record<string, unknown>>>;
    lock.tools!.lookup!.timeoutMs = 99_999;
    writeFileSync(join(root, "cave.lock"), JSON.stringify(lock, null, 2));
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_MISMATCH");
    expect(error.message).toMatch(/^cave\.lock does not match its integrity hash/);
    expect(error.message).toContain("cave build");
    expect(error.message).not.toContain(root);
  });

  it("refuses a lock whose integrity value was edited", async () => {
    const root = copy();
    const text = readFileSync(join(root, "cave.lock"), "utf8");
    const lock = readLock(root);
    const forged = `sha256-${"0".repeat(64)}`;
    writeFileSync(join(root, "cave.lock"), text.replace(lock.integrity, forged));
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_MISMATCH");
    expect(error.message).toContain(`it says ${forged}, its content hashes to ${lock.integrity}`);
  });

  it("accepts a whitespace-only change: integrity is over the canonical form, not the bytes", async () => {
    const root = copy();
    const text = readFileSync(join(root, "cave.lock"), "utf8");
    writeFileSync(join(root, "cave.lock"), JSON.stringify(JSON.parse(text)));
    const runtime = await createRuntime({ root, mode: "host" });
    expect(runtime.lockIntegrity).toBe(readLock(built).integrity);
    expect((await runtime.call("lookup", { region: "EU" })).ok).toBe(true);
  });

  it("refuses an unknown lockfileVersion, naming both versions", async () => {
    const root = copy();
    writeSealed(root, { ...readLock(root), lockfileVersion: 2 });
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_VERSION_UNSUPPORTED");
    expect(error.message).toContain("cave.lock has lockfileVersion 2");
    expect(error.message).toContain("reads lockfileVersion 1");
  });

  it("refuses a missing lock", async () => {
    const root = copy();
    rmSync(join(root, "cave.lock"));
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_NOT_FOUND");
    expect(error.message).toMatch(/^cave\.lock does not exist; run cave build/);
    const elsewhere = await refusal({ root, lock: "deploy/cave.lock", mode: "host" });
    expect(elsewhere.message).toMatch(/^deploy\/cave\.lock does not exist/);
  });

  it("refuses a lock that is not JSON, or whose top level is not the v1 shape even with a matching integrity", async () => {
    const root = copy();
    writeFileSync(join(root, "cave.lock"), "{ not json");
    expect((await refusal({ root, mode: "host" })).code).toBe("LOCK_INVALID");

    const lock = readLock(copy());
    writeSealed(root, { ...lock, buildDir: "../elsewhere" } as unknown as Record<string, unknown>);
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_INVALID");
    expect(error.message).toBe("cave.lock is not a valid lockfileVersion 1 lock: buildDir must be a POSIX path relative to the project root, inside it; regenerate it with cave build");

    const agent = { module: "tools/read.ts", export: "team", description: null, tools: ["ghost", "lookup"] };
    writeSealed(root, { ...lock, agents: { ...lock.agents, team: agent } } as unknown as Record<string, unknown>);
    expect((await refusal({ root, mode: "host" })).message).toContain('agents.team.tools must be names of locked tools ("ghost" is not in the lock)');

    writeSealed(root, { ...lock, tools: { ...lock.tools, "bad name!": lock.tools.lookup } } as unknown as Record<string, unknown>);
    expect((await refusal({ root, mode: "host" })).message).toContain("tools.bad name! must be named by");
  });

  it("refuses a malformed tool entry (with a matching integrity) when that tool is first read, and nothing of it runs", async () => {
    const root = copy();
    const lock = readLock(root);
    const broken = {
      ...lock,
      tools: {
        ...lock.tools,
        lookup: { ...lock.tools.lookup, effect: "delete" },
        composite: { ...lock.tools.composite, nestedTools: ["ghost"] },
        hang: { ...lock.tools.hang, source: { ...lock.tools.hang!.source, bundle: "../outside.mjs" } },
      },
    };
    writeSealed(root, broken as unknown as Record<string, unknown>);
    const runtime = await createRuntime({ root, mode: "host" });
    expect(runtime.toolNames).toEqual(Object.keys(lock.tools).sort());

    const lookup = await runtime.call("lookup", { region: "EU" });
    expect(lookup.ok).toBe(false);
    expect(lookup.ok ? undefined : lookup.error).toEqual({
      code: "LOCK_INVALID",
      message: "cave.lock is not a valid lockfileVersion 1 lock: tools.lookup.effect must be one of read, write, idempotent, external; regenerate it with cave build",
    });
    expect(lookup.receipt.outcome).toBe("LOCK_INVALID");
    const composite = await runtime.call("composite", {});
    expect(composite.ok ? undefined : composite.error.message).toContain('tools.composite.nestedTools must be names of locked tools ("ghost" is not in the lock)');
    const hang = await runtime.call("hang", {});
    expect(hang.ok ? undefined : hang.error.message).toContain("tools.hang.source.bundle must be a POSIX path relative to the project root");

    // The other tools run; the deploy-time checks read every entry and refuse.
    expect(await runtime.call("echo", { text: "still here" })).toMatchObject({ ok: true });
    await expect(runtime.verifyAll()).rejects.toMatchObject({ code: "LOCK_INVALID" });
    expect(() => runtime.toolDeclarations("openai")).toThrow(/tools\.composite\.nestedTools|tools\.lookup\.effect/);
  });

  it("reads a lock with CRLF line ends, tabs, and strings holding quotes, colons and escapes as the same lock", async () => {
    const root = copy();
    const lock = readLock(root);
    const description = 'Looks up "a": b, {c}: \\"d\\" \u00e9\n';
    writeSealed(root, { ...lock, tools: { ...lock.tools, lookup: { ...lock.tools.lookup, description } } } as unknown as Record<string, unknown>);
    const text = readFileSync(join(root, "cave.lock"), "utf8");
    writeFileSync(join(root, "cave.lock"), text.replaceAll("\n", "\r\n").replaceAll("  ", "\t"));
    const runtime = await createRuntime({ root, mode: "host" });
    const declared = runtime.toolDeclarations("openai").find((d) => d.function.name === "lookup");
    expect(declared?.function.description).toBe(description);
    expect((await runtime.call("lookup", { region: "EU" })).ok).toBe(true);
  });

  it("refuses a lock whose whitespace splits a number, though removing it would give the sealed bytes", async () => {
    const root = copy();
    const text = readFileSync(join(root, "cave.lock"), "utf8");
    const timeout = /"timeoutMs": (\d)(\d+)/.exec(text)!;
    writeFileSync(join(root, "cave.lock"), text.replace(timeout[0], `"timeoutMs": ${timeout[1]} ${timeout[2]}`));
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_INVALID");
    expect(error.message).toBe("cave.lock is not valid JSON; regenerate it with cave build and never edit it by hand");
  });

  it("refuses unknown and ill-typed options", async () => {
    const unknown = await refusal({ root: built, mode: "host", timout: 5 } as never);
    expect(unknown.code).toBe("OPTIONS_INVALID");
    expect(unknown.message).toContain('unknown option "timout"');
    const nested = await refusal({ root: built, mode: "host", budget: { maxCall: 3 } } as never);
    expect(nested.message).toContain('unknown option "budget.maxCall"');
    const mode = await refusal({ root: built } as never);
    expect(mode.message).toContain('mode must be "host" or "fixture"');
    const bad = await refusal({ root: built, mode: "host", limits: { maxInputBytes: -1 } });
    expect(bad.message).toContain("limits.maxInputBytes must be an integer of at least 1");
    const runtime = await createRuntime({ root: built, mode: "host" });
    expect(() => runtime.startRun({ budjet: {} } as never)).toThrow(/unknown option "budjet"/);
    await expect(runtime.call("lookup", { region: "EU" }, { speculate: true } as never)).rejects.toThrow(/unknown option "speculate"/);
  });

  it("reads nothing but the lock at start-up: a missing build folder is found on first use", async () => {
    const root = copy();
    renameSync(join(root, ".cave"), join(root, ".cave-gone"));
    const runtime = await createRuntime({ root, mode: "host" });
    expect(runtime.toolNames).toContain("lookup");
    const outcome = await runtime.call("echo", {});
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("LOCK_MISMATCH");
    expect(outcome.error.message).toMatch(/^tool "echo": its staged bundle \.cave\/\S+ is missing/);
    expect(outcome.error.message).not.toContain(root);
    // A repaired deploy recovers without a restart.
    renameSync(join(root, ".cave-gone"), join(root, ".cave"));
    expect((await runtime.call("echo", { again: true })).ok).toBe(true);
  });
});

describe("tampering after the build", () => {
  it("refuses a call whose bundle has one byte changed, naming the tool and the file; verifyAll says so up front", async () => {
    const root = copy();
    const lock = readLock(root);
    const bundle = lock.tools.lookup!.source.bundle;
    flipByte(join(root, bundle));
    const runtime = await createRuntime({ root, mode: "host" });
    await expect(runtime.verifyAll()).rejects.toMatchObject({ code: "LOCK_MISMATCH", message: expect.stringContaining(bundle) });
    const outcome = await runtime.call("lookup", { region: "EU" });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("LOCK_MISMATCH");
    expect(outcome.error.message).toContain('tool "lookup"');
    expect(outcome.error.message).toContain(`${bundle} does not match the lock`);
    // A tool from another (intact) bundle still runs.
    expect((await runtime.call("write_tool", { id: "1" })).ok).toBe(true);
  });

  it("refuses a call whose precompiled validator has one byte changed", async () => {
    const root = copy();
    const lock = readLock(root);
    const validation = lock.tools.lookup!.input!.validation;
    if (validation.kind !== "precompiled") throw new Error("lookup's input is precompiled");
    flipByte(join(root, validation.module));
    const runtime = await createRuntime({ root, mode: "host" });
    await expect(runtime.verifyAll()).rejects.toMatchObject({ code: "LOCK_MISMATCH", message: expect.stringContaining(validation.module) });
    const outcome = await runtime.call("lookup", { region: "EU" });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("LOCK_MISMATCH");
    expect(outcome.error.message).toContain('tool "lookup"');
    expect(outcome.error.message).toContain(validation.module);
  });

  it("verifyAll passes on an intact build", async () => {
    const runtime = await createRuntime({ root: built, mode: "host" });
    await expect(runtime.verifyAll()).resolves.toBeUndefined();
  });
});

describe("peekTool: a start-up look at a lock entry that the lock does not keep", () => {
  it("gives the same checked entry as lock.tools[name], and the lock parses it again when the tool is read", async () => {
    const lock = await readLockFile(join(built, "cave.lock"), "cave.lock");
    const peeked = peekTool(lock, "echo");
    const read = lock.tools.echo!;
    expect(peeked).toEqual(read);
    expect(peeked).not.toBe(read);
    // Once read, the entry is kept, and a peek gives that very entry.
    expect(peekTool(lock, "echo")).toBe(read);
    expect(lock.tools.echo).toBe(read);
  });

  it("refuses a malformed entry with the message the lock's own read gives (LOCK_INVALID), each time", async () => {
    const root = copy();
    const sealed = readLock(root);
    writeSealed(root, { ...sealed, tools: { ...sealed.tools, lookup: { ...sealed.tools.lookup!, effect: "delete" } } } as unknown as Record<string, unknown>);
    const lock = await readLockFile(join(root, "cave.lock"), "cave.lock");
    const message = "cave.lock is not a valid lockfileVersion 1 lock: tools.lookup.effect must be one of read, write, idempotent, external; regenerate it with cave build";
    for (let i = 0; i < 2; i++) {
      let thrown: unknown;
      try {
        peekTool(lock, "lookup");
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RuntimeError);
      expect(thrown).toMatchObject({ code: "LOCK_INVALID", message });
    }
    expect(() => lock.tools.lookup).toThrow(message);
  });

  it("falls back to lock.tools[name] for a lock readLock did not make", () => {
    const entry = { name: "x" };
    const lock = { tools: { x: entry } } as unknown as CaveLock;
    expect(peekTool(lock, "x")).toBe(entry);
  });
});
