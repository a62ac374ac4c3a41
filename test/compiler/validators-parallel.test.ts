import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/index.js";
import { REPO_ROOT } from "../support/golden.js";

/**
 * The validators pass's compilers may be started before the schemas are known (build.ts starts them while evaluate
 * runs): the worker thread then sets up Ajv and waits. The code must be the same as compiling on one thread.
 * The worker thread runs the compiled compiler (dist/), so this runs after `npm run build` (as `npm test` does).
 */
const DIST = join(REPO_ROOT, "dist", "compiler", "validators");
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe.skipIf(!existsSync(join(DIST, "parallel.js")))("compilers started ahead", () => {
  it("compile, once the schemas come, what one thread compiles, in input order", async () => {
    const { SchemaCompilers } = (await import(join(DIST, "parallel.js"))) as typeof import("../../compiler/validators/parallel.js");
    const { standaloneCompiler } = (await import(join(DIST, "compile.js"))) as typeof import("../../compiler/validators/compile.js");
    const compilers = SchemaCompilers.start();
    // The worker is set up meanwhile; give it time to be waiting when the schemas arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const schemas = Array.from({ length: 120 }, (_, i) => json(schema.object({ [`f${i}`]: schema.union([schema.literal(`a${i}`), schema.integer({ minimum: i })]) })));
    schemas.splice(60, 0, { type: "string", formt: "email" });
    const compiled = await compilers.compile(schemas);
    const compile = standaloneCompiler();
    expect(compiled).toEqual(schemas.map((one) => compile(one)));
    expect(compiled[60]).toMatchObject({ ok: false, refusal: { code: "CAVE6004" } });
  });

  it("can be closed unused; given few schemas, they compile on this thread", async () => {
    const { SchemaCompilers } = (await import(join(DIST, "parallel.js"))) as typeof import("../../compiler/validators/parallel.js");
    SchemaCompilers.start().close();
    const few = SchemaCompilers.start();
    const compiled = await few.compile([{ type: "integer", maximum: 3 }]);
    expect(compiled).toMatchObject([{ ok: true }]);
    few.close();
  });
});
