import { schema, tool } from "cave";
import { double } from "./double.js";

/** Its nested tool lives in another module, which an ordinary run must stage too. */
export const pair = tool({
  name: "pair",
  description: "Double a number twice through a nested tool.",
  input: schema.object({ n: schema.number() }),
  effect: "read",
  nestedTools: [double],
  async execute({ n }, context) {
    const once = await context.call("double", { n });
    if (!once.ok) throw new Error(once.error.message);
    const twice = await context.call("double", { n: (once.content as { doubled: number }).doubled });
    if (!twice.ok) throw new Error(twice.error.message);
    return { result: (twice.content as { doubled: number }).doubled, pid: process.pid };
  },
});
