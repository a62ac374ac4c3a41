import { describe, expectTypeOf, test } from "vitest";
import { z } from "zod";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import {
  agent,
  artifact,
  schema,
  tool,
  type AgentDefinition,
  type Static,
  type ToolContext,
  type ToolDefinition,
} from "../../src/index.js";

const OrderInput = schema.object({
  orderId: schema.string({ pattern: "^ORD-[0-9]{5}$" }),
  includeItems: schema.optional(schema.boolean()),
  status: schema.union([schema.literal("open"), schema.literal("shipped")]),
  tags: schema.array(schema.string()),
  note: schema.union([schema.string(), schema.null()]),
});
const OrderOutput = schema.object({ orderId: schema.string(), totalCents: schema.integer() });

describe("execute receives the static type of input", () => {
  test("schema.*: TypeBox Static<input>", () => {
    tool({
      name: "get_order",
      description: "Look up one order.",
      effect: "read",
      input: OrderInput,
      execute(input, context) {
        expectTypeOf(input).toEqualTypeOf<Static<typeof OrderInput>>();
        expectTypeOf(input).toEqualTypeOf<{
          orderId: string;
          includeItems?: boolean;
          status: "open" | "shipped";
          tags: string[];
          note: string | null;
        }>();
        expectTypeOf(context).toEqualTypeOf<ToolContext>();
        // @ts-expect-error: not a property of the input schema
        void input.customerId;
        return null;
      },
    });
  });

  test("zod: StandardSchemaV1.InferOutput (after transforms), not InferInput", () => {
    const RefundInput = z.object({
      orderId: z.string(),
      amount: z.string().transform((text) => Math.round(Number(text) * 100)),
    });
    expectTypeOf<StandardSchemaV1.InferInput<typeof RefundInput>>().toEqualTypeOf<{
      orderId: string;
      amount: string;
    }>();
    tool({
      name: "issue_refund",
      description: "Refund part of an order.",
      effect: "idempotent",
      input: RefundInput,
      execute(input) {
        expectTypeOf(input).toEqualTypeOf<StandardSchemaV1.InferOutput<typeof RefundInput>>();
        expectTypeOf(input).toEqualTypeOf<{ orderId: string; amount: number }>();
        expectTypeOf(input.amount).toBeNumber();
        return { refunded: input.amount };
      },
    });
  });

  test("schema-less: unknown", () => {
    tool({
      name: "get_support_hours",
      description: "Support opening hours.",
      effect: "read",
      execute(input) {
        expectTypeOf(input).toBeUnknown();
        return { open: "09:00" };
      },
    });
  });
});

describe("execute must return the output type", () => {
  test("schema.* output: Static<output>", () => {
    const definition = tool({
      name: "get_order",
      description: "Look up one order.",
      effect: "read",
      input: OrderInput,
      output: OrderOutput,
      async execute({ orderId }) {
        return { orderId, totalCents: 1299 };
      },
    });
    expectTypeOf(definition).toEqualTypeOf<ToolDefinition<typeof OrderInput, typeof OrderOutput>>();
    expectTypeOf(definition.input).toEqualTypeOf<typeof OrderInput>();
    expectTypeOf(definition.execute).returns.toEqualTypeOf<
      { orderId: string; totalCents: number } | Promise<{ orderId: string; totalCents: number }>
    >();
  });

  test("returning the wrong type is a compile error (schema.*)", () => {
    tool({
      name: "get_order",
      description: "Look up one order.",
      effect: "read",
      input: OrderInput,
      output: OrderOutput,
      // @ts-expect-error: totalCents must be a number
      execute({ orderId }) {
        return { orderId, totalCents: "12.99" };
      },
    });
  });

  test("missing an output field is a compile error", () => {
    tool({
      name: "get_order",
      description: "Look up one order.",
      effect: "read",
      output: OrderOutput,
      // @ts-expect-error: totalCents is missing
      async execute() {
        return { orderId: "ORD-00001" };
      },
    });
  });

  test("zod output: the value the output validator accepts (its input side)", () => {
    const RefundOutput = z.object({ refundId: z.string(), settledAt: z.string().transform((text) => new Date(text)) });
    tool({
      name: "issue_refund",
      description: "Refund an order.",
      effect: "idempotent",
      output: RefundOutput,
      execute() {
        return { refundId: "RFD-1", settledAt: "2026-03-01T10:00:00Z" };
      },
    });
    tool({
      name: "issue_refund",
      description: "Refund an order.",
      effect: "idempotent",
      output: RefundOutput,
      // @ts-expect-error: refundId must be a string
      execute() {
        return { refundId: 1, settledAt: "2026-03-01T10:00:00Z" };
      },
    });
  });
});

describe("options are typed", () => {
  test("effect, result, sandbox and network take only the contract's values", () => {
    const base = { name: "t", description: "d", execute: () => null } as const;
    // @ts-expect-error: not an effect
    tool({ ...base, effect: "delete" });
    // @ts-expect-error: not a result policy
    tool({ ...base, effect: "read", result: "paged" });
    // @ts-expect-error: not a sandbox mode
    tool({ ...base, effect: "read", sandbox: "off" });
    // @ts-expect-error: network access fails closed
    tool({ ...base, effect: "read", sandboxProfile: { network: true } });
    // @ts-expect-error: effect is required
    tool({ ...base });
    tool({ ...base, effect: "read", result: artifact({ maxInlineTokens: 800 }) });
  });
});

describe("agent keeps the tool tuple type", () => {
  test("tools is the exact tuple passed", () => {
    const getOrder = tool({
      name: "get_order",
      description: "d",
      effect: "read",
      input: OrderInput,
      output: OrderOutput,
      execute: ({ orderId }) => ({ orderId, totalCents: 1 }),
    });
    const hours = tool({ name: "get_support_hours", description: "d", effect: "read", execute: () => "9-17" });
    const desk = agent({ name: "support_desk", tools: [getOrder, hours] });
    expectTypeOf(desk.tools).toEqualTypeOf<readonly [typeof getOrder, typeof hours]>();
    expectTypeOf(desk.tools[0].input).toEqualTypeOf<typeof OrderInput>();
    expectTypeOf(desk).toMatchTypeOf<AgentDefinition>();
  });
});
