import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, RuntimeError } from "../../runtime/index.js";
import { readLock as readLockFile } from "../../runtime/lock/read-lock.js";
import { hashJson } from "../../src/contract/hash.js";
import type { CaveLock } from "../../src/contract/lock.js";
import { sealLock } from "../../src/contract/lock-seal.js";
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

/** Writes a lock sealed for its (changed) content, as a forger who recomputes every hash would: tool hashes and integrity. */
function writeSealed(root: string, lock: Record<string, unknown>): void {
  const { integrity: _integrity, toolHashes: _hashes, ...body } = lock;
  writeFileSync(join(root, "cave.lock"), `${JSON.stringify(sealLock(body as never), null, 2)}\n`);
}

/** Writes the lock with only `edit` applied, every hash left as cave build wrote it. */
function writeEdited(root: string, edit: (lock: Record<string, any>) => void): void {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const lock = readLock(root) as unknown as Record<string, unknown>;
  edit(lock);
  writeFileSync(join(root, "cave.lock"), `${JSON.stringify(lock, null, 2)}\n`);
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
  it("refuses a lock whose header was edited after the build (stale integrity), naming the file relative to the root", async () => {
    const root = copy();
    writeEdited(
      root,
      (lock) =>
        (lock.agents = {
          ...lock.agents,
          team: { module: "tools/read.ts", export: "team", description: null, tools: ["lookup"] },
        }),
    );
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_MISMATCH");
    expect(error.message).toMatch(/^cave\.lock does not match its integrity hash/);
    expect(error.message).toContain("cave build");
    expect(error.message).not.toContain(root);
  });

  it("refuses a lock whose manifest of tool hashes was edited (a tool's pin changed, added or removed) at start-up", async () => {
    for (const edit of [
      (lock: Record<string, any>) => (lock.toolHashes.lookup = hashJson({ forged: true })), // eslint-disable-line @typescript-eslint/no-explicit-any
      (lock: Record<string, any>) => (lock.toolHashes.extra = hashJson({ forged: true })), // eslint-disable-line @typescript-eslint/no-explicit-any
      (lock: Record<string, any>) => delete lock.toolHashes.lookup, // eslint-disable-line @typescript-eslint/no-explicit-any
    ]) {
      const root = copy();
      writeEdited(root, edit);
      const error = await refusal({ root, mode: "host" });
      expect(error.code).toBe("LOCK_MISMATCH");
      expect(error.message).toMatch(
        /^cave\.lock does not match its integrity hash .*: it was edited after cave build; regenerate it with cave build$/,
      );
    }
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

  it("accepts the header's keys in another order: integrity is over the canonical form, not the order written", async () => {
    const root = copy();
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as Record<string, Record<string, unknown>>;
    const reversed = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).reverse());
    const { tools, ...header } = lock;
    const reordered = { ...reversed({ ...header, sdk: reversed(header.sdk!) }), tools };
    writeFileSync(join(root, "cave.lock"), `${JSON.stringify(reordered, null, 2)}\n`);
    const runtime = await createRuntime({ root, mode: "host" });
    expect(runtime.lockIntegrity).toBe(readLock(built).integrity);
    expect((await runtime.call("lookup", { region: "EU" })).ok).toBe(true);
  });

  it("refuses an unknown lockfileVersion, naming both versions", async () => {
    const root = copy();
    writeSealed(root, { ...readLock(root), lockfileVersion: 3 });
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_VERSION_UNSUPPORTED");
    expect(error.message).toContain("cave.lock has lockfileVersion 3");
    expect(error.message).toContain("reads lockfileVersion 2");
  });

  it("refuses a lock v1 (an earlier cave build), saying to rebuild with this version", async () => {
    const root = copy();
    // A lock v1 as cave build wrote it: one hash over everything but integrity (version is checked before any hash).
    const {
      integrity: _i,
      toolHashes: _h,
      osLayerTools: _o,
      ...body
    } = { ...readLock(root), lockfileVersion: 1 } as Record<string, unknown>;
    writeFileSync(join(root, "cave.lock"), `${JSON.stringify({ ...body, integrity: hashJson(body) }, null, 2)}\n`);
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_VERSION_UNSUPPORTED");
    expect(error.message).toBe(
      "cave.lock has lockfileVersion 1, written by an earlier cave build, but this runtime reads lockfileVersion 2; run cave build with this cave version (the same sources give a lockfileVersion 2 lock; cave diff shows the two side by side) and deploy the new lock with its build folder",
    );
  });

  it("refuses a lock cut short at start-up, wherever it was cut", async () => {
    const text = readFileSync(join(built, "cave.lock"));
    for (const at of [
      text.length - 2,
      text.length - 4,
      Math.floor(text.length * 0.9),
      Math.floor(text.length / 2),
      40,
    ]) {
      const root = copy();
      writeFileSync(join(root, "cave.lock"), text.subarray(0, at));
      const error = await refusal({ root, mode: "host" });
      expect(error.code).toBe("LOCK_INVALID");
      expect(error.message).toBe(
        "cave.lock is not valid JSON (or was cut short); regenerate it with cave build and never edit it by hand",
      );
    }
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

  it("refuses a lock that is not JSON, or whose header is not the v2 shape even with a matching integrity", async () => {
    const root = copy();
    writeFileSync(join(root, "cave.lock"), "{ not json");
    expect((await refusal({ root, mode: "host" })).code).toBe("LOCK_INVALID");

    const lock = readLock(copy());
    writeSealed(root, { ...lock, buildDir: "../elsewhere" } as unknown as Record<string, unknown>);
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_INVALID");
    expect(error.message).toBe(
      "cave.lock is not a valid lockfileVersion 2 lock: buildDir must be a POSIX path relative to the project root, inside it; regenerate it with cave build",
    );

    const agent = { module: "tools/read.ts", export: "team", description: null, tools: ["ghost", "lookup"] };
    writeSealed(root, { ...lock, agents: { ...lock.agents, team: agent } } as unknown as Record<string, unknown>);
    expect((await refusal({ root, mode: "host" })).message).toContain(
      'agents.team.tools must be names of locked tools ("ghost" is not in the lock)',
    );

    writeSealed(root, { ...lock, tools: { ...lock.tools, "bad name!": lock.tools.lookup } } as unknown as Record<
      string,
      unknown
    >);
    expect((await refusal({ root, mode: "host" })).message).toContain("toolHashes.bad name! must be named by");
  });

  it("refuses a tool entry edited after the build on its first use (LOCK_MISMATCH), every time, while the other tools run", async () => {
    const root = copy();
    const pinned = readLock(root).toolHashes.lookup!;
    writeEdited(root, (lock) => (lock.tools.lookup.timeoutMs = 99_999));
    const runtime = await createRuntime({ root, mode: "host" });
    expect(runtime.toolNames).toContain("lookup");
    for (let i = 0; i < 2; i++) {
      const outcome = await runtime.call("lookup", { region: "EU" });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.code).toBe("LOCK_MISMATCH");
      expect(outcome.error.message).toMatch(
        new RegExp(
          `^cave\\.lock: the entry of tool "lookup" does not match its hash in toolHashes \\(it says ${pinned}, the entry hashes to sha256-[0-9a-f]{64}\\): it was edited after cave build, so this tool is not run; regenerate the lock with cave build and deploy it unchanged \\(the other tools still run\\)$`,
        ),
      );
      expect(outcome.receipt.outcome).toBe("LOCK_MISMATCH");
    }
    expect(await runtime.call("echo", { text: "still here" })).toMatchObject({ ok: true });
    await expect(runtime.verifyAll()).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      message: expect.stringContaining('the entry of tool "lookup"'),
    });
  });

  it("refuses a tool whose entry is gone from the lock on its first use, while the other tools run", async () => {
    const root = copy();
    writeEdited(root, (lock) => delete lock.tools.lookup);
    const runtime = await createRuntime({ root, mode: "host" });
    const outcome = await runtime.call("lookup", { region: "EU" });
    expect(outcome.ok ? undefined : outcome.error).toEqual({
      code: "LOCK_MISMATCH",
      message:
        'cave.lock has no entry for tool "lookup", which its toolHashes pins: the lock was cut short or edited after cave build; regenerate it with cave build and deploy it unchanged (the other tools still run)',
    });
    expect(await runtime.call("echo", {})).toMatchObject({ ok: true });
  });

  it("never runs an entry added after the build: only toolHashes names tools", async () => {
    const root = copy();
    writeEdited(root, (lock) => (lock.tools.intruder = lock.tools.echo));
    const runtime = await createRuntime({ root, mode: "host" });
    expect(runtime.toolNames).not.toContain("intruder");
    expect(await runtime.call("intruder", {})).toMatchObject({ ok: false, error: { code: "UNKNOWN_TOOL" } });
  });

  it("refuses a malformed tool entry (sealed with matching hashes) when that tool is first read, and nothing of it runs", async () => {
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
      message:
        "cave.lock is not a valid lockfileVersion 2 lock: tools.lookup.effect must be one of read, write, idempotent, external; regenerate it with cave build",
    });
    expect(lookup.receipt.outcome).toBe("LOCK_INVALID");
    const composite = await runtime.call("composite", {});
    expect(composite.ok ? undefined : composite.error.message).toContain(
      'tools.composite.nestedTools must be names of locked tools ("ghost" is not in the lock)',
    );
    const hang = await runtime.call("hang", {});
    expect(hang.ok ? undefined : hang.error.message).toContain(
      "tools.hang.source.bundle must be a POSIX path relative to the project root",
    );

    // The other tools run; the deploy-time checks read every entry and refuse.
    expect(await runtime.call("echo", { text: "still here" })).toMatchObject({ ok: true });
    await expect(runtime.verifyAll()).rejects.toMatchObject({ code: "LOCK_INVALID" });
    expect(() => runtime.toolDeclarations("openai")).toThrow(/tools\.composite\.nestedTools|tools\.lookup\.effect/);
  });

  it("reads a lock with CRLF line ends, tabs, and strings holding quotes, colons and escapes as the same lock", async () => {
    const root = copy();
    const lock = readLock(root);
    const description = 'Looks up "a": b, {c}: \\"d\\" \u00e9\n';
    writeSealed(root, {
      ...lock,
      tools: { ...lock.tools, lookup: { ...lock.tools.lookup, description } },
    } as unknown as Record<string, unknown>);
    const text = readFileSync(join(root, "cave.lock"), "utf8");
    writeFileSync(join(root, "cave.lock"), text.replaceAll("\n", "\r\n").replaceAll("  ", "\t"));
    const runtime = await createRuntime({ root, mode: "host" });
    const declared = runtime.toolDeclarations("openai").find((d) => d.function.name === "lookup");
    expect(declared?.function.description).toBe(description);
    expect((await runtime.call("lookup", { region: "EU" })).ok).toBe(true);
  });

  it("refuses a lock whose whitespace splits a number in the header at start-up, and in a tool's entry at that tool's first use", async () => {
    const root = copy();
    const text = readFileSync(join(root, "cave.lock"), "utf8");
    writeFileSync(join(root, "cave.lock"), text.replace('"lockfileVersion": 2', '"lockfileVersion": 2 0'));
    const error = await refusal({ root, mode: "host" });
    expect(error.code).toBe("LOCK_INVALID");
    expect(error.message).toBe(
      "cave.lock is not valid JSON (or was cut short); regenerate it with cave build and never edit it by hand",
    );

    const at = text.indexOf('\n    "lookup": {');
    const timeout = /"timeoutMs": (\d)(\d+)/.exec(text.slice(at))!;
    writeFileSync(
      join(root, "cave.lock"),
      text.slice(0, at) + text.slice(at).replace(timeout[0], `"timeoutMs": ${timeout[1]} ${timeout[2]}`),
    );
    const runtime = await createRuntime({ root, mode: "host" });
    expect(await runtime.call("lookup", { region: "EU" })).toMatchObject({
      ok: false,
      error: { code: "LOCK_MISMATCH", message: expect.stringContaining("the entry hashes to (not JSON)") },
    });
    expect(await runtime.call("echo", {})).toMatchObject({ ok: true });
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
    await expect(runtime.call("lookup", { region: "EU" }, { speculate: true } as never)).rejects.toThrow(
      /unknown option "speculate"/,
    );
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
    await expect(runtime.verifyAll()).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      message: expect.stringContaining(bundle),
    });
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
    await expect(runtime.verifyAll()).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      message: expect.stringContaining(validation.module),
    });
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

