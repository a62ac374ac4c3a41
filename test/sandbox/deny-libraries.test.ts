// Issue 11 item 4: the deny layer (sandbox children and build-time evaluation) must not break ordinary libraries at
// import. `got` failed ("Class constructor Socket cannot be invoked without 'new'": Node's TLSSocket calls
// net.Socket, which the layer had replaced with a class); `sharp` failed writing process.report, which was frozen.
// Each is imported in a real child with the layer installed, from the repository's node_modules.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissionFlag } from "../../runtime/sandbox/layers.js";
import { REPO_ROOT } from "../support/golden.js";
import { startCanary, type Canary } from "./support/canary.js";

let canary: Canary;
beforeAll(async () => {
  canary = await startCanary();
});
afterAll(async () => {
  await canary.close();
});

const deny = pathToFileURL(join(REPO_ROOT, "runtime/sandbox/child/deny.mjs")).href;

/** Runs `body` in a child with the deny layer installed (and the permission model unless `permission` is false); resolves with its JSON line. */
function inChild(body: string, permission = true): Promise<Record<string, unknown>> {
  const script = `
import { Socket } from "node:net";
import { classifyThrown, installDenyLayer } from ${JSON.stringify(deny)};
const channel = new Socket({ fd: 3, readable: true, writable: true });
installDenyLayer({ selfPid: process.pid, pipe: channel._handle });
const out = {};
try { ${body} } catch (error) { out.threw = String(error?.code) + ": " + String(error?.message); out.outcome = classifyThrown(error); }
process.stdout.write(JSON.stringify(out) + "\\n");
process.exit(0);
`;
  const flags = permission ? [permissionFlag()!, `--allow-fs-read=${REPO_ROOT}/`] : [];
  const child = spawn(process.execPath, [...flags, "--no-warnings", "--input-type=module", "--eval", script], {
    cwd: REPO_ROOT,
    env: {},
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    child.on("close", () => {
      try {
        resolve(JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>);
      } catch {
        reject(new Error(`the child said nothing parsable: ${stdout} ${stderr}`));
      }
    });
  });
}

describe("ordinary libraries under the deny layer", () => {
  it("got imports, and a request through it is refused (NETWORK_REFUSED) with nothing reaching the canary", async () => {
    const before = { ...canary.seen };
    const seen = await inChild(`
      const { default: got } = await import("got");
      out.imported = typeof got;
      try { await got("http://127.0.0.1:${canary.port}/", { retry: { limit: 0 }, timeout: { request: 2000 } }); out.reached = true; }
      catch (error) { out.requestOutcome = classifyThrown(error); out.requestError = String(error?.code) + " " + String(error?.message) + " / " + String(error?.cause?.code) + " " + String(error?.cause?.message); }
    `);
    expect(seen, JSON.stringify(seen)).toMatchObject({ imported: "function", requestOutcome: "NETWORK_REFUSED" });
    expect(seen.threw).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(canary.seen).toEqual(before);
  });

  it("Node's own TLSSocket (which calls net.Socket without new) can be constructed; connecting it is refused", async () => {
    const seen = await inChild(`
      const tls = await import("node:tls");
      out.constructed = typeof new tls.TLSSocket(null);
      try { tls.connect({ port: ${canary.port}, host: "127.0.0.1" }); } catch (error) { out.connect = classifyThrown(error); }
    `);
    expect(seen).toMatchObject({ constructed: "object", connect: "NETWORK_REFUSED" });
  });

  it.each([
    ["the deny layer alone", false],
    ["the deny layer and the permission model", true],
  ])(
    "sharp under %s gets past process.report (detect-libc) and stops only at its native addon, which the sandbox refuses",
    async (_, permission) => {
      const seen = await inChild(
        `
      process.report.excludeNetwork = true;
      out.glibc = typeof process.report.getReport().header.glibcVersionRuntime;
      const sharp = (await import("sharp")).default;
      out.imported = typeof sharp;
    `,
        permission,
      );
      expect(seen.glibc).toBe("string");
      // Native addons need the locked addons power and the OS layer (issue 11); until then process.dlopen is refused.
      expect(String(seen.threw)).toContain("ERR_SANDBOX_DENIED: process.dlopen is denied");
      expect(String(seen.threw)).not.toMatch(/read only|read-only|frozen|Cannot assign|report/);
    },
  );

  it("writing a report file or changing where reports go is still refused", async () => {
    const seen = await inChild(`
      try { process.report.writeReport(); } catch (error) { out.write = String(error.code); }
      try { process.report.directory = "/tmp"; } catch (error) { out.directory = String(error.code); }
      try { process.report.reportOnFatalError = true; } catch (error) { out.fatal = String(error.code); }
    `);
    expect(seen).toEqual({ write: "ERR_SANDBOX_DENIED", directory: "ERR_SANDBOX_DENIED", fatal: "ERR_SANDBOX_DENIED" });
  });
});
