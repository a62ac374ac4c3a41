import { tool } from "cave";
import { z } from "zod";
import { called } from "./probe.js";

/** A Standard Schema (zod) tool with an async input transform and a checked output. */
export const zodTool = tool({
  name: "zod_tool",
  description: "Double a number given as text.",
  input: z.object({ n: z.string().regex(/^\d+$/).transform(async (text) => Number(text)) }),
  output: z.object({ doubled: z.number() }),
  schemaSemanticsSHA256: "0000000000000000000000000000000000000000000000000000000000000001",
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  execute({ n }) {
    called("zod_tool");
    if (typeof n !== "number") throw new Error(`execute got ${typeof n}, not the transformed number`);
    return (n === 13 ? { doubled: "SENTINEL-zod-4f1d" } : { doubled: n * 2 }) as { doubled: number };
  },
});
