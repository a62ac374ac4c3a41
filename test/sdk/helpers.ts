import { expect } from "vitest";
import { CaveError, type CaveCode } from "../../src/index.js";

/** Runs fn and returns the CaveError it throws; anything else (or no throw) fails the test. */
export function caveError(fn: () => unknown): CaveError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CaveError) return error;
    throw error;
  }
  throw new Error("expected a CaveError, but the call succeeded");
}

export interface Expected {
  code: CaveCode;
  /** What the error is about: `tool "x"`, `agent "y"`, `artifact()`, `schema.string()`... */
  subject: string;
  /** The option path, e.g. "timeout" or "sandboxProfile.env[0]". */
  field: string;
  /** Something the hint must say (what to do). */
  hint?: string | RegExp;
  /** Something the message must name (usually the bad value). */
  mentions?: string | RegExp;
  /** How many rules broke; 1 unless the case breaks several on purpose. */
  count?: number;
}

/**
 * Asserts the one contract every SDK error keeps: the exact code, a message that starts with the
 * code, names the subject and the field, and ends with a hint saying what to do.
 */
export function expectRule(fn: () => unknown, expected: Expected): CaveError {
  const error = caveError(fn);
  expect(error.code).toBe(expected.code);
  expect(error.subject).toBe(expected.subject);
  expect(error.field).toBe(expected.field);
  expect(error.violations).toHaveLength(expected.count ?? 1);
  expect(error.message.startsWith(`${expected.code} ${expected.subject}, ${expected.field}: `)).toBe(true);
  expect(error.hint.trim().length).toBeGreaterThan(10);
  expect(error.message).toContain(error.hint);
  if (expected.hint !== undefined) expect(error.hint).toMatch(expected.hint);
  if (expected.mentions !== undefined) expect(error.message).toMatch(expected.mentions);
  return error;
}

/** Options of a valid read tool; tests override or remove one field at a time. */
export function validToolOptions(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "lookup_order",
    description: "Look up one order by its id.",
    effect: "read",
    execute: () => ({ ok: true }),
    ...overrides,
  };
}

export function without(options: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...options };
  delete copy[key];
  return copy;
}

/** String matcher for a literal text (escaped for RegExp). */
export function literally(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}
