import { describe, expect, test } from "vitest";
import { tool, type Effect } from "../../src/index.js";
import { expectRule, validToolOptions } from "./helpers.js";

const leaf = (name: string, effect: Effect = "read") => tool(validToolOptions({ name, effect }) as never);
const composite = (effect: Effect, nestedTools: unknown) => () =>
  tool(validToolOptions({ name: "prepare_case", effect, nestedTools }) as never);
const subject = 'tool "prepare_case"';

describe("tool(): nestedTools", () => {
  test("defaults to none", () => {
    expect(tool(validToolOptions() as never).nestedTools).toEqual([]);
  });

  test("a read composite of read tools is accepted and keeps its children in order", () => {
    const a = leaf("get_order");
    const b = leaf("get_customer");
    const definition = composite("read", [a, b])();
    expect(definition.nestedTools).toEqual([a, b]);
    expect(definition.nestedTools[0]).toBe(a);
  });

  test.each(["write", "idempotent", "external"] as const)(
    "a %s composite may hold children of any effect",
    (effect) => {
      const children = [
        leaf("get_order"),
        leaf("issue_refund", "idempotent"),
        leaf("cancel_order", "write"),
        leaf("send_email", "external"),
      ];
      expect(composite(effect, children)().nestedTools).toHaveLength(4);
    },
  );

  test.each(["write", "idempotent", "external"] as const)("a read composite with a %s child is CAVE1011", (effect) => {
    expectRule(composite("read", [leaf("get_order"), leaf("change_it", effect)]), {
      code: "CAVE1011",
      subject,
      field: "nestedTools[1]",
      mentions: `this read composite contains "change_it", whose effect is ${effect}`,
      hint: `Declare the composite's effect as "${effect}" (or stronger), or remove the child.`,
    });
  });

  test("nested tools are flat: a child with children of its own is CAVE1010", () => {
    const inner = tool(validToolOptions({ name: "inner_composite", nestedTools: [leaf("get_order")] }) as never);
    expectRule(composite("read", [inner]), {
      code: "CAVE1010",
      subject,
      field: "nestedTools[0]",
      mentions: /nested tool "inner_composite" has nested tools of its own/,
      hint: /one level deep/,
    });
  });

  test("a child listed twice is CAVE1019 at the second position", () => {
    const a = leaf("get_order");
    expectRule(composite("read", [a, leaf("get_customer"), a]), {
      code: "CAVE1019",
      subject,
      field: "nestedTools[2]",
      mentions: /"get_order" is listed twice/,
      hint: /List each nested tool once/,
    });
  });

  test("two different definitions with one name are duplicates too", () => {
    expectRule(composite("read", [leaf("get_order"), leaf("get_order")]), {
      code: "CAVE1019",
      subject,
      field: "nestedTools[1]",
      mentions: /"get_order" is listed twice/,
    });
  });

  test("a composite listing itself (by name) is CAVE1019", () => {
    expectRule(composite("read", [leaf("prepare_case")]), {
      code: "CAVE1019",
      subject,
      field: "nestedTools[0]",
      mentions: /lists itself/,
      hint: /Remove it from nestedTools/,
    });
  });

  test.each([["get_order"], [{ name: "get_order", effect: "read" }], [null], [42]])(
    "a child %j that is not a tool() definition is CAVE1019",
    (item) => {
      expectRule(composite("read", [item]), {
        code: "CAVE1019",
        subject,
        field: "nestedTools[0]",
        mentions: /not a tool\(\) definition/,
        hint: /tool\(\) definitions/,
      });
    },
  );

  test.each([["get_order"], [{}], [null]])("nestedTools %j that is not an array is CAVE1019", (nestedTools) => {
    expectRule(composite("read", nestedTools), {
      code: "CAVE1019",
      subject,
      field: "nestedTools",
      mentions: /not an array of tools/,
    });
  });

  test("every broken child is reported", () => {
    const inner = tool(validToolOptions({ name: "inner", effect: "write", nestedTools: [leaf("x")] }) as never);
    const error = expectRule(composite("read", [inner]), {
      code: "CAVE1010",
      subject,
      field: "nestedTools[0]",
      count: 2,
    });
    expect(error.violations.map((v) => v.code)).toEqual(["CAVE1010", "CAVE1011"]);
  });
});
