import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { builtProject, freshProbe } from "./helpers.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("pipeline");
});
afterAll(removeCopies);

// Its own test file (its own process): the module-load counters start at zero here, so they prove
// that the effectful tools' bundle was never even imported.
describe("fixture mode", () => {
  it.each([
    ["write_tool", "write"],
    ["idem_tool", "idempotent"],
    ["ext_tool", "external"],
  ])("blocks %s (%s) with EFFECT_BLOCKED before any of its code runs", async (name, effect) => {
    const probe = freshProbe();
    const runtime = await createRuntime({ root, mode: "fixture" });
    const outcome = await runtime.call(name, { id: "1" });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("EFFECT_BLOCKED");
    expect(outcome.error.message).toContain(`effect ${effect}`);
    expect(outcome.error.message).toContain('mode "host"');
    expect(outcome.receipt).toMatchObject({ tool: name, outcome: "EFFECT_BLOCKED", effectUnknown: false });
    expect(probe.calls[name] ?? 0).toBe(0);
    expect(probe.loads.effects ?? 0).toBe(0);
  });

  it("runs read tools", async () => {
    const probe = freshProbe();
    const runtime = await createRuntime({ root, mode: "fixture" });
    expect(await runtime.call("lookup", { region: "EU" })).toMatchObject({
      ok: true,
      content: { region: "EU", days: 14 },
    });
    expect(probe.calls.lookup).toBe(1);
    expect(probe.loads.effects ?? 0).toBe(0);
  });

  it("host mode runs them", async () => {
    const probe = freshProbe();
    const runtime = await createRuntime({ root, mode: "host" });
    expect(await runtime.call("write_tool", { id: "1" })).toMatchObject({ ok: true, content: { wrote: "1" } });
    expect(probe.calls.write_tool).toBe(1);
  });
});
