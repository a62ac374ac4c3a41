import { describe, expect, test } from "vitest";
import { artifact, isTool, schema, tool } from "../../src/index.js";
import { expectRule, validToolOptions, without } from "./helpers.js";

const define = (options: unknown) => () => tool(options as never);
const withField = (overrides: Record<string, unknown>) => define(validToolOptions(overrides));
const subject = 'tool "lookup_order"';

describe("tool(): name", () => {
  test.each([
    "a",
    "Z",
    "getOrder",
    "get_order",
    "get-order-v2",
    "a1_-",
    "x".repeat(128),
    "cave",
    "cavern",
    "Cave_x",
    "my_cave_tool",
  ])("accepts %j", (name) => {
    expect(tool(validToolOptions({ name }) as never).name).toBe(name);
  });

  test.each([
    ["", '""'],
    ["1order", '"1order"'],
    ["_order", '"_order"'],
    ["-order", '"-order"'],
    ["get order", '"get order"'],
    ["get.order", '"get.order"'],
    ["commande_réglée", '"commande_réglée"'],
    ["get_order\n", '"get_order\\n"'],
    ["x".repeat(129), `"${"x".repeat(129)}"`],
  ])("refuses the string %j with CAVE1001", (name, shown) => {
    expectRule(withField({ name }), {
      code: "CAVE1001",
      subject: `tool ${JSON.stringify(name)}`,
      field: "name",
      mentions: shown,
      hint: /letter first/,
    });
  });

  test.each([[42], [null], [["get_order"]]])("refuses the non-string %j with CAVE1001", (name) => {
    expectRule(withField({ name }), { code: "CAVE1001", subject: "tool()", field: "name", hint: /letter first/ });
  });

  test("refuses a missing name with CAVE1001", () => {
    expectRule(define(without(validToolOptions(), "name")), {
      code: "CAVE1001",
      subject: "tool()",
      field: "name",
      mentions: /name undefined/,
    });
  });

  test.each(["cave_page", "cave_recover", "cave_skill", "cave_", "cave_my_tool"])(
    "refuses the reserved name %j with CAVE1002",
    (name) => {
      expectRule(withField({ name }), {
        code: "CAVE1002",
        subject: `tool "${name}"`,
        field: "name",
        mentions: /reserved prefix "cave_"/,
        hint: /choose another name/,
      });
    },
  );

  test("the framework's escape hatch is not an option users can pass", () => {
    const error = expectRule(withField({ name: "cave_page", allowReserved: true }), {
      code: "CAVE1007",
      subject: 'tool "cave_page"',
      field: "allowReserved",
      count: 2,
    });
    expect(error.violations.map((v) => v.code)).toEqual(["CAVE1007", "CAVE1002"]);
  });
});

describe("tool(): effect", () => {
  test.each(["read", "write", "idempotent", "external"] as const)("accepts %s and keeps it", (effect) => {
    expect(tool(validToolOptions({ effect }) as never).effect).toBe(effect);
  });

  test("has no default: a missing effect is CAVE1003", () => {
    expectRule(define(without(validToolOptions(), "effect")), {
      code: "CAVE1003",
      subject,
      field: "effect",
      mentions: /effect is missing/,
      hint: /read, write, idempotent, external.*no default/,
    });
  });

  test("an explicit undefined effect is missing too (CAVE1003)", () => {
    expectRule(withField({ effect: undefined }), { code: "CAVE1003", subject, field: "effect" });
  });

  test.each([["READ"], ["delete"], ["mutate"], [""], [null], [1], [["read"]]])(
    "refuses the unknown effect %j with CAVE1004",
    (effect) => {
      expectRule(withField({ effect }), {
        code: "CAVE1004",
        subject,
        field: "effect",
        mentions: /is not one of read, write, idempotent, external/,
        hint: /idempotent is safe to retry/,
      });
    },
  );
});

describe("tool(): timeout", () => {
  test("defaults to 30000 ms", () => {
    expect(tool(validToolOptions() as never).timeout).toBe(30_000);
  });

  test.each([1, 250, 30_000, 2_147_483_647])("accepts %d ms", (timeout) => {
    expect(tool(validToolOptions({ timeout }) as never).timeout).toBe(timeout);
  });

  test.each([
    ["5000", '"5000"'],
    [0, "timeout 0"],
    [-1, "timeout -1"],
    [1.5, "timeout 1.5"],
    [2 ** 31, "timeout 2147483648"],
    [Number.NaN, "timeout NaN"],
    [Number.POSITIVE_INFINITY, "timeout Infinity"],
    [null, "timeout null"],
    [true, "timeout true"],
  ])("refuses %j with CAVE1005 (no coercion)", (timeout, shown) => {
    expectRule(withField({ timeout }), {
      code: "CAVE1005",
      subject,
      field: "timeout",
      mentions: shown,
      hint: /default, 30000 ms/,
    });
  });

  test("the message states the largest timer delay", () => {
    expectRule(withField({ timeout: 2 ** 31 }), {
      code: "CAVE1005",
      subject,
      field: "timeout",
      mentions: /up to 2147483647/,
    });
  });
});

