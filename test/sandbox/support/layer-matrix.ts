import { execFile } from "node:child_process";
import { createSocket } from "node:dgram";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { nodeFeatures } from "../../../runtime/sandbox/node-features.js";
import { osLayerCommand, probeOsLayer } from "../../../runtime/sandbox/os-layer.js";

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL("./layer-probe.mjs", import.meta.url));
const DENY = new URL("../../../runtime/sandbox/child/deny.mjs", import.meta.url);
const PROBE_DIR = fileURLToPath(new URL("./", import.meta.url));
const DENY_DIR = fileURLToPath(new URL("../../../runtime/sandbox/child", import.meta.url));

/** The columns: each layer alone, then all of them as the sandbox starts a child. */
export const COLUMNS = ["no layer", "permission model", "deny layer", "network namespace", "all (as shipped)"] as const;
export type Column = (typeof COLUMNS)[number];

/** attack -> column -> verdict ("through", "stopped: CODE", "failed: CODE", or "n/a: why" for a column this host cannot run). */
export type Matrix = Record<string, Record<Column, string>>;

/**
 * A canary on one ephemeral port of 127.0.0.1 (TCP and UDP) that answers any HTTP request with 204,
 * so that an attempt the layers let through completes ("through") instead of waiting for an answer.
 */
async function answeringCanary(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined).on("close", () => sockets.delete(socket));
    socket.once("data", () => socket.end("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const udp = createSocket("udp4");
  await new Promise<void>((resolve, reject) => udp.once("error", reject).bind(port, "127.0.0.1", resolve));
  return {
    port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  };
}

/**
 * Runs every attack of layer-probe.mjs once per column, against a canary on 127.0.0.1, on the Node
 * running this process. A column that needs the network namespace where this host cannot make one
 * is "n/a".
 */
export async function measureLayers(): Promise<{ matrix: Matrix; namespace: boolean }> {
  const features = nodeFeatures();
  const flag = features.permissionFlag;
  if (flag === null) throw new Error(`Node ${process.version} has no permission model`);
  // The network namespace alone (util-linux unshare, as root), and the OS layer the sandbox ships (bubblewrap).
  const unshare = await unsharePrefix();
  const os = await probeOsLayer();
  const canary = await answeringCanary();
  const dir = mkdtempSync(join(tmpdir(), "cave-layers-"));
  try {
    const permission = [flag, `--allow-fs-read=${PROBE_DIR}`, `--allow-fs-read=${DENY_DIR}`];
    const columns: Record<Column, { prefix: readonly string[] | null; node: readonly string[]; deny: boolean }> = {
      "no layer": { prefix: [], node: [], deny: false },
      "permission model": { prefix: [], node: permission, deny: false },
      "deny layer": { prefix: [], node: [], deny: true },
      "network namespace": { prefix: unshare, node: [], deny: false },
      "all (as shipped)": { prefix: os.available ? [] : null, node: [...permission, "--no-addons"], deny: true },
    };
    const results = {} as Record<Column, Record<string, string> | string>;
    for (const column of COLUMNS) {
      const { prefix, node, deny } = columns[column];
      if (prefix === null) {
        results[column] =
          column === "all (as shipped)"
            ? "n/a: no OS layer (bubblewrap) on this host"
            : "n/a: no network namespace on this host";
        continue;
      }
      const argument = JSON.stringify({ deny: deny ? DENY.href : null, port: canary.port, dir });
      const inner = [process.execPath, ...node, "--no-warnings", PROBE, argument];
      const command =
        column === "all (as shipped)" && os.available
          ? osLayerCommand(os.layer, {
              mounts: [{ path: PROBE_DIR }, { path: DENY_DIR }, { path: dir, write: true }],
              command: inner,
            })
          : [...prefix, ...inner];
      const { stdout } = await run(command[0]!, command.slice(1), { env: {}, cwd: dir, timeout: 120_000 }).catch(
        (error: { message: string; stderr?: string }) => {
          throw new Error(`the ${column} probe failed: ${error.message}\n${error.stderr ?? ""}`);
        },
      );
      results[column] = JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, string>;
    }
    const attacks = Object.keys(results["no layer"] as Record<string, string>);
    const matrix: Matrix = {};
    for (const attack of attacks) {
      matrix[attack] = Object.fromEntries(
        COLUMNS.map((column) => {
          const result = results[column];
          return [column, typeof result === "string" ? result : (result[attack] ?? "missing")];
        }),
      ) as Record<Column, string>;
    }
    return { matrix, namespace: unshare !== null };
  } finally {
    await canary.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A cell as the docs show it: what stopped it, or that it went through. */
function cell(verdict: string): string {
  if (verdict === "through") return "through";
  if (verdict.startsWith("stopped: ")) return `**stopped** (\`${verdict.slice(9)}\`)`;
  return verdict;
}

/** The markdown table of one Node major: a line naming the exact version, then the table. */
export function renderTable(matrix: Matrix): string {
  const features = nodeFeatures();
  const lines = [
    `Measured on Node ${features.version} (${process.platform}-${process.arch}), permission flag \`${features.permissionFlag}\`; ` +
      `"through" means the attempt did what it tried (read the file, reached the canary, started the process).`,
    "",
    `| Attack | ${COLUMNS.join(" | ")} |`,
    `| --- | ${COLUMNS.map(() => "---").join(" | ")} |`,
  ];
  for (const [attack, row] of Object.entries(matrix))
    lines.push(`| ${attack} | ${COLUMNS.map((column) => cell(row[column])).join(" | ")} |`);
  return lines.join("\n");
}

/** The marked block of docs/sandbox.md that holds one major's table. */
export function blockPattern(major: number): RegExp {
  return new RegExp(`<!-- layer-table node=${major} -->\\n([\\s\\S]*?)\\n<!-- /layer-table -->`);
}

/** The rows of a rendered table (what a comparison looks at: the version line differs by patch release). */
export function tableRows(text: string): string[] {
  return text.split("\n").filter((line) => line.startsWith("|"));
}

/** `unshare --net` (root, or with a user namespace), or null where this host cannot make a network namespace. */
async function unsharePrefix(): Promise<readonly string[] | null> {
  for (const prefix of [
    ["unshare", "--net", "--"],
    ["unshare", "--map-root-user", "--net", "--"],
  ]) {
    try {
      await run(prefix[0]!, [...prefix.slice(1), process.execPath, "--version"], { env: {}, timeout: 10_000 });
      return prefix;
    } catch {
      // the next way, or none
    }
  }
  return null;
}
