import { describe, expect, test } from "vitest";
import { ARTIFACT_DEFAULTS, artifact, tool } from "../../src/index.js";
import { expectRule, validToolOptions } from "./helpers.js";

const make = (options: unknown) => () => artifact(options as never);

describe("artifact()", () => {
  test("defaults: strategy page, maxInlineTokens 1200, recovery exact_ccr", () => {
    expect({ ...artifact() }).toEqual({
      [Symbol.for("cave.artifact")]: true,
      strategy: "page",
      maxInlineTokens: 1200,
      recovery: "exact_ccr",
    });
    expect({ ...artifact({}) }).toEqual({ ...artifact() });
    expect(ARTIFACT_DEFAULTS).toEqual({ strategy: "page", maxInlineTokens: 1200, recovery: "exact_ccr" });
    expect(Object.isFrozen(ARTIFACT_DEFAULTS)).toBe(true);
  });

  test("an option given as undefined takes its default, not undefined", () => {
    expect({ ...artifact({ strategy: undefined, maxInlineTokens: undefined, recovery: undefined }) }).toEqual({
      ...artifact(),
    });
  });

  test("keeps each option given and defaults the others", () => {
    expect(artifact({ maxInlineTokens: 800 })).toMatchObject({
      strategy: "page",
      maxInlineTokens: 800,
      recovery: "exact_ccr",
    });
    expect(artifact({ strategy: "compress" })).toMatchObject({
      strategy: "compress",
      maxInlineTokens: 1200,
      recovery: "exact_ccr",
    });
    expect(artifact({ strategy: "exact_ccr" })).toMatchObject({ strategy: "exact_ccr", recovery: "exact_ccr" });
    expect(artifact({ recovery: "none" })).toMatchObject({ strategy: "page", recovery: "none" });
    expect(artifact({ maxInlineTokens: 1 }).maxInlineTokens).toBe(1);
  });

  test("is frozen", () => {
    const policy = artifact({ maxInlineTokens: 800 });
    expect(Object.isFrozen(policy)).toBe(true);
    expect(() => {
      (policy as { maxInlineTokens: number }).maxInlineTokens = 5;
    }).toThrow(TypeError);
  });

  test.each([["inline"], ["auto"], ["paged"], ["PAGE"], [""], [1], [null]])("strategy %j is CAVE1020", (strategy) => {
    expectRule(make({ strategy }), {
      code: "CAVE1020",
      subject: "artifact()",
      field: "strategy",
      mentions: /is not one of page, compress, exact_ccr/,
      hint: /default, page/,
    });
  });

  test.each([[0], [-1], [1.5], ["1200"], [Number.NaN], [Number.POSITIVE_INFINITY], [2 ** 53], [null], [true]])(
    "maxInlineTokens %j is CAVE1020 (no coercion)",
    (maxInlineTokens) => {
      expectRule(make({ maxInlineTokens }), {
        code: "CAVE1020",
        subject: "artifact()",
        field: "maxInlineTokens",
        mentions: /is not a positive integer/,
        hint: /1200 \(the default\)/,
      });
    },
  );

  test.each([["stored"], ["exact-ccr"], ["page"], [false], [null]])("recovery %j is CAVE1020", (recovery) => {
    expectRule(make({ recovery }), {
      code: "CAVE1020",
      subject: "artifact()",
      field: "recovery",
      mentions: /is not one of exact_ccr, none/,
      hint: /default, exact_ccr/,
    });
  });

  test('strategy "exact_ccr" with recovery "none" contradicts itself: CAVE1020', () => {
    expectRule(make({ strategy: "exact_ccr", recovery: "none" }), {
      code: "CAVE1020",
      subject: "artifact()",
      field: "recovery",
      mentions: /cannot have recovery "none"/,
      hint: /drop recovery or choose another strategy/,
    });
  });

  test.each([
    ["maxInlineToken", /Did you mean "maxInlineTokens"\?/],
    ["stratgy", /Did you mean "strategy"\?/],
    ["ttl", /^Known options: strategy, maxInlineTokens, recovery\.$/],
  ])("the unknown key %s is CAVE1007", (key, hint) => {
    expectRule(make({ [key]: 1 }), {
      code: "CAVE1007",
      subject: "artifact()",
      field: key,
      mentions: `unknown option "${key}"`,
      hint,
    });
  });

  test.each([[null], ["page"], [[]], [800]])("%j instead of an options object is CAVE1024", (options) => {
    expectRule(make(options), {
      code: "CAVE1024",
      subject: "artifact()",
      field: "options",
      hint: /artifact\(\{ maxInlineTokens: 800 \}\)/,
    });
  });

  test("a forged object with the right fields is not an artifact() and is refused as a result (CAVE1006)", () => {
    expectRule(() => tool(validToolOptions({ result: { ...ARTIFACT_DEFAULTS } }) as never), {
      code: "CAVE1006",
      subject: 'tool "lookup_order"',
      field: "result",
    });
  });
});