describe("tool(): result", () => {
  test("defaults to auto", () => {
    expect(tool(validToolOptions() as never).result).toBe("auto");
  });

  test.each(["auto", "inline", "page", "compress", "exact_ccr"] as const)("accepts the policy %s", (result) => {
    expect(tool(validToolOptions({ result }) as never).result).toBe(result);
  });

  test("accepts an artifact() and keeps that very value", () => {
    const policy = artifact({ maxInlineTokens: 500 });
    expect(tool(validToolOptions({ result: policy }) as never).result).toBe(policy);
  });

  test.each([
    ["AUTO"],
    ["paged"],
    ["exact-ccr"],
    [""],
    [null],
    [0],
    [{ strategy: "page", maxInlineTokens: 1200, recovery: "exact_ccr" }],
  ])("refuses %j with CAVE1006", (result) => {
    expectRule(withField({ result }), {
      code: "CAVE1006",
      subject,
      field: "result",
      mentions: /is not a result policy/,
      hint: "Use one of auto, inline, page, compress, exact_ccr, or artifact({...}).",
    });
  });
});

describe("tool(): allowRepeat", () => {
  test("defaults to false; true is kept", () => {
    expect(tool(validToolOptions() as never).allowRepeat).toBe(false);
    expect(tool(validToolOptions({ allowRepeat: true }) as never).allowRepeat).toBe(true);
    expect(tool(validToolOptions({ allowRepeat: false }) as never).allowRepeat).toBe(false);
  });

  test.each([["true"], [1], [0], [null], ["yes"]])("refuses the non-boolean %j with CAVE1016", (allowRepeat) => {
    expectRule(withField({ allowRepeat }), {
      code: "CAVE1016",
      subject,
      field: "allowRepeat",
      mentions: /not a boolean/,
      hint: /polling tools/,
    });
  });
});

describe("tool(): description and execute", () => {
  test("a missing description is CAVE1014", () => {
    expectRule(define(without(validToolOptions(), "description")), {
      code: "CAVE1014",
      subject,
      field: "description",
      hint: /what the tool does/,
    });
  });

  test.each([[""], ["   "], [42], [null]])("refuses the description %j with CAVE1014", (description) => {
    expectRule(withField({ description }), {
      code: "CAVE1014",
      subject,
      field: "description",
      hint: /what the tool does/,
    });
  });

  test("a missing execute is CAVE1015", () => {
    expectRule(define(without(validToolOptions(), "execute")), {
      code: "CAVE1015",
      subject,
      field: "execute",
      hint: /execute\(input, context\)/,
    });
  });

  test.each([["run"], [{}], [null]])("refuses the execute %j with CAVE1015", (execute) => {
    expectRule(withField({ execute }), { code: "CAVE1015", subject, field: "execute" });
  });

  test("sync and async execute functions are both accepted", () => {
    expect(isTool(tool(validToolOptions({ execute: () => 1 }) as never))).toBe(true);
    expect(
      isTool(
        tool(
          validToolOptions({
            async execute() {
              return 1;
            },
          }) as never,
        ),
      ),
    ).toBe(true);
  });
});

describe("tool(): unknown option keys are errors, never ignored", () => {
  test.each([
    ["timout", "timeout"],
    ["effects", "effect"],
    ["allowrepeat", "allowRepeat"],
    ["nestedTool", "nestedTools"],
    ["sandboxProfil", "sandboxProfile"],
    ["inputJsonSchema", "inputJSONSchema"],
    ["descripton", "description"],
  ])("%s gets CAVE1007 with 'did you mean %s'", (key, guess) => {
    expectRule(withField({ [key]: 5 }), {
      code: "CAVE1007",
      subject,
      field: key,
      mentions: `unknown option "${key}"`,
      hint: `Did you mean "${guess}"?`,
    });
  });

  test("a key with no close match lists the known options", () => {
    const error = expectRule(withField({ retries: 3 }), {
      code: "CAVE1007",
      subject,
      field: "retries",
      hint: /^Known options: name, description, input, output/,
    });
    expect(error.hint).not.toContain("Did you mean");
  });

  test("every unknown key is reported, not just the first", () => {
    const error = expectRule(withField({ timout: 5, retries: 3 }), {
      code: "CAVE1007",
      subject,
      field: "timout",
      count: 2,
    });
    expect(error.violations.map((v) => v.field)).toEqual(["timout", "retries"]);
    expect(error.message).toContain("(and 1 more: CAVE1007 retries)");
  });
});

