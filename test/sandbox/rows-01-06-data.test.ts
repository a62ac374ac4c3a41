// Adversarial table rows 1-6 (../shared/sandbox.md): what crosses the sandbox boundary as data.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../runtime/index.js";
import { createSandboxDispatcher } from "../../runtime/sandbox/index.js";
import { NATIVE_CONTENT, NATIVE_REFUSED, TYPED_REFUSED } from "../support/not-json-data.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, sandboxed } from "./support/runtime.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

function failed(outcome: { ok: boolean; error?: { code: string; message: string } }): {
  code: string;
  message: string;
} {
  expect(outcome.ok).toBe(false);
  return outcome.error!;
}

describe("row 1: schema-invalid input", () => {
  it.each([
    ["a wrong type", { a: "1", b: 2 }, "/a"],
    ["a missing required property", { a: 1 }, "at /b: is required"],
    ["an extra property", { a: 1, b: 2, c: 3 }, "at /c: is not an allowed property"],
  ])("refuses %s with INPUT_INVALID naming it, and starts no child", async (_what, args, named) => {
    const { runtime, sandbox } = await sandboxed(root);
    const error = failed(await runtime.call("add", args));
    expect(error.code).toBe("INPUT_INVALID");
    expect(error.message).toContain(named);
    expect(error.message).toContain("fix the arguments");
    expect(sandbox.stats().spawned).toBe(0);
  });
});

describe("row 2: oversized input", () => {
  it("refuses a 10 MB string argument with INPUT_TOO_LARGE before dispatch", async () => {
    const { runtime, sandbox } = await sandboxed(root);
    const error = failed(await runtime.call("echo", { text: "x".repeat(10 * 1024 * 1024) }));
    expect(error.code).toBe("INPUT_TOO_LARGE");
    expect(error.message).toContain("limits.maxInputBytes");
    expect(sandbox.stats().spawned).toBe(0);
  });
});

describe("row 3: prototype-pollution input", () => {
  it.each([
    ['{"__proto__":{"polluted":1}}', "/__proto__"],
    ['{"a":{"constructor":{"prototype":{"polluted":1}}}}', "/a/constructor/prototype"],
  ])("refuses %s, starts no child, and leaves the host's Object.prototype alone", async (text, path) => {
    const { runtime, sandbox } = await sandboxed(root);
    const error = failed(await runtime.call("echo", JSON.parse(text)));
    expect(error.code).toBe("INPUT_INVALID");
    expect(error.message).toContain(path);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(sandbox.stats().spawned).toBe(0);
  });
});

describe("row 4: output that violates its schema", () => {
  it("reports OUTPUT_INVALID with size and a keyed fingerprint; the sentinel is in no outcome, receipt or journal line", async () => {
    const sentinel = "SENTINEL-row4-7c1e93";
    const journalPath = join(mkdtempSync(join(tmpdir(), "cave-journal-")), "journal.jsonl");
    const sandbox = createSandboxDispatcher();
    try {
      const runtime = await createRuntime({
        root,
        mode: "host",
        journal: `file:${journalPath}`,
        dispatchers: { required: sandbox },
      });
      const outcome = await runtime.startRun({ id: "row-4" }).call("bad_output", { sentinel });
      const error = failed(outcome);
      expect(error.code).toBe("OUTPUT_INVALID");
      expect(error.message).toMatch(
        /withheld \(\d+ bytes, fingerprint hmac-sha256-[0-9a-f]{64}, keyed with a secret of this runtime\)/,
      );
      expect(JSON.stringify(outcome)).not.toContain(sentinel);
      await runtime.journal!.close();
      const lines = readFileSync(journalPath, "utf8");
      expect(lines).toContain("OUTPUT_INVALID");
      expect(lines).not.toContain(sentinel);
    } finally {
      sandbox.close();
    }
  });
});

