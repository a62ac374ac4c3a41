// A sandboxed tool's stdout and stderr are capped per request in the child (runtime/sandbox/child/output.mjs): past
// the cap the rest is dropped with one note, so a flood never holds up an answer, and a new request has a new budget.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { OUTPUT_CAP_BYTES } from "../../runtime/sandbox/child/output.mjs";

const module = fileURLToPath(new URL("../../runtime/sandbox/child/output.mjs", import.meta.url));

function run(script: string): { stdout: string; stderr: string } {
  const child = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", `import { installOutputCap } from ${JSON.stringify(module)};\n${script}`],
    { encoding: "utf8", maxBuffer: 64 * 1_048_576 },
  );
  expect(child.status, child.stderr.slice(-2000)).toBe(0);
  return { stdout: child.stdout, stderr: child.stderr };
}

describe("the per-request output cap", () => {
  it("passes output under the cap through unchanged, on both streams", () => {
    const { stdout, stderr } = run(
      `const cap = installOutputCap(); cap.reset(); console.log("to stdout"); console.error("to stderr"); await cap.flushed();`,
    );
    expect(stdout).toBe("to stdout\n");
    expect(stderr).toBe("to stderr\n");
  });

  it("drops what a request writes past the cap, says so once, and calls every write's callback", () => {
    const { stderr } = run(`
      const cap = installOutputCap();
      cap.reset();
      let callbacks = 0;
      for (let i = 0; i < 48; i++) process.stderr.write("y".repeat(64 * 1024), () => { callbacks += 1; });
      await cap.flushed();
      process.stderr.write("", () => {});
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (callbacks !== 48) throw new Error("callbacks: " + callbacks);
    `);
    const note = `[cave: this call wrote over ${OUTPUT_CAP_BYTES} bytes to stdout and stderr; the rest is dropped]`;
    expect(stderr.split(note)).toHaveLength(2);
    expect(stderr.replace(`\n${note}\n`, "")).toBe("y".repeat(OUTPUT_CAP_BYTES));
  });

  it("gives each request a new budget", () => {
    const { stdout } = run(`
      const cap = installOutputCap();
      for (const request of ["a", "b"]) {
        cap.reset();
        process.stdout.write(request.repeat(${OUTPUT_CAP_BYTES}));
        process.stdout.write(request.repeat(10));
        await cap.flushed();
      }
    `);
    const note = `\n[cave: this call wrote over ${OUTPUT_CAP_BYTES} bytes to stdout and stderr; the rest is dropped]\n`;
    expect(stdout).toBe("a".repeat(OUTPUT_CAP_BYTES) + note + "b".repeat(OUTPUT_CAP_BYTES) + note);
  });
});
