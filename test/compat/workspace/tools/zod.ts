// zod 4: a Standard Schema input with a transform, validated where the tool runs (in its sandbox, or in process).
import { schema, tool } from "cave";
import { z } from "zod";

const input = z.object({ email: z.email(), tags: z.array(z.string()).transform((tags) => tags.map((tag) => tag.toLowerCase())) });
const output = schema.object({ domain: schema.string(), tags: schema.array(schema.string()) });

function execute({ email, tags }: z.output<typeof input>) {
  return { domain: email.split("@")[1] ?? "", tags };
}

// The lowercase SHA-256 of the validator's code and dependencies (the contract's rule for opaque validators).
const schemaSemanticsSHA256 = "3c1f0e2d4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

export const zodTool = tool({ name: "zod", description: "Validates with zod.", effect: "read", input, output, schemaSemanticsSHA256, execute });
export const zodHost = tool({ name: "zod_host", description: "Validates with zod, in process.", effect: "read", sandbox: "none", input, output, schemaSemanticsSHA256, execute });