describe("tool(): options", () => {
  test.each([[undefined], [null], ["lookup_order"], [[]], [() => ({})]])(
    "refuses %j instead of an options object with CAVE1024",
    (options) => {
      expectRule(define(options), {
        code: "CAVE1024",
        subject: "tool()",
        field: "options",
        hint: /tool\(\{ name, description, effect/,
      });
    },
  );

  test("every broken rule is listed on the error", () => {
    const error = expectRule(define({ name: "cave_x", description: "", timeout: 0, execute: 1 }), {
      code: "CAVE1002",
      subject: 'tool "cave_x"',
      field: "name",
      count: 5,
    });
    expect(error.violations.map((v) => [v.code, v.field])).toEqual([
      ["CAVE1002", "name"],
      ["CAVE1014", "description"],
      ["CAVE1003", "effect"],
      ["CAVE1005", "timeout"],
      ["CAVE1015", "execute"],
    ]);
    expect(error.message).toContain(
      "(and 4 more: CAVE1014 description, CAVE1003 effect, CAVE1005 timeout, CAVE1015 execute)",
    );
  });
});

describe("tool(): the definition", () => {
  test("fills in every default", () => {
    const execute = () => ({ ok: true });
    const definition = tool({
      name: "lookup_order",
      description: "Look up one order by its id.",
      effect: "read",
      execute,
    });
    expect({ ...definition }).toEqual({
      [Symbol.for("cave.tool")]: true,
      name: "lookup_order",
      description: "Look up one order by its id.",
      input: undefined,
      output: undefined,
      inputJSONSchema: undefined,
      outputJSONSchema: undefined,
      schemaSemanticsSHA256: undefined,
      effect: "read",
      timeout: 30_000,
      result: "auto",
      allowRepeat: false,
      sandbox: "required",
      sandboxProfile: { network: false, env: [], egress: [], secrets: {}, fs: { read: [], write: [] }, addons: false },
      nestedTools: [],
      execute,
    });
    expect(isTool(definition)).toBe(true);
  });

  test("is frozen, nested arrays and objects too", () => {
    const child = tool(validToolOptions({ name: "child" }) as never);
    const definition = tool(
      validToolOptions({
        nestedTools: [child],
        sandboxProfile: { env: ["LOG_LEVEL"] },
        input: schema.object({ id: schema.string() }),
      }) as never,
    );
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(definition.nestedTools)).toBe(true);
    expect(Object.isFrozen(definition.sandboxProfile)).toBe(true);
    expect(Object.isFrozen(definition.sandboxProfile.env)).toBe(true);
    expect(() => {
      (definition as { timeout: number }).timeout = 1;
    }).toThrow(TypeError);
    expect(() => (definition.nestedTools as unknown[]).push(child)).toThrow(TypeError);
    expect(() => (definition.sandboxProfile.env as string[]).push("TZ")).toThrow(TypeError);
  });

  test("copies the caller's arrays, so later changes do not reach the definition", () => {
    const env = ["LOG_LEVEL"];
    const child = tool(validToolOptions({ name: "child" }) as never);
    const nestedTools = [child];
    const definition = tool(validToolOptions({ effect: "write", nestedTools, sandboxProfile: { env } }) as never);
    env.push("AWS_SECRET_ACCESS_KEY");
    nestedTools.push(tool(validToolOptions({ name: "late", effect: "write" }) as never));
    expect(definition.sandboxProfile.env).toEqual(["LOG_LEVEL"]);
    expect(definition.nestedTools.map((t) => t.name)).toEqual(["child"]);
  });

  test("isTool is false for look-alikes", () => {
    expect(isTool(validToolOptions())).toBe(false);
    expect(isTool(null)).toBe(false);
    expect(isTool("lookup_order")).toBe(false);
  });
});

describe("tool(): forged artifact values", () => {
  test("a value carrying the artifact brand is re-checked, since anyone can make the registered symbol", () => {
    const forged = {
      [Symbol.for("cave.artifact")]: true,
      strategy: "shred",
      maxInlineTokens: 1200,
      recovery: "exact_ccr",
    };
    expectRule(withField({ result: forged }), {
      code: "CAVE1020",
      subject,
      field: "result.strategy",
      hint: /default, page/,
    });
  });
});
