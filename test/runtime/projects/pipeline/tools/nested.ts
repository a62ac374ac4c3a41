import { schema, tool } from "cave";
import { echo, hang, lookup } from "./read.js";
import { called, probe } from "./probe.js";

/** Makes the nested calls it is asked to make, in order, and returns their outcomes. */
export const composite = tool({
  name: "composite",
  description: "Call nested tools.",
  input: schema.object({ calls: schema.array(schema.object({ name: schema.string(), args: schema.any() })) }),
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  nestedTools: [lookup, echo, hang],
  async execute({ calls }, context) {
    called("composite");
    const outcomes = [];
    for (const call of calls) outcomes.push(await context.call(call.name, call.args));
    return outcomes.map((o) => (o.ok ? { ok: true, content: o.content, parentId: o.receipt.parentId } : { ok: false, code: o.error.code, message: o.error.message, parentId: o.receipt.parentId }));
  },
});

/** Returns at once and calls a nested tool afterwards, when its own call is over. */
export const lateNested = tool({
  name: "late_nested",
  description: "Call a nested tool too late.",
  effect: "read",
  sandbox: "none",
  nestedTools: [lookup],
  execute(_input, context) {
    called("late_nested");
    setTimeout(() => {
      void context.call("lookup", { region: "EU" }).then((outcome) => probe().late.push(outcome));
    }, 20);
    return { started: true };
  },
});
