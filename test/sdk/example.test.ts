import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { z } from "zod";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { agent, isTool, tool, type AnyToolDefinition, type CallOutcome, type ToolContext } from "../../src/index.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { deniedEnvReason } from "../../src/contract/env-policy.js";
import { supportDesk } from "../../examples/support-desk/agent.js";
import * as customers from "../../examples/support-desk/tools/customers.js";
import * as knowledgeBase from "../../examples/support-desk/tools/knowledge-base.js";
import * as orders from "../../examples/support-desk/tools/orders.js";
import * as refunds from "../../examples/support-desk/tools/refunds.js";
import * as replacements from "../../examples/support-desk/tools/replacements.js";
import * as shared from "../../examples/support-desk/tools/shared-schemas.js";
import * as shipping from "../../examples/support-desk/tools/shipping.js";
import * as tickets from "../../examples/support-desk/tools/tickets.js";
import * as vendorTickets from "../../examples/support-desk/tools/vendor-tickets.js";
import { outbox } from "../../examples/support-desk/data/outbox.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));
const compiled = new WeakMap<object, ValidateFunction>();

const modules = { customers, knowledgeBase, orders, refunds, replacements, shared, shipping, tickets, vendorTickets };
const exported: AnyToolDefinition[] = Object.values(modules).flatMap((module) => Object.values(module).filter(isTool));
const byName = new Map(exported.map((definition) => [definition.name, definition]));
const named = (name: string): AnyToolDefinition => {
  const definition = byName.get(name);
  if (!definition) throw new Error(`the example has no tool ${name}`);
  return definition;
};

const isTypeBox = (value: unknown): value is object =>
  typeof value === "object" && value !== null && Symbol.for("TypeBox.Kind") in value;
const isStandard = (value: unknown): value is StandardSchemaV1 =>
  typeof value === "object" && value !== null && "~standard" in value;
const jsonOf = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** The JSON Schema a provider would be sent for one side of a tool. */
function jsonSchemaOf(definition: AnyToolDefinition, side: "input" | "output"): unknown {
  const value: unknown = definition[side];
  if (isTypeBox(value)) return jsonOf(value);
  if (isStandard(value))
    return (value["~standard"] as unknown as { jsonSchema: { input(o: object): unknown } }).jsonSchema.input({
      target: "draft-07",
    });
  return undefined;
}

/** Validates like the runtime will: the Ajv-compiled JSON Schema for schema.*, the vendor's own validator for Standard Schema. */
async function validated(definition: AnyToolDefinition, side: "input" | "output", value: unknown): Promise<unknown> {
  const validator: unknown = definition[side];
  // Schema-less tools keep native JSON serialisation.
  if (validator === undefined) return value === undefined ? undefined : jsonOf(value);
  if (isStandard(validator)) {
    const result = await validator["~standard"].validate(value);
    if (result.issues)
      throw new Error(`${definition.name} ${side} invalid: ${result.issues.map((issue) => issue.message).join("; ")}`);
    return result.value;
  }
  let check = compiled.get(validator as object);
  if (!check) compiled.set(validator as object, (check = ajv.compile(jsonOf(validator) as object)));
  if (!check(value)) throw new Error(`${definition.name} ${side} invalid: ${ajv.errorsText(check.errors)}`);
  return value;
}

function receipt(tool: string, outcome: string) {
  return {
    callId: `test-${tool}`,
    parentId: "test",
    runId: "test",
    correlationId: null,
    tool,
    lockIntegrity: null,
    argsSha256: "",
    resultSha256: null,
    outcome,
    effectUnknown: false,
    durationMs: 0,
    isolation: null,
  };
}

/** A minimal stand-in for the runtime pipeline: validate input, execute, validate output; nested calls go through it too. */
async function run(definition: AnyToolDefinition, args: unknown): Promise<unknown> {
  const input = await validated(definition, "input", args);
  const context: ToolContext = {
    signal: new AbortController().signal,
    callId: `test-${definition.name}`,
    async call(name, nestedArgs): Promise<CallOutcome> {
      const child = definition.nestedTools.find((candidate) => candidate.name === name);
      if (!child)
        return {
          ok: false,
          error: { code: "NOT_NESTED", message: `${name} is not a nested tool of ${definition.name}` },
          receipt: receipt(name, "NOT_NESTED"),
        };
      try {
        return { ok: true, content: await run(child, nestedArgs), receipt: receipt(name, "ok") };
      } catch (thrown) {
        return {
          ok: false,
          error: { code: "TOOL_ERROR", message: String(thrown) },
          receipt: receipt(name, "TOOL_ERROR"),
        };
      }
    },
  };
  return validated(definition, "output", await definition.execute(input, context));
}

