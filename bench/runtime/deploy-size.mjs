// What a locked deploy installs (issue 20: a runtime-only deploy under 5 MB), side by side in one run: the size of
// node_modules after `npm ci --omit=dev` in a deploy project that depends only on
//  - cave-runtime: the runtime as its own package (scripts/pack-runtime.mjs), or
//  - cave: the whole package (compiler and its dependencies included), as a deploy had to install it before,
// each from a local tarball (`npm pack`); their dependencies come from the registry. Then, in the runtime-only
// deploy, a built 10-tool project (nine-project.mjs) is copied without node_modules, and cave-runtime runs it:
// createRuntime + one call, and the trimmed tokenizer counts a text, so the small install is shown to work.
// Usage: npm run build && node bench/runtime/deploy-size.mjs
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { folderSize } from "../folder-size.mjs";
import { ARGS, buildNineProject } from "./nine-project.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const NPM_QUIET = ["--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"];

/** A deploy project depending only on `tarball`, installed as a deploy installs: npm ci --omit=dev. */
function deploy(work, name, tarball) {
  const dir = join(work, `deploy-${name}`);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: `deploy-${name}`, private: true, type: "module", dependencies: { [name]: `file:${tarball}` } }, null, 2)}\n`,
  );
  execFileSync("npm", ["install", "--package-lock-only", ...NPM_QUIET], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  execFileSync("npm", ["ci", "--omit=dev", ...NPM_QUIET], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  const disk =
    Number(execFileSync("du", ["-sk", join(dir, "node_modules")], { encoding: "utf8" }).split("\t")[0]) * 1024;
  return { dir, ...folderSize(join(dir, "node_modules")), disk };
}

/** Runs the built project from the runtime-only deploy: one call, and one token count with the trimmed tokenizer. */
function smoke(dir, project) {
  const root = join(dir, "project");
  cpSync(project, root, { recursive: true, filter: (source) => !source.endsWith("node_modules") });
  const script = [
    `import { createRuntime } from "cave-runtime";`,
    `const runtime = await createRuntime({ root: ${JSON.stringify(root)}, mode: "host" });`,
    `const outcome = await runtime.call(runtime.toolNames[0], ${JSON.stringify(ARGS)});`,
    `if (!outcome.ok) throw new Error(outcome.error.message);`,
    `process.stdout.write(JSON.stringify(outcome.content));`,
  ].join("\n");
  const called = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: dir, encoding: "utf8" });
  // From inside the installed package, so the bundled (trimmed) gpt-tokenizer is the one resolved.
  const count = `const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base"); process.stdout.write(String(countTokens("hello, runtime-only deploy")));`;
  const tokens = execFileSync(process.execPath, ["--input-type=module", "-e", count], {
    cwd: join(dir, "node_modules", "cave-runtime"),
    encoding: "utf8",
  });
  return { called, tokens: Number(tokens) };
}

const work = mkdtempSync(join(tmpdir(), "cave-deploy-size-"));
try {
  const runtimeTarball = execFileSync(process.execPath, [join(repoRoot, "scripts", "pack-runtime.mjs"), work], {
    encoding: "utf8",
  }).trim();
  const caveTarball = join(
    work,
    execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], {
      cwd: repoRoot,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .at(-1),
  );
  const runtimeOnly = deploy(work, "cave-runtime", runtimeTarball);
  const whole = deploy(work, "cave", caveTarball);
  const project = join(work, "project");
  mkdirSync(project);
  buildNineProject(project, repoRoot, 10);
  const { called, tokens } = smoke(runtimeOnly.dir, project);

  const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
  console.log(
    `node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}\n`,
  );
  console.log("| deploy depends on | node_modules after npm ci --omit=dev (file bytes) | files | on disk (du) |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const [name, size] of [
    ["cave-runtime", runtimeOnly],
    ["cave (whole package)", whole],
  ])
    console.log(`| ${name} | ${mb(size.bytes)} | ${size.files} | ${mb(size.disk)} |`);
  console.log(
    `\nruntime-only / whole: ${(runtimeOnly.bytes / whole.bytes).toFixed(3)} (target: under 5 MB; ${runtimeOnly.bytes < 5e6 ? "met" : "missed"})`,
  );
  console.log(`smoke test from the runtime-only deploy: one call gave ${called}; o200k_base counted ${tokens} tokens`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
