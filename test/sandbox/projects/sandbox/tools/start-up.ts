import { tool } from "cave";

// Top-level code that misbehaves only when the host asks for it through the tool's allow-listed
// environment (the build-time evaluation runs with an empty environment, so the build is unaffected).
if (process.env.CAVE_TEST_START === "hang") {
  for (;;) {
    // never finishes loading
  }
}
if (process.env.CAVE_TEST_START === "throw") throw new Error("the module refuses to load");
if (process.env.CAVE_TEST_START === "network") await fetch("http://127.0.0.1:9/");

export const startUp = tool({
  name: "start_up",
  description: "A tool whose module may misbehave while loading.",
  effect: "read",
  allowRepeat: true,
  sandboxProfile: { env: ["CAVE_TEST_START"] },
  execute() {
    return { loaded: true };
  },
});
