import { tool } from "cave";
import { z } from "zod";

/** An opaque (zod) validator without schemaSemanticsSHA256: cave build refuses it, an ordinary run accepts it. */
export const shout = tool({
  name: "shout",
  description: "Upper-case a word.",
  input: z.object({ word: z.string().min(1).transform((w) => w.trim()) }),
  output: z.object({ loud: z.string() }),
  effect: "read",
  execute({ word }) {
    return { loud: word.toUpperCase() };
  },
});

/** A write tool, for fixture mode. */
export const store = tool({
  name: "store",
  description: "Store a word.",
  input: z.object({ word: z.string() }),
  effect: "write",
  execute({ word }) {
    return { stored: word };
  },
});
