// Generates a project of N tool modules for the build benchmark: realistic, varied TypeBox schemas,
// a few shared schema modules, one agent per 50 tools. Deterministic for a given N.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const EFFECTS = ["read", "write", "idempotent", "external"];
const POLICIES = ["auto", "inline", "page", "exact_ccr"];

export function generateProject(root, count, repoRoot) {
  mkdirSync(join(root, "tools"), { recursive: true });
  writeFileSync(
    join(root, "tools", "shared.ts"),
    [
      `import { schema } from "cave";`,
      `export const CUSTOMER_ID = schema.string({ pattern: "^cus_[a-z0-9]{8}$", description: "Customer id" });`,
      `export const MONEY = schema.object({ amount: schema.integer({ minimum: 0 }), currency: schema.string({ minLength: 3, maxLength: 3 }) });`,
      `export const BASE_TIMEOUT = 12_000;`,
      "",
    ].join("\n"),
  );
  for (let i = 0; i < count; i++)
    writeFileSync(join(root, "tools", `tool_${String(i).padStart(4, "0")}.ts`), toolModule(i));
  const agents = [];
  for (let a = 0; a * 50 < count; a++) {
    const members = [];
    for (let i = a * 50; i < Math.min(count, (a + 1) * 50); i++) members.push(i);
    const imports = members
      .map((i) => `import { tool${i} } from "./tools/tool_${String(i).padStart(4, "0")}.js";`)
      .join("\n");
    agents.push(
      `${imports}\nexport const agent${a} = agent({ name: "agent_${a}", tools: [${members.map((i) => `tool${i}`).join(", ")}] });\n`,
    );
  }
  writeFileSync(join(root, "agents.ts"), `import { agent } from "cave";\n${agents.join("\n")}`);
  writeFileSync(
    join(root, "cave.config.json"),
    `${JSON.stringify({ include: ["tools/**/*.ts", "agents.ts"] }, null, 2)}\n`,
  );
  writeFileSync(
    join(root, "tsconfig.json"),
    `${JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
          paths: { cave: [join(repoRoot, "dist/src/index.d.ts")] },
        },
        include: ["tools/**/*.ts", "agents.ts"],
      },
      null,
      2,
    )}\n`,
  );
  // Its own (empty) node_modules: the build caches go to node_modules/.cache/cave of the project, so a cold run can
  // clear them without touching anyone else's. Nothing else is needed there: "cave" is staged from this repository,
  // and tsc finds it (and TypeBox's types) through the paths entry above.
  mkdirSync(join(root, "node_modules"), { recursive: true });
}

function toolModule(i) {
  const effect = EFFECTS[i % EFFECTS.length];
  const policy = POLICIES[i % POLICIES.length];
  const variant = i % 3;
  const input =
    variant === 0
      ? `schema.object({ customerId: CUSTOMER_ID, limit: schema.optional(schema.integer({ minimum: 1, maximum: 100 })), query${i}: schema.string({ maxLength: ${100 + i} }) })`
      : variant === 1
        ? `schema.object({ orderId: schema.string({ format: "uuid" }), total: MONEY, note: schema.optional(schema.string({ maxLength: 500 })), tag${i}: schema.union([schema.literal("a"), schema.literal("b${i}")]) })`
        : `schema.object({ email: schema.string({ format: "email" }), since: schema.string({ format: "date-time" }), items: schema.array(schema.object({ sku: schema.string(), qty: schema.integer({ minimum: 1 }) }), { maxItems: ${10 + (i % 40)} }) })`;
  return [
    `import { tool, schema } from "cave";`,
    `import { CUSTOMER_ID, MONEY, BASE_TIMEOUT } from "./shared.js";`,
    ``,
    `export const tool${i} = tool({`,
    `  name: "tool_${i}",`,
    `  description: "Generated tool number ${i} for the build benchmark.",`,
    `  input: ${input},`,
    `  output: schema.object({ ok: schema.boolean(), id: schema.string({ maxLength: 64 }), n${i}: schema.number() }),`,
    `  effect: "${effect}",`,
    `  timeout: BASE_TIMEOUT,`,
    `  result: "${policy}",`,
    `  execute() {`,
    `    return { ok: true, id: "x${i}", n${i}: ${i} };`,
    `  },`,
    `});`,
    ``,
  ].join("\n");
}
