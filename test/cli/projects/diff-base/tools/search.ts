import { tool } from "cave";
import { z } from "zod";

export const searchDocs = tool({
  name: "search_docs",
  description: "Search the help centre.",
  input: z.strictObject({ query: z.string().trim().min(1).max(200) }),
  output: z.strictObject({ hits: z.array(z.strictObject({ title: z.string(), url: z.string() })) }),
  schemaSemanticsSHA256: "1111111111111111111111111111111111111111111111111111111111111111",
  effect: "read",
  result: "page",
  execute({ query }) {
    return { hits: [{ title: query, url: "https://help.example/" }] };
  },
});
