import { describe, expect, test } from "vitest";
import { agent, tool } from "../../src/index.js";
import { expectRule, validToolOptions } from "./helpers.js";

const named = (name: string) => tool(validToolOptions({ name }) as never);
const getOrder = named("get_order");
const getCustomer = named("get_customer");
const make = (options: unknown) => () => agent(options as never);

describe("agent()", () => {
  test("returns a frozen definition holding the tools in order", () => {
    const tools = [getOrder, getCustomer];
    const desk = agent({ name: "support_desk", description: "Answers customer questions.", tools });
    expect({ ...desk }).toEqual({
      [Symbol.for("cave.agent")]: true,
      name: "support_desk",
      description: "Answers customer questions.",
      tools: [getOrder, getCustomer],
    });
    expect(Object.isFrozen(desk)).toBe(true);
    expect(Object.isFrozen(desk.tools)).toBe(true);
    tools.push(named("late"));
    expect(desk.tools).toHaveLength(2);
  });

  test("description is optional and stays undefined", () => {
    expect(agent({ name: "desk", tools: [getOrder] }).description).toBeUndefined();
  });

  test("two tools with one name fail, naming both positions (CAVE1022)", () => {
    expectRule(make({ name: "support_desk", tools: [getOrder, getCustomer, named("get_order")] }), {
      code: "CAVE1022",
      subject: 'agent "support_desk"',
      field: "tools[2]",
      mentions: 'tools[0] and tools[2] are both named "get_order"',
      hint: /Rename one of them/,
    });
  });

  test("the same definition listed twice is a duplicate too", () => {
    expectRule(make({ name: "support_desk", tools: [getOrder, getOrder] }), {
      code: "CAVE1022",
      subject: 'agent "support_desk"',
      field: "tools[1]",
      mentions: "tools[0] and tools[1]",
    });
  });

  test("every duplicate is reported against its first definition", () => {
    const error = expectRule(make({ name: "desk", tools: [getOrder, getCustomer, getOrder, getCustomer, getOrder] }), {
      code: "CAVE1022",
      subject: 'agent "desk"',
      field: "tools[2]",
      count: 3,
    });
    expect(error.violations.map((v) => v.message)).toEqual([
      'tools[0] and tools[2] are both named "get_order"',
      'tools[1] and tools[3] are both named "get_customer"',
      'tools[0] and tools[4] are both named "get_order"',
    ]);
  });

  test.each([[""], ["support desk"], ["1desk"], [42]])("the name %j is CAVE1021", (name) => {
    expectRule(make({ name, tools: [getOrder] }), {
      code: "CAVE1021",
      subject: typeof name === "string" ? `agent ${JSON.stringify(name)}` : "agent()",
      field: "name",
      hint: /letter first/,
    });
  });

  test("a missing name is CAVE1021", () => {
    expectRule(make({ tools: [getOrder] }), { code: "CAVE1021", subject: "agent()", field: "name" });
  });

  test.each([[[]], ["get_order"], [undefined], [null]])("tools %j is CAVE1023", (tools) => {
    expectRule(make({ name: "desk", tools }), {
      code: "CAVE1023",
      subject: 'agent "desk"',
      field: "tools",
      hint: /non-empty array of tool\(\) definitions/,
    });
  });

  test.each([["get_order"], [validToolOptions()], [null]])(
    "a tools entry %j that is not a tool() definition is CAVE1023",
    (item) => {
      expectRule(make({ name: "desk", tools: [getOrder, item] }), {
        code: "CAVE1023",
        subject: 'agent "desk"',
        field: "tools[1]",
        mentions: /not a tool\(\) definition/,
      });
    },
  );

  test.each([[""], ["  "], [7]])("description %j is CAVE1014", (description) => {
    expectRule(make({ name: "desk", description, tools: [getOrder] }), {
      code: "CAVE1014",
      subject: 'agent "desk"',
      field: "description",
      hint: /describe what the agent is for/,
    });
  });

  test.each([
    ["tool", /Did you mean "tools"\?/],
    ["nme", /Did you mean "name"\?/],
    ["model", /^Known options: name, description, tools\.$/],
  ])("the unknown key %s is CAVE1007", (key, hint) => {
    expectRule(make({ name: "desk", tools: [getOrder], [key]: "x" }), {
      code: "CAVE1007",
      subject: 'agent "desk"',
      field: key,
      hint,
    });
  });

  test.each([[undefined], [null], ["desk"], [[getOrder]]])("%j instead of an options object is CAVE1024", (options) => {
    expectRule(make(options), {
      code: "CAVE1024",
      subject: "agent()",
      field: "options",
      hint: /agent\(\{ name, tools/,
    });
  });
});