function collectFormats(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => collectFormats(item, into));
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "format" && typeof item === "string") into.add(item);
      else collectFormats(item, into);
    }
  }
  return into;
}

describe("examples/support-desk: the definitions", () => {
  test("has at least 12 tools across several modules, every one on the agent, with no duplicate names", () => {
    expect(exported.length).toBeGreaterThanOrEqual(12);
    expect(new Set(exported.map((definition) => definition.name)).size).toBe(exported.length);
    const modulesWithTools = Object.values(modules).filter((module) => Object.values(module).some(isTool));
    expect(modulesWithTools.length).toBeGreaterThanOrEqual(5);
    const onAgent = supportDesk.tools.map((definition) => definition.name);
    expect(new Set(onAgent).size).toBe(onAgent.length);
    expect([...onAgent].sort()).toEqual(exported.map((definition) => definition.name).sort());
    expect(
      agent({ name: supportDesk.name, description: supportDesk.description, tools: [...supportDesk.tools] }).tools,
    ).toHaveLength(onAgent.length);
  });

  test("every definition passes tool() again unchanged (nothing in it was defaulted into something invalid)", () => {
    for (const definition of exported) {
      const again = tool({ ...definition } as never);
      expect({ ...again }, definition.name).toEqual({ ...definition });
      expect(Object.isFrozen(definition)).toBe(true);
    }
  });

  test("uses every effect class and every result policy, and an artifact()", () => {
    expect(new Set(exported.map((definition) => definition.effect))).toEqual(
      new Set(["read", "write", "idempotent", "external"]),
    );
    const policies = new Set(
      exported.map((definition) => (typeof definition.result === "string" ? definition.result : "artifact")),
    );
    expect(policies).toEqual(new Set(["auto", "inline", "page", "compress", "exact_ccr", "artifact"]));
    expect(named("prepare_refund_case").result).toMatchObject({
      strategy: "page",
      maxInlineTokens: 800,
      recovery: "exact_ccr",
    });
  });

  test("has composites with flat nested tools, and read composites hold only read children", () => {
    const composites = exported.filter((definition) => definition.nestedTools.length > 0);
    expect(composites.map((definition) => definition.name).sort()).toEqual([
      "prepare_refund_case",
      "refund_and_notify_customer",
    ]);
    for (const composite of composites) {
      for (const child of composite.nestedTools) {
        expect(child.nestedTools, `${composite.name} > ${child.name}`).toHaveLength(0);
        expect(byName.get(child.name), `${child.name} is exported and on the agent`).toBe(child);
        if (composite.effect === "read") expect(child.effect, `${composite.name} > ${child.name}`).toBe("read");
      }
    }
    expect(named("prepare_refund_case").effect).toBe("read");
    expect(
      named("refund_and_notify_customer")
        .nestedTools.map((child) => child.effect)
        .sort(),
    ).toEqual(["external", "idempotent", "read"]);
  });

  test("has a schema-less tool, a sandbox: none tool, a polling tool, custom timeouts and a harmless env allow-list", () => {
    const schemaLess = exported.filter(
      (definition) => definition.input === undefined && definition.output === undefined,
    );
    expect(schemaLess.map((definition) => definition.name)).toEqual(["get_support_hours"]);
    expect(exported.filter((definition) => definition.sandbox === "none").map((definition) => definition.name)).toEqual(
      ["get_support_hours"],
    );
    expect(exported.filter((definition) => definition.allowRepeat).map((definition) => definition.name)).toEqual([
      "check_refund_status",
    ]);
    expect(new Set(exported.map((definition) => definition.timeout)).size).toBeGreaterThanOrEqual(4);
    const profiled = exported.filter((definition) => definition.sandboxProfile.env.length > 0);
    expect(profiled.map((definition) => definition.name)).toEqual(["get_refund_policy"]);
    for (const name of profiled[0]!.sandboxProfile.env) expect(deniedEnvReason(name), name).toBeUndefined();
  });

  test("has one tool with scoped egress and an injected credential, which is not read-only", () => {
    const scoped = exported.filter((definition) => definition.sandboxProfile.egress.length > 0);
    expect(
      scoped.map((definition) => [
        definition.name,
        definition.effect,
        definition.sandboxProfile.egress,
        Object.keys(definition.sandboxProfile.secrets),
      ]),
    ).toEqual([["escalate_to_vendor", "external", ["support.vendor.example"], ["VENDOR_DESK_TOKEN"]]]);
  });

  test("has one tool that writes to disk: a write scope (data/orders) and native addons, effect write", () => {
    const writing = exported.filter(
      (definition) =>
        definition.sandboxProfile.fs.write.length > 0 ||
        definition.sandboxProfile.fs.read.length > 0 ||
        definition.sandboxProfile.addons,
    );
    expect(
      writing.map((definition) => [
        definition.name,
        definition.effect,
        definition.sandbox,
        definition.sandboxProfile.fs,
        definition.sandboxProfile.addons,
      ]),
    ).toEqual([["place_replacement_order", "write", "required", { read: [], write: ["data/orders"] }, true]]);
  });

  test("uses formats email, date-time and uri", () => {
    const formats = new Set<string>();
    for (const definition of exported)
      for (const side of ["input", "output"] as const) collectFormats(jsonSchemaOf(definition, side), formats);
    for (const format of ["email", "date-time", "uri"]) expect(formats).toContain(format);
  });

  test("shares schema constants across modules", () => {
    const orderIdUsers = exported.filter((definition) => {
      const properties = (jsonSchemaOf(definition, "input") as { properties?: Record<string, unknown> } | undefined)
        ?.properties;
      return properties !== undefined && JSON.stringify(properties.orderId) === JSON.stringify(jsonOf(shared.OrderId));
    });
    const modulesUsingOrderId = new Set(
      orderIdUsers.map(
        (definition) => Object.entries(modules).find(([, module]) => Object.values(module).includes(definition))![0],
      ),
    );
    expect([...modulesUsingOrderId].sort()).toEqual(["orders", "refunds", "replacements", "tickets", "vendorTickets"]);
    expect(orders.getOrder.input.properties.orderId).toBe(shared.OrderId);
    expect(refunds.issueRefund.input.properties.orderId).toBe(shared.OrderId);
    expect(customers.getCustomer.output).toBe(shared.CustomerProfile);
  });

  test("the zod tool's schemaSemanticsSHA256 is the documented hash of its validators", () => {
    const definition = shipping.updateShippingAddress;
    expect(definition.input).toBe(shipping.ShippingAddressInput);
    type WithJsonSchema = {
      "~standard": { vendor: string; jsonSchema: { input(o: object): unknown; output(o: object): unknown } };
    };
    const sides = (value: unknown) => {
      const std = (value as WithJsonSchema)["~standard"];
      return {
        input: std.jsonSchema.input({ target: "draft-07" }),
        output: std.jsonSchema.output({ target: "draft-07" }),
      };
    };
    expect((definition.input as unknown as WithJsonSchema)["~standard"].vendor).toBe("zod");
    const { major, minor, patch } = z.core.version;
    const installed = (
      JSON.parse(readFileSync(new URL("../../node_modules/zod/package.json", import.meta.url), "utf8")) as {
        version: string;
      }
    ).version;
    expect(`${major}.${minor}.${patch}`).toBe(installed);
    const semantics = {
      vendor: "zod",
      version: `${major}.${minor}.${patch}`,
      revision: shipping.SHIPPING_SCHEMA_REVISION,
      input: sides(definition.input),
      output: sides(definition.output),
    };
    const expected = createHash("sha256").update(canonicalJson(semantics)).digest("hex");
    expect(
      definition.schemaSemanticsSHA256,
      `update schemaSemanticsSHA256 in examples/support-desk/tools/shipping.ts to ${expected}`,
    ).toBe(expected);
  });

  test("the config discovers the tool modules and the agent", () => {
    const config = JSON.parse(
      readFileSync(new URL("../../examples/support-desk/cave.config.json", import.meta.url), "utf8"),
    ) as unknown;
    expect(config).toEqual({ include: ["tools/**/*.ts", "agent.ts"], external: ["better-sqlite3"] });
  });
});

