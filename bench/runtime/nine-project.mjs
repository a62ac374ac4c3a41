// The runtime issue's measured project: N tools, each with a closed 9-property input (two bounded
// strings, one with a pattern, an integer range, a number, a boolean, an optional string, a 3-value
// enum, a nested closed object and an array of up to 50 closed {id, weight} objects). Every tool's
// schema differs a little (the first string's maxLength), so no two share a validator, as in a real
// project. Beside the cave project, the same N tools written for the Vercel AI SDK the way its users
// write them (zod schemas, tool()), so both sides define exactly the same contracts.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The arguments every benchmark call sends (10 items). */
export const ARGS = {
  name: "Ada Lovelace",
  code: "ABC-1234",
  quantity: 12,
  price: 9.5,
  urgent: false,
  priority: "normal",
  address: { street: "12 Analytical Row", city: "London" },
  items: Array.from({ length: 10 }, (_, i) => ({ id: `item-${i}`, weight: i + 0.25 })),
};

export const toolName = (i) => `t_${String(i).padStart(4, "0")}`;

/**
 * One tool call as the AI SDK makes it once the model's text is parsed: safeValidateTypes, then executeTool
 * (lib: @ai-sdk/provider-utils). Telemetry and message bookkeeping are left out: a lower bound of its cost.
 * Returns the tool's output; throws when the arguments are refused.
 */
export async function callAiSdkTool(lib, tool, args) {
  const checked = await lib.safeValidateTypes({ value: args, schema: tool.inputSchema });
  if (!checked.success) throw checked.error;
  let output;
  for await (const part of lib.executeTool({ execute: tool.execute, input: checked.value, options: AI_SDK_OPTIONS }))
    output = part.output;
  return output;
}
const AI_SDK_OPTIONS = { toolCallId: "c1", messages: [] };

function caveTool(i, allowRepeat) {
  return [
    `export const ${toolName(i)} = tool({`,
    `  name: "${toolName(i)}",`,
    `  description: "Price an order (generated tool ${i}).",`,
    `  input: schema.object({`,
    `    name: schema.string({ minLength: 1, maxLength: ${64 + i} }),`,
    `    code: schema.string({ maxLength: 32, pattern: "^[A-Z]{3}-[0-9]{4}$" }),`,
    `    quantity: schema.integer({ minimum: 1, maximum: 1000 }),`,
    `    price: schema.number(),`,
    `    urgent: schema.boolean(),`,
    `    note: schema.optional(schema.string({ maxLength: 500 })),`,
    `    priority: schema.union([schema.literal("low"), schema.literal("normal"), schema.literal("high")]),`,
    `    address: schema.object({ street: schema.string({ maxLength: 100 }), city: schema.string({ maxLength: 60 }) }),`,
    `    items: schema.array(schema.object({ id: schema.string({ maxLength: 40 }), weight: schema.number({ minimum: 0 }) }), { maxItems: 50 }),`,
    `  }),`,
    `  output: schema.object({ ok: schema.boolean(), total: schema.number() }),`,
    `  effect: "read",`,
    `  sandbox: "none",`,
    ...(allowRepeat ? [`  allowRepeat: true,`] : []),
    `  execute({ quantity, price }) {`,
    `    return { ok: true, total: quantity * price };`,
    `  },`,
    `});`,
  ].join("\n");
}

function aiSdkTool(i) {
  return [
    `  ${toolName(i)}: tool({`,
    `    description: "Price an order (generated tool ${i}).",`,
    `    inputSchema: z.strictObject({`,
    `      name: z.string().min(1).max(${64 + i}),`,
    `      code: z.string().max(32).regex(/^[A-Z]{3}-[0-9]{4}$/),`,
    `      quantity: z.number().int().min(1).max(1000),`,
    `      price: z.number(),`,
    `      urgent: z.boolean(),`,
    `      note: z.string().max(500).optional(),`,
    `      priority: z.enum(["low", "normal", "high"]),`,
    `      address: z.strictObject({ street: z.string().max(100), city: z.string().max(60) }),`,
    `      items: z.array(z.strictObject({ id: z.string().max(40), weight: z.number().min(0) })).max(50),`,
    `    }),`,
    `    execute: async ({ quantity, price }) => ({ ok: true, total: quantity * price }),`,
    `  }),`,
  ].join("\n");
}

/**
 * Writes and builds the project in `root` (an existing empty folder): tools/m_*.ts (`perModule` tools per
 * module, 100 by default), ai-sdk-tools.mjs (the same tools for the AI SDK), node_modules linked to this checkout's.
 * The tools set allowRepeat (no repeat guard, so one run can call a tool with the same arguments again) unless
 * `allowRepeat` is false: the contract's default, measured by repeat-guard.mjs.
 */
export function buildNineProject(root, repoRoot, count, perModule = 100, allowRepeat = true) {
  mkdirSync(join(root, "tools"));
  for (let first = 0; first < count; first += perModule) {
    const tools = [];
    for (let i = first; i < Math.min(count, first + perModule); i++) tools.push(caveTool(i, allowRepeat));
    writeFileSync(
      join(root, "tools", `m_${String(first / perModule).padStart(3, "0")}.ts`),
      [`import { schema, tool } from "cave";`, ...tools, ""].join("\n"),
    );
  }
  const aiTools = [];
  for (let i = 0; i < count; i++) aiTools.push(aiSdkTool(i));
  writeFileSync(
    join(root, "ai-sdk-tools.mjs"),
    [`import { tool } from "ai";`, `import { z } from "zod";`, `export const tools = {`, ...aiTools, `};`, ""].join(
      "\n",
    ),
  );
  writeFileSync(join(root, "cave.config.json"), `${JSON.stringify({ include: ["tools/**/*.ts"] }, null, 2)}\n`);
  symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"), "dir");
  execFileSync(
    process.execPath,
    [join(repoRoot, "dist", "compiler", "cli", "bin.js"), "build", "--write", "--root", root],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}
