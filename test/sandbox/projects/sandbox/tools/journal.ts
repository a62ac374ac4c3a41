import { schema, tool } from "cave";

let served = 0;

/** A write that takes a while (row 25: the host is killed between its start and its end). */
export const slowWrite = tool({
  name: "slow_write",
  description: "Write something slowly.",
  input: schema.object({ id: schema.string(), ms: schema.integer({ minimum: 0 }) }),
  effect: "write",
  timeout: 20_000,
  async execute({ id, ms }) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { wrote: id, served: ++served };
  },
});

/** A read whose answer shows how many calls this process served. */
export const counter = tool({
  name: "counter",
  description: "Count calls.",
  input: schema.object({ label: schema.string() }),
  effect: "read",
  execute({ label }) {
    return { label, served: ++served };
  },
});
