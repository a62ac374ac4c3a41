import { describe, expect, test } from "vitest";
import { z } from "zod";
import { CaveError, agent, artifact, schema, tool, type CaveCode } from "../../src/index.js";
import { CODES } from "../../src/contract/codes.js";
import { SDK_CODES } from "../../src/contract/codes/sdk.js";
import { caveError, validToolOptions } from "./helpers.js";

const define = (overrides: Record<string, unknown>) => () => tool(validToolOptions(overrides) as never);
const child = (name: string, effect: string, extra: Record<string, unknown> = {}) =>
  tool(validToolOptions({ name, effect, ...extra }) as never);

/** One trigger per authoring code, so that no code of the registry is dead. */
const TRIGGERS: Record<keyof typeof SDK_CODES, () => unknown> = {
  CAVE1001: define({ name: "1st" }),
  CAVE1002: define({ name: "cave_page" }),
  CAVE1003: define({ effect: undefined }),
  CAVE1004: define({ effect: "delete" }),
  CAVE1005: define({ timeout: "5000" }),
  CAVE1006: define({ result: "paged" }),
  CAVE1007: define({ timout: 5 }),
  CAVE1008: define({ sandboxProfile: { network: true } }),
  CAVE1009: define({ sandboxProfile: { env: ["AWS_SECRET_ACCESS_KEY"] } }),
  CAVE1010: define({
    effect: "write",
    nestedTools: [child("inner", "write", { nestedTools: [child("leaf", "read")] })],
  }),
  CAVE1011: define({ effect: "read", nestedTools: [child("refund", "write")] }),
  CAVE1012: define({ input: { type: "object" } }),
  CAVE1013: define({ input: z.string(), schemaSemanticsSHA256: "ABC" }),
  CAVE1014: define({ description: "" }),
  CAVE1015: define({ execute: undefined }),
  CAVE1016: define({ allowRepeat: "true" }),
  CAVE1017: define({ sandbox: "off" }),
  CAVE1018: define({ sandboxProfile: { env: "LOG_LEVEL" } }),
  CAVE1019: define({ nestedTools: ["get_order"] }),
  CAVE1020: () => artifact({ maxInlineTokens: 0 }),
  CAVE1021: () => agent({ name: "support desk", tools: [child("a", "read")] }),
  CAVE1022: () => agent({ name: "desk", tools: [child("a", "read"), child("a", "write")] }),
  CAVE1023: () => agent({ name: "desk", tools: [] }),
  CAVE1024: () => tool(null as never),
  CAVE1025: () => schema.string({ minLenght: 1 } as never),
  CAVE1160: define({ sandboxProfile: { fs: { read: ["/etc/app"] } } }),
  CAVE1161: define({ effect: "write", sandboxProfile: { fs: { write: ["data/*.db"] } } }),
  CAVE1162: define({ effect: "read", sandboxProfile: { fs: { write: ["data/orders"] } } }),
  CAVE1163: define({ effect: "write", sandbox: "none", sandboxProfile: { fs: { write: ["data/orders"] } } }),
  CAVE1260: define({ effect: "external", sandboxProfile: { egress: ["https://api.github.com"] } }),
  CAVE1261: define({ effect: "read", sandboxProfile: { egress: ["api.github.com"] } }),
  CAVE1262: define({
    effect: "external",
    sandboxProfile: {
      egress: ["api.github.com"],
      secrets: { GITHUB_TOKEN: { hosts: ["api.github.com"], format: "Bearer" } },
    },
  }),
  CAVE1263: define({
    effect: "external",
    sandboxProfile: { egress: ["api.github.com"], secrets: { GITHUB_TOKEN: { hosts: ["uploads.github.com"] } } },
  }),
  CAVE1264: define({ effect: "external", sandbox: "none", sandboxProfile: { egress: ["api.github.com"] } }),
};

describe("errors are data", () => {
  test.each(Object.keys(SDK_CODES) as (keyof typeof SDK_CODES)[])("%s is thrown by its rule", (code) => {
    const error = caveError(TRIGGERS[code]);
    expect(error.code).toBe(code);
    expect(error.violations.map((v) => v.code)).toEqual([code]);
  });

  test("the authoring codes are CAVE1001.. in order with no gaps, then each session's range (COORD: x160-x179 and the like), each with a title and a doc", () => {
    const codes = Object.keys(SDK_CODES);
    const first = codes.filter((code) => Number(code.slice(4)) < 1100);
    expect(first).toEqual(first.map((_, i) => `CAVE${1001 + i}`));
    expect(codes).toEqual([...codes].sort());
    for (const code of codes) expect(code).toMatch(/^CAVE1\d{3}$/);
    for (const code of codes) {
      const entry = SDK_CODES[code as keyof typeof SDK_CODES];
      expect(entry.title.length, code).toBeGreaterThan(5);
      expect(entry.doc.length, code).toBeGreaterThan(20);
    }
  });

  test("the authoring codes are in the one registry, unchanged", () => {
    for (const [code, entry] of Object.entries(SDK_CODES)) expect(CODES[code as CaveCode]).toEqual(entry);
  });

  test("a CaveError is an Error with a stable code, the subject, the field, the hint and every violation", () => {
    const error = caveError(define({ timeout: 0, allowRepeat: 1 }));
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(CaveError);
    expect(error.name).toBe("CaveError");
    expect(error.code).toBe("CAVE1005");
    expect(error.subject).toBe('tool "lookup_order"');
    expect(error.field).toBe("timeout");
    expect(error.hint).toBe("Leave it out for the default, 30000 ms.");
    expect(error.message).toBe(
      'CAVE1005 tool "lookup_order", timeout: timeout 0 is not a positive integer of milliseconds up to 2147483647. Leave it out for the default, 30000 ms. (and 1 more: CAVE1016 allowRepeat)',
    );
    expect(error.violations.map((v) => [v.code, v.field])).toEqual([
      ["CAVE1005", "timeout"],
      ["CAVE1016", "allowRepeat"],
    ]);
  });

  test("a CaveError cannot be made without a violation", () => {
    expect(() => new CaveError('tool "x"', [])).toThrow(TypeError);
  });
});
