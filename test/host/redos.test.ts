import { describe, expect, it } from "vitest";
import { compileValidators } from "../../compiler/validators/index.js";
import { redosVerdict } from "../../compiler/validators/redos.js";

/**
 * Issue 13 item 2: a pattern the host's validator runs (a tool's output pattern, an argument pattern, a
 * patternProperties key) that backtracks super-linearly would stall the host past any deadline. The build refuses
 * it with a located diagnostic; linear patterns still compile; what the checker cannot prove (backreferences,
 * lookaround) is refused as unproven, the same way on every machine.
 */
describe("patterns with super-linear backtracking", () => {
  it("are refused at build with CAVE6180, naming the owner, the place in the schema, the complexity and an attack", async () => {
    const result = await compileValidators("/project", ".cave", [
      {
        owner: 'tool "t" output',
        jsonSchema: { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } },
        at: { file: "tools.ts", line: 3, column: 7 },
      },
      { owner: 'tool "u" input', jsonSchema: { type: "string", pattern: "^[a-z]+(?:-[a-z]+)*$" } },
    ]);
    expect(result.diagnostics).toHaveLength(1);
    const [d] = result.diagnostics;
    expect(d).toMatchObject({ code: "CAVE6180", severity: "error", file: "tools.ts", line: 3, column: 7 });
    expect(d!.message).toContain(
      'pattern "^(a+)+$" at #/properties/code can take super-linear time: it backtracks in exponential time',
    );
    expect(result.validators.size).toBe(1);
  }, 120_000);

  it("proves linear patterns, refuses polynomial ones, and refuses what it cannot analyse (a backreference) as unproven", () => {
    expect(redosVerdict("^[a-zA-Z][a-zA-Z0-9_-]{0,127}$")).toEqual({ linear: true });
    expect(redosVerdict("^[^@]+@[^@]+$")).toEqual({ linear: true });
    expect(redosVerdict(".*a.*a.*a")).toMatchObject({ linear: false, why: expect.stringContaining("polynomial") });
    expect(redosVerdict("(\\d+)\\1")).toMatchObject({
      linear: false,
      why: expect.stringContaining("could not be proven to run in linear time (it uses a backreference"),
    });
    expect(redosVerdict("^(?=[a-z])[a-z0-9_]{0,30}$")).toEqual({ linear: true });
  }, 120_000);
});
