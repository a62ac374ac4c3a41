import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { schema, tool } from "cave";

// Tools for the durable-run tests. In-process tools (sandbox: "none") make their effect observable
// by appending a line to a file the test names, then hold while the `gate` file exists (so a test
// can kill the host after the effect and before the completion is recorded, and a resumed re-run
// with the same arguments goes straight through once the test has removed the gate).

const hold = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function whileGate(gate: string | undefined): Promise<void> {
  while (gate !== undefined && existsSync(gate)) await hold(20);
}

/** Read: counts its executions in `file`. */
export const lookup = tool({
  name: "lookup",
  description: "Look a key up.",
  input: schema.object({ key: schema.string(), file: schema.string(), gate: schema.optional(schema.string()) }),
  effect: "read",
  sandbox: "none",
  timeout: 60_000,
  async execute({ key, file, gate }) {
    appendFileSync(file, `lookup ${key}\n`);
    await whileGate(gate);
    return { key, value: `value of ${key}` };
  },
});

/** Write: appends a line (its effect), then holds. */
export const appendLine = tool({
  name: "append_line",
  description: "Append a line to a file.",
  input: schema.object({ line: schema.string(), file: schema.string(), gate: schema.optional(schema.string()) }),
  effect: "write",
  sandbox: "none",
  timeout: 60_000,
  // Inline: the storage-failure tests fill the journal's disk with completions, not with stored results.
  result: "inline",
  async execute({ line, file, gate }) {
    appendFileSync(file, `${line}\n`);
    await whileGate(gate);
    const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "").length;
    return { wrote: line, lines };
  },
});

/** Idempotent: records the idempotency key it was given, once per key (as a real idempotent API would). */
export const reserve = tool({
  name: "reserve",
  description: "Reserve a seat.",
  input: schema.object({ seat: schema.string(), file: schema.string(), gate: schema.optional(schema.string()) }),
  effect: "idempotent",
  sandbox: "none",
  timeout: 60_000,
  async execute({ seat, file, gate }, context) {
    const key = context.idempotencyKey ?? "(none)";
    const seen = existsSync(file) ? readFileSync(file, "utf8") : "";
    appendFileSync(file, `attempt ${seat} ${key}\n`);
    if (!seen.includes(`applied ${seat} ${key}`)) appendFileSync(file, `applied ${seat} ${key}\n`);
    await whileGate(gate);
    return { seat, key };
  },
});

/** Read, with nested calls: the parent key of each nested call is this call's key. */
export const gather = tool({
  name: "gather",
  description: "Look up several keys.",
  input: schema.object({ keys: schema.array(schema.string()), file: schema.string() }),
  effect: "read",
  sandbox: "none",
  timeout: 60_000,
  nestedTools: [lookup],
  async execute({ keys, file }, context) {
    const out: unknown[] = [];
    for (const key of keys) {
      const outcome = await context.call("lookup", { key, file });
      out.push(outcome.ok ? outcome.content : outcome.error.code);
    }
    return out;
  },
});

/** Write, sandboxed: sleeps in the sandbox child (the host is killed during it). */
export const slowSandboxed = tool({
  name: "slow_sandboxed",
  description: "Sleep in the sandbox, then report.",
  input: schema.object({ id: schema.string(), ms: schema.integer({ minimum: 0 }) }),
  effect: "write",
  timeout: 60_000,
  async execute({ id, ms }) {
    await hold(ms);
    return { done: id };
  },
});

/** Idempotent, sandboxed: returns the idempotency key the sandbox child received. */
export const sandboxedKey = tool({
  name: "sandboxed_key",
  description: "Return the idempotency key.",
  input: schema.object({ id: schema.string() }),
  effect: "idempotent",
  execute({ id }, context) {
    return { id, key: context.idempotencyKey ?? null };
  },
});

/** Read: a result over its plan's inline cap, so it is paged and stored (cave_page / cave_recover). */
export const bigList = tool({
  name: "big_list",
  description: "A long list.",
  input: schema.object({ n: schema.integer({ minimum: 1, maximum: 100000 }) }),
  output: schema.array(schema.object({ id: schema.integer(), name: schema.string() })),
  effect: "read",
  sandbox: "none",
  result: "page",
  execute({ n }) {
    return Array.from({ length: n }, (_, i) => ({ id: i, name: `item number ${i} with some words to count` }));
  },
});

/** Read: returns `sentinel` where a number is due (its output is invalid). */
export const badOutput = tool({
  name: "bad_output",
  description: "Return an invalid output.",
  input: schema.object({ sentinel: schema.string() }),
  output: schema.object({ n: schema.number() }),
  effect: "read",
  sandbox: "none",
  execute({ sentinel }) {
    return { n: sentinel } as unknown as { n: number };
  },
});

/** Read, repeatable: for budget tests (the repeat guard never stops it). */
export const tick = tool({
  name: "tick",
  description: "Tick.",
  input: schema.object({ i: schema.integer() }),
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  execute({ i }) {
    return { i };
  },
});
