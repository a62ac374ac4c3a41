import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, expect } from "vitest";
import { CODES } from "../src/contract/codes.js";
import { expectGolden, REPO_ROOT } from "./support/golden.js";

/** docs/diagnostics.md is generated from the one registry, so every code is documented exactly once. */
function renderDiagnosticsDoc(): string {
  const lines = [
    "# Codes",
    "",
    "Every error and diagnostic Cave reports has a stable code from one registry (`src/contract/codes.ts`).",
    "Codes are never reused. `CAVE1xxx` are authoring rules (thrown by `tool()`/`artifact()`/`agent()`/`schema` and",
    "reported statically by `cave build`); `CAVE2xxx` and up belong to the compiler's passes (2 configuration and",
    "discovery, 3 analysis, 4 staging, 5 evaluation, 6 validators, 7 planning, 8 emitting, 9 lock checks);",
    "UPPER_SNAKE codes are the runtime's call outcomes and start-up errors.",
    "",
    "This file is generated from the registry: run `CAVE_UPDATE_GOLDEN=1 npx vitest run test/docs.test.ts` after changing a code.",
    "",
  ];
  for (const [code, entry] of Object.entries(CODES).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(`## ${code}: ${entry.title}`, "", entry.doc, "");
  }
  return lines.join("\n");
}

describe("docs", () => {
  it("docs/diagnostics.md documents every code of the registry", () => {
    expectGolden(join(REPO_ROOT, "docs", "diagnostics.md"), renderDiagnosticsDoc());
  });

  it("codes are well formed and titles are unique", () => {
    const titles = new Set<string>();
    for (const [code, entry] of Object.entries(CODES)) {
      expect(code).toMatch(/^(CAVE[1-9]\d{3}|[A-Z][A-Z0-9_]+)$/);
      expect(entry.doc.length, code).toBeGreaterThan(20);
      expect(titles.has(entry.title), `duplicate title ${entry.title}`).toBe(false);
      titles.add(entry.title);
    }
  });
});

describe("ARCHITECTURE.md", () => {
  const text = readFileSync(join(REPO_ROOT, "ARCHITECTURE.md"), "utf8");

  it("every repository path it names in backticks exists", () => {
    // A path: a top-level folder of this repository, then anything without spaces (a trailing / or /* names the folder).
    const paths = [
      ...text.matchAll(
        /`((?:src|compiler|runtime|adapters|test|docs|bench|fixtures|scripts|examples|\.ci)\/[^`\s]*)`/g,
      ),
    ].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(50);
    const missing = paths.filter((path) => !existsSync(join(REPO_ROOT, path.replace(/\/\*$/, "").replace(/\/$/, ""))));
    expect(missing).toEqual([]);
  });

  it("README.md links it", () => {
    expect(readFileSync(join(REPO_ROOT, "README.md"), "utf8")).toContain("(ARCHITECTURE.md)");
  });
});
