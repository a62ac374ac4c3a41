// valibot with @valibot/to-json-schema: a Standard Schema that also gives its draft-07 JSON Schema.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { schema, tool } from "cave";
import * as v from "valibot";

const input = toStandardJsonSchema(v.object({ sku: v.pipe(v.string(), v.regex(/^[A-Z]{3}-\d{3}$/)), quantity: v.pipe(v.number(), v.integer(), v.minValue(1)) }));
const output = schema.object({ line: schema.string() });

function execute({ sku, quantity }: { sku: string; quantity: number }) {
  return { line: `${quantity} x ${sku}` };
}

const schemaSemanticsSHA256 = "7e6d5c4b3a2918070615a4b3c2d1e0f97e6d5c4b3a2918070615a4b3c2d1e0f9";

export const valibotTool = tool({ name: "valibot", description: "Validates with valibot.", effect: "read", input, output, schemaSemanticsSHA256, execute });
export const valibotHost = tool({ name: "valibot_host", description: "Validates with valibot, in process.", effect: "read", sandbox: "none", input, output, schemaSemanticsSHA256, execute });
