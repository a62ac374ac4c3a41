import { schema, tool } from "cave";
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