describe("examples/support-desk: the tools really work on the shipped data", () => {
  test("get_order and list_customer_orders", async () => {
    const order = (await run(named("get_order"), { orderId: "ORD-10001" })) as {
      totalCents: number;
      trackingUrl: string;
      items: unknown[];
    };
    expect(order).toMatchObject({
      orderId: "ORD-10001",
      customerId: "CUS-0001",
      status: "delivered",
      totalCents: 8999 + 2 * 1299,
      currency: "EUR",
    });
    expect(order.items).toHaveLength(2);
    const pending = (await run(named("get_order"), { orderId: "ORD-10004" })) as Record<string, unknown>;
    expect(Object.keys(pending)).not.toContain("trackingUrl");
    await expect(run(named("get_order"), { orderId: "ORD-99999" })).rejects.toThrow(/No order ORD-99999/);
    await expect(run(named("get_order"), { orderId: "10001" })).rejects.toThrow(/input invalid/);
    const history = (await run(named("list_customer_orders"), { customerId: "CUS-0001" })) as {
      orders: { orderId: string }[];
    };
    expect(history.orders.map((summary) => summary.orderId)).toEqual(["ORD-10002", "ORD-10001"]);
    const delivered = (await run(named("list_customer_orders"), { customerId: "CUS-0002", status: "delivered" })) as {
      orders: { orderId: string }[];
    };
    expect(delivered.orders.map((summary) => summary.orderId)).toEqual(["ORD-10003"]);
  });

  test("search_knowledge_base ranks articles, get_support_hours returns plain JSON", async () => {
    const found = (await run(named("search_knowledge_base"), { query: "refund for a damaged item", limit: 2 })) as {
      results: { articleId: string; url: string }[];
    };
    expect(found.results).toHaveLength(2);
    expect(found.results[0]!.articleId).toBe("KB-103");
    expect(found.results[0]!.url).toMatch(/^https:\/\/help\.example\.com\//);
    expect(await run(named("search_knowledge_base"), { query: "zzz qqq" })).toEqual({ query: "zzz qqq", results: [] });
    expect(await run(named("get_support_hours"), undefined)).toMatchObject({ timeZone: "Europe/Berlin", sunday: null });
  });

  test("get_refund_policy uses the region given, or the desk's region from the environment", async () => {
    expect(await run(named("get_refund_policy"), { region: "US" })).toEqual({
      region: "US",
      refundWindowDays: 14,
      returnRequiredAboveCents: 10000,
    });
    const before = process.env.SUPPORT_DESK_REGION;
    try {
      delete process.env.SUPPORT_DESK_REGION;
      expect(await run(named("get_refund_policy"), {})).toMatchObject({ region: "EU" });
      process.env.SUPPORT_DESK_REGION = "UK";
      expect(await run(named("get_refund_policy"), {})).toMatchObject({ region: "UK", refundWindowDays: 30 });
    } finally {
      if (before === undefined) delete process.env.SUPPORT_DESK_REGION;
      else process.env.SUPPORT_DESK_REGION = before;
    }
  });

  test("prepare_refund_case gathers the case through its nested read tools", async () => {
    const refundCase = (await run(named("prepare_refund_case"), { orderId: "ORD-10003" })) as Record<string, unknown>;
    expect(refundCase).toMatchObject({
      customer: { customerId: "CUS-0002", region: "US" },
      policy: { region: "US", refundWindowDays: 14 },
      refundedCents: 7900,
      refundableCents: 38900 + 7900 - 7900,
      windowClosesAt: "2026-02-16T17:05:00.000Z",
      returnRequired: true,
    });
  });

  test("issue_refund is idempotent per key; check_refund_status polls until settled; refund_and_notify_customer emails", async () => {
    const args = {
      orderId: "ORD-10010",
      amountCents: 2999,
      reason: "not_as_described",
      idempotencyKey: "ord-10010-ring-light",
    };
    const first = (await run(named("issue_refund"), args)) as { refundId: string; status: string };
    const again = (await run(named("issue_refund"), args)) as { refundId: string };
    expect(again).toEqual(first);
    expect(first.status).toBe("pending");
    expect(await run(named("check_refund_status"), { refundId: first.refundId })).toEqual({
      refundId: first.refundId,
      status: "pending",
    });
    expect(await run(named("check_refund_status"), { refundId: "RFD-00001" })).toEqual({
      refundId: "RFD-00001",
      status: "settled",
      settledAt: "2026-02-03T10:00:03Z",
    });
    await expect(run(named("issue_refund"), { ...args, amountCents: 1 })).rejects.toThrow(
      /used for a different refund/,
    );
    await expect(
      run(named("issue_refund"), { ...args, idempotencyKey: "ord-10010-too-much", amountCents: 1_000_000 }),
    ).rejects.toThrow(/left to refund/);

    const sentBefore = outbox.length;
    const notified = (await run(named("refund_and_notify_customer"), {
      orderId: "ORD-10007",
      amountCents: 3999,
      reason: "damaged",
      idempotencyKey: "ord-10007-lamp",
    })) as { refund: { refundId: string }; emailMessageId: string };
    expect(outbox).toHaveLength(sentBefore + 1);
    expect(outbox.at(-1)).toMatchObject({ messageId: notified.emailMessageId, to: "priya.n@example.org" });
    expect(outbox.at(-1)!.body).toContain(notified.refund.refundId);
  });

  test("update_shipping_address runs zod's normalisation before execute; cancel_order only cancels processing orders", async () => {
    const updated = (await run(named("update_shipping_address"), {
      orderId: "ORD-10008",
      address: { line1: "  12 Quai de Saône ", city: "Lyon", postalCode: " 69005", country: "FR" },
    })) as { shippingAddress: { line1: string; postalCode: string } };
    expect(updated.shippingAddress).toEqual({
      line1: "12 Quai de Saône",
      city: "Lyon",
      postalCode: "69005",
      country: "FR",
    });
    await expect(
      run(named("update_shipping_address"), {
        orderId: "ORD-10008",
        address: { line1: "x", city: "Oslo", postalCode: "0150", country: "NO" },
      }),
    ).rejects.toThrow(/input invalid/);
    await expect(
      run(named("update_shipping_address"), {
        orderId: "ORD-10001",
        address: { line1: "x", city: "Berlin", postalCode: "10115", country: "DE" },
      }),
    ).rejects.toThrow(/is delivered/);
    await expect(run(named("cancel_order"), { orderId: "ORD-10002", reason: "Too slow" })).rejects.toThrow(
      /only processing orders/,
    );
    expect(await run(named("cancel_order"), { orderId: "ORD-10008", reason: "Found it cheaper" })).toMatchObject({
      orderId: "ORD-10008",
      status: "cancelled",
      refundedCents: 8999 + 3499,
    });
  });

  test("tickets: create, reply, read the exact transcript, close twice with one closing time", async () => {
    const created = (await run(named("create_ticket"), {
      customerId: "CUS-0005",
      orderId: "ORD-10009",
      subject: "Dock not recognised",
      message: "My laptop does not see the dock.",
    })) as { ticketId: string };
    expect(created).toMatchObject({ status: "open", priority: "normal" });
    expect(
      await run(named("add_ticket_note"), {
        ticketId: created.ticketId,
        body: "Which laptop model is it?",
        internal: false,
      }),
    ).toMatchObject({ messageCount: 2, status: "waiting_on_customer" });
    const transcript = (await run(named("get_ticket_transcript"), { ticketId: created.ticketId })) as {
      messages: { author: string }[];
    };
    expect(transcript.messages.map((message) => message.author)).toEqual(["customer", "agent"]);
    const closed = await run(named("close_ticket"), {
      ticketId: created.ticketId,
      resolution: "Firmware update fixed it.",
    });
    expect(await run(named("close_ticket"), { ticketId: created.ticketId, resolution: "Closed again." })).toEqual(
      closed,
    );
    await expect(
      run(named("add_ticket_note"), { ticketId: created.ticketId, body: "late", internal: true }),
    ).rejects.toThrow(/is closed/);
    await expect(
      run(named("create_ticket"), {
        customerId: "CUS-0005",
        orderId: "ORD-10001",
        subject: "Wrong owner",
        message: "x",
      }),
    ).rejects.toThrow(/does not belong/);
  });

  test("customers: read a profile, change the email, send an email only for the customer's own ticket", async () => {
    expect(await run(named("get_customer"), { customerId: "CUS-0003" })).toMatchObject({
      name: "Yuki Tanaka",
      tier: "business",
      region: "UK",
    });
    await expect(
      run(named("update_customer_email"), { customerId: "CUS-0003", email: "not-an-email" }),
    ).rejects.toThrow(/input invalid/);
    expect(
      await run(named("update_customer_email"), { customerId: "CUS-0003", email: "yuki@studio-tanaka.example" }),
    ).toMatchObject({ previousEmail: "yuki@tanaka-design.example", email: "yuki@studio-tanaka.example" });
    await expect(
      run(named("send_customer_email"), {
        customerId: "CUS-0003",
        subject: "Your ticket",
        body: "About your monitor arm.",
        ticketId: "TCK-2001",
      }),
    ).rejects.toThrow(/belongs to another customer/);
    expect(
      await run(named("send_customer_email"), {
        customerId: "CUS-0003",
        subject: "Your invoice",
        body: "Your VAT invoice is attached.",
        ticketId: "TCK-2003",
      }),
    ).toMatchObject({ to: "yuki@studio-tanaka.example" });
  });
});
