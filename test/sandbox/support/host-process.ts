import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { REPO_ROOT } from "../../support/golden.js";

const bundled = new Map<string, Promise<string>>();

/**
 * The host runtime in a process of its own (to kill it mid-call, or to watch it exit): the runtime's
 * sources and support/host-script.ts bundled into one .mjs file. The sandbox finds its child entry
 * from runtime/child-entry.ts's own location (sandbox/child/ beside it), so that one file keeps its real location.
 */
export function hostScript(entry = "test/sandbox/support/host-script.ts"): Promise<string> {
  let script = bundled.get(entry);
  script ??= (async () => {
    const out = join(mkdtempSync(join(tmpdir(), "cave-host-")), "host.mjs");
    const childEntry = realpathSync(join(REPO_ROOT, "runtime/child-entry.ts"));
    await build({
      entryPoints: [join(REPO_ROOT, entry)],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "silent",
      banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
      plugins: [
        {
          name: "keep-child-entry-location",
          setup(b) {
            b.onLoad({ filter: /child-entry\.ts$/ }, (args) => {
              if (realpathSync(args.path) !== childEntry) return undefined;
              const source = readFileSync(args.path, "utf8").replaceAll(
                "import.meta.url",
                JSON.stringify(pathToFileURL(childEntry).href),
              );
              return { contents: source, loader: "ts" };
            });
          },
        },
      ],
    });
    return out;
  })();
  bundled.set(entry, script);
  return script;
}

/** Starts the host script (by default support/host-script.ts) with a JSON job; its stdout carries one JSON line per event. */
export async function startHost(
  job: unknown,
  env: NodeJS.ProcessEnv = {},
  entry?: string,
): Promise<{
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: string | null }>;
}> {
  const child = spawn(process.execPath, [await hostScript(entry), JSON.stringify(job)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, ...env },
  });
  const lines: string[] = [];
  let buffered = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => {
    buffered += text;
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts);
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  void exited.then(({ code }) => {
    if (code !== 0 && code !== null && stderr !== "") process.stderr.write(`host script stderr:\n${stderr}\n`);
  });
  return { child, lines, stderr: () => stderr, exited };
}
