import { schema, tool } from "cave";

/** Per-process state: how many calls this child has served, to tell warm children from fresh ones. */
let served = 0;

/** Adds two integers; reports which process did it. */
export const add = tool({
  name: "add",
  description: "Add two integers.",
  input: schema.object({ a: schema.integer(), b: schema.integer() }),
  output: schema.object({ sum: schema.integer(), pid: schema.integer(), served: schema.integer() }),
  effect: "read",
  allowRepeat: true,
  execute({ a, b }) {
    served += 1;
    return { sum: a + b, pid: process.pid, served };
  },
});

/** Schema-less: returns what it got. */
export const echo = tool({
  name: "echo",
  description: "Return the arguments.",
  effect: "read",
  execute(input) {
    return input;
  },
});

/** What the child process sees of its environment and identity. */
export const whoami = tool({
  name: "whoami",
  description: "Describe the sandbox process.",
  effect: "read",
  allowRepeat: true,
  sandboxProfile: { env: ["LOG_LEVEL", "CAVE_TEST_GREETING"] },
  execute() {
    return { pid: process.pid, ppid: process.ppid, env: { ...process.env }, served: ++served };
  },
});