describe("row 5: output that is not JSON data", () => {
  // A tool without an output schema keeps native JSON serialisation (the contract; ../shared/sandbox.md row 5).
  it.each(NATIVE_CONTENT)(
    "without an output schema, %s gives what JSON.stringify gives, serialised inside the child",
    async (kind, content) => {
      const { runtime } = await sandboxed(root);
      expect(await runtime.call("not_json", { kind })).toMatchObject({ ok: true, content });
    },
  );

  it.each(NATIVE_REFUSED)(
    "without an output schema, %s still fails typed; the host lives and the next call works",
    async (kind, detail) => {
      const { runtime } = await sandboxed(root);
      const error = failed(await runtime.call("not_json", { kind }));
      expect(error.code).toBe("OUTPUT_NOT_SERIALISABLE");
      expect(error.message).toContain(`JSON.stringify cannot write: ${detail}`);
      expect(await runtime.call("not_json", { kind: "fine" })).toMatchObject({ ok: true, content: { fine: true } });
    },
  );

  it.each(TYPED_REFUSED)(
    "with an output schema, %s: OUTPUT_NOT_SERIALISABLE naming its kind but no key, path or class of it; never altered",
    async (kind, what) => {
      const { runtime } = await sandboxed(root);
      const error = failed(await runtime.call("not_json_typed", { kind }));
      expect(error.code).toBe("OUTPUT_NOT_SERIALISABLE");
      expect(error.message).toContain(`not plain JSON data (${what})`);
      expect(error.message).toContain("nothing was dropped or converted");
      expect(error.message).not.toMatch(/ at \//);
      expect(error.message).not.toContain("Point");
      expect(await runtime.call("not_json_typed", { kind: "fine" })).toMatchObject({
        ok: true,
        content: { fine: true },
      });
    },
  );

  it("with an output schema, no key or class name of the value reaches the outcome or a receipt (issue 13 item 7)", async () => {
    const { runtime, receipts } = await sandboxed(root);
    const outcomes = [
      await runtime.call("not_json_typed", { kind: "secretKey" }),
      await runtime.call("not_json_typed", { kind: "secretClass" }),
    ];
    for (const outcome of outcomes) expect(failed(outcome).code).toBe("OUTPUT_NOT_SERIALISABLE");
    expect(JSON.stringify({ outcomes, receipts: receipts.receipts })).not.toContain("4711");
  });

  it("accepts a plain object without a prototype, as the in-process pipeline does", async () => {
    const { runtime } = await sandboxed(root);
    expect(await runtime.call("not_json", { kind: "nullPrototype" })).toMatchObject({
      ok: true,
      content: { fine: "yes" },
    });
    expect(await runtime.call("not_json_typed", { kind: "nullPrototype" })).toMatchObject({
      ok: true,
      content: { fine: "yes" },
    });
  });
});

describe("issue 13: output nested 100,000 levels deep", () => {
  it("is OUTPUT_TOO_DEEP, decided inside the child; the child and the host live on", async () => {
    const { runtime, receipts } = await sandboxed(root);
    const outcome = await runtime.call("not_json", { kind: "deep" });
    expect(failed(outcome).code).toBe("OUTPUT_TOO_DEEP");
    expect(receipts.receipts.at(-1)).toEqual(outcome.receipt);
    expect(await runtime.call("not_json", { kind: "fine" })).toMatchObject({ ok: true, content: { fine: true } });
  });
});

describe("row 6: a 50 MB output", () => {
  it("is OUTPUT_TOO_LARGE, decided at the byte cap inside the child; the host's memory barely moves and nothing is journaled", async () => {
    const journalPath = join(mkdtempSync(join(tmpdir(), "cave-journal-")), "journal.jsonl");
    const sandbox = createSandboxDispatcher();
    try {
      const runtime = await createRuntime({
        root,
        mode: "host",
        journal: `file:${journalPath}`,
        dispatchers: { required: sandbox },
      });
      const run = runtime.startRun({ id: "row-6" });
      await run.call("big_output", { bytes: 10 }); // start the child first: its start-up is not the output
      const before = process.memoryUsage().rss;
      const error = failed(await run.call("big_output", { bytes: 50_000_000 }));
      const grown = process.memoryUsage().rss - before;
      expect(error.code).toBe("OUTPUT_TOO_LARGE");
      expect(error.message).toContain("over the 4194304-byte limit");
      expect(grown).toBeLessThan(4 * 1_048_576 + 32 * 1_048_576);
      await runtime.journal!.close();
      const text = readFileSync(journalPath, "utf8");
      expect(text).toContain("OUTPUT_TOO_LARGE");
      expect(text.length).toBeLessThan(20_000);
      expect(text).not.toContain("x".repeat(100));
    } finally {
      sandbox.close();
    }
  });
});
