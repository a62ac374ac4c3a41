import { tool } from "cave";

// A broken module elsewhere in the project: cave build refuses it (a computed name), and an ordinary
// run of another module's tool is not affected by it.
const name = ["not", "static"].join("_");
export const broken = tool({ name, description: "Broken on purpose.", effect: "read", execute: () => null });
