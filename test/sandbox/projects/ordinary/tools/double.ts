import { schema, tool } from "cave";

export const double = tool({
  name: "double",
  description: "Double a number.",
  input: schema.object({ n: schema.number() }),
  output: schema.object({ doubled: schema.number(), pid: schema.integer() }),
  effect: "read",
  allowRepeat: true,
  execute({ n }) {
    return { doubled: n * 2, pid: process.pid };
  },
});

/** Trusted code: runs in the host process. */
export const hostDouble = tool({
  name: "host_double",
  description: "Double a number in the host.",
  input: schema.object({ n: schema.number() }),
  effect: "read",
  sandbox: "none",
  execute({ n }) {
    return { doubled: n * 2, pid: process.pid };
  },
});
