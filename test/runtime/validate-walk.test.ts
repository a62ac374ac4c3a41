// The pipeline with validating walks (compiler/validators/canonical-checks.ts): once a tool's validator is loaded,
// its schema's walk decides valid arguments and results without Ajv; a value it does not call valid still gets
// Ajv's verdict and issues, so a refused call's INPUT_INVALID message is the one a cold call gets.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { builtProject, freshProbe, probe } from "./helpers.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("pipeline");
});
afterAll(removeCopies);
beforeEach(() => {
  freshProbe();
});

const host = (): Promise<Runtime> => createRuntime({ root, mode: "host" });
const ASTRAL = "\u{1F600}";

async function messageOf(runtime: Runtime, args: unknown): Promise<string> {
  const outcome = await runtime.call("lookup", args);
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return "";
  expect(outcome.error.code).toBe("INPUT_INVALID");
  return outcome.error.message;
}

describe("validating walks in the pipeline", () => {
  it("refuses a bad argument with the same INPUT_INVALID message, warm or cold", async () => {
    for (const bad of [{ region: "E" }, { region: ASTRAL }, { region: 5 }, {}, { region: "EU", extra: 1 }]) {
      const cold = await messageOf(await host(), bad);
      const runtime = await host();
      // Twice (different arguments: the repeat guard): the first call loads the validator, the second takes the
      // walk that validates.
      for (const region of ["EU", "US"]) expect((await runtime.call("lookup", { region })).ok).toBe(true);
      expect(await messageOf(runtime, bad), JSON.stringify(bad)).toBe(cold);
    }
    expect(await messageOf(await host(), { region: "E" })).toBe(
      'the arguments for tool "lookup" do not match its input schema: at /region: must NOT have fewer than 2 characters; fix the arguments',
    );
    expect(probe().calls.lookup).toBe(10);
  });

  it("counts code points as Ajv does: two astral characters are two", async () => {
    const runtime = await host();
    for (const region of [ASTRAL.repeat(2), `${ASTRAL}a`])
      expect(await runtime.call("lookup", { region })).toMatchObject({ ok: true, content: { region, days: 14 } });
    expect(await messageOf(runtime, { region: ASTRAL })).toContain("/region");
  });
});
