// arktype 2: a Standard Schema with its own JSON Schema, compiled at import (it generates code with new Function).
import { type } from "arktype";
import { schema, tool } from "cave";

const input = type({ city: "string > 0", "days?": "1 <= number.integer <= 14" });
const output = schema.object({ city: schema.string(), days: schema.integer() });

function execute({ city, days }: typeof input.infer) {
  return { city, days: days ?? 3 };
}

const schemaSemanticsSHA256 = "51a2b3c4d5e6f708192a3b4c5d6e7f8051a2b3c4d5e6f708192a3b4c5d6e7f80";

export const arktypeTool = tool({ name: "arktype", description: "Validates with arktype.", effect: "read", input, output, schemaSemanticsSHA256, execute });
export const arktypeHost = tool({ name: "arktype_host", description: "Validates with arktype, in process.", effect: "read", sandbox: "none", input, output, schemaSemanticsSHA256, execute });