describe("the lock's two readings: its layout from cave build (header alone) and any other JSON (parsed whole)", () => {
  it("give the same header and the same entries", async () => {
    const root = copy();
    writeFileSync(join(root, "cave.lock"), JSON.stringify(readLock(built)));
    const split = await readLockFile(join(built, "cave.lock"), "cave.lock");
    const whole = await readLockFile(join(root, "cave.lock"), "cave.lock");
    const { tools, ...header } = readLock(built);
    for (const lock of [split, whole]) {
      const { toolNames, has: _has, tool: _tool, ...read } = lock;
      expect(JSON.parse(JSON.stringify(read))).toEqual(header);
      expect(toolNames).toEqual(Object.keys(tools).sort());
      for (const name of toolNames) expect(JSON.parse(JSON.stringify(lock.tool(name)))).toEqual(tools[name]);
      expect(lock.tool("nope")).toBeUndefined();
      expect(lock.has("nope")).toBe(false);
    }
  });

  it("find a tool's entry in the layout cave build writes without reading the others: a broken neighbour does not matter", async () => {
    const root = copy();
    const text = readFileSync(join(root, "cave.lock"), "utf8");
    // Break echo's entry in place (the file stays the shape cave build writes, the JSON of one entry does not parse).
    const at = text.indexOf('\n    "echo": {');
    writeFileSync(
      join(root, "cave.lock"),
      `${text.slice(0, at)}\n    "echo": {{${text.slice(at + '\n    "echo": {'.length)}`,
    );
    const lock = await readLockFile(join(root, "cave.lock"), "cave.lock");
    expect(lock.tool("lookup")?.effect).toBe("read");
    expect(() => lock.tool("echo")).toThrow(/the entry of tool "echo" does not match its hash in toolHashes/);
  });
});
