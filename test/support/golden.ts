import { existsSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/** Set CAVE_UPDATE_GOLDEN=1 to rewrite expected files instead of comparing; review the result as a diff. */
export const UPDATE_GOLDEN = process.env.CAVE_UPDATE_GOLDEN === "1";

/** Compares text with an expected file (or its absence, when `actual` is null); rewrites it under CAVE_UPDATE_GOLDEN=1. */
export function expectGolden(file: string, actual: string | null): void {
  if (UPDATE_GOLDEN) {
    if (actual === null) rmSync(file, { force: true });
    else writeFileSync(file, actual);
    return;
  }
  const expected = existsSync(file) ? readFileSync(file, "utf8") : null;
  expect(actual, `${file} is stale: run CAVE_UPDATE_GOLDEN=1 npx vitest run and review the diff`).toBe(expected);
}

export const REPO_ROOT = join(import.meta.dirname, "..", "..");
