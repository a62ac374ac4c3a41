import { artifact, schema, tool } from "cave";
import { add } from "./basic.js";
import { fault } from "./faults.js";

/** Trusted, in-process (sandbox: "none"): a nested tool that runs in the host. */
export const hostLookup = tool({
  name: "host_lookup",
  description: "Look something up in the host process.",
  input: schema.object({ key: schema.string() }),
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  execute({ key }) {
    return { key, hostPid: process.pid };
  },
});

/** Makes the nested calls it is asked to make, in order, and returns their outcomes. */
export const composite = tool({
  name: "composite",
  description: "Call nested tools.",
  input: schema.object({ calls: schema.array(schema.object({ name: schema.string(), args: schema.any() })), parallel: schema.optional(schema.boolean()) }),
  effect: "read",
  allowRepeat: true,
  timeout: 5000,
  nestedTools: [add, hostLookup, fault],
  async execute({ calls, parallel }, context) {
    const outcomes = parallel === true ? await Promise.all(calls.map((c) => context.call(c.name, c.args))) : [];
    if (parallel !== true) for (const call of calls) outcomes.push(await context.call(call.name, call.args));
    return outcomes.map((o) => (o.ok ? { ok: true, content: o.content, parentId: o.receipt.parentId } : { ok: false, code: o.error.code, parentId: o.receipt.parentId }));
  },
});

/** Passes something that is not JSON data to a nested call. */
export const badNested = tool({
  name: "bad_nested",
  description: "Call a nested tool with a function argument.",
  effect: "read",
  nestedTools: [add],
  async execute(_input, context) {
    try {
      await context.call("add", { a: 1, b: () => 2 });
      return { refused: false, message: "" };
    } catch (thrown) {
      return { refused: true, message: (thrown as Error).message };
    }
  },
});

/** Returns at once and calls a nested tool afterwards, when its own call is over. */
export const lateNested = tool({
  name: "late_nested",
  description: "Call a nested tool too late.",
  effect: "read",
  allowRepeat: true,
  nestedTools: [add],
  execute(_input, context) {
    setTimeout(() => {
      context.call("add", { a: 1, b: 1 }).catch(() => undefined);
    }, 20);
    return { pid: process.pid };
  },
});

/**
 * In-process, paged in pages of 600,000 tokens: a page is text holding JSON, which travels to a
 * sandboxed parent escaped once more (issue 13 item 6).
 */
export const hostText = tool({
  name: "host_text",
  description: "Return n double quotes.",
  input: schema.object({ n: schema.integer({ minimum: 0 }) }),
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  result: artifact({ maxInlineTokens: 600_000 }),
  execute({ n }) {
    return '"'.repeat(n);
  },
});

/** Calls host_text and reports the size of what came back, not the content itself. */
export const nestedSize = tool({
  name: "nested_size",
  description: "Measure a nested result.",
  input: schema.object({ n: schema.integer({ minimum: 0 }) }),
  effect: "write",
  allowRepeat: true,
  timeout: 20_000,
  nestedTools: [hostText],
  async execute({ n }, context) {
    const outcome = await context.call("host_text", { n });
    return outcome.ok ? { ok: true, length: String(outcome.content).length } : { ok: false, code: outcome.error.code };
  },
});

/** Makes n nested calls of add at once (distinct arguments) and returns each one's outcome code. */
export const fanOut = tool({
  name: "fan_out",
  description: "Call add n times in parallel.",
  input: schema.object({ n: schema.integer({ minimum: 0, maximum: 100 }) }),
  effect: "read",
  allowRepeat: true,
  timeout: 120_000,
  nestedTools: [add],
  async execute({ n }, context) {
    const outcomes = await Promise.all(Array.from({ length: n }, (_, i) => context.call("add", { a: i, b: 1 })));
    return outcomes.map((o) => (o.ok ? "ok" : o.error.code));
  },
});
