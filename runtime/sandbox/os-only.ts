import type { LockedSandbox, LockedTool } from "../../src/contract/lock.js";

/**
 * The one rule behind "without the OS layer, less is allowed" (docs/sandbox.md): the powers a tool's locked sandbox
 * profile grants that only the OS layer can hold to their locked bounds, in plain words, one line per power; [] when
 * the Node layers can enforce the whole profile. Every such power is listed here and nowhere else: filesystem scopes
 * (Node's permission model follows symbolic links out of a granted folder; the OS layer's mounts do not), scoped
 * egress and secrets (the broker's socket is confined by the mount and network namespaces), and native addons. A tool with any is refused wherever its child would
 * run without the OS layer: at createRuntime() and in cave verify where that is known, else at the call.
 */
export function osOnlyPowers(sandbox: LockedSandbox): string[] {
  const powers: string[] = [];
  for (const scope of sandbox.fs?.write ?? []) powers.push(`write access to ${scope}`);
  for (const scope of sandbox.fs?.read ?? []) powers.push(`read access to ${scope}`);
  // Egress goes through a broker socket bound into the child: without a mount and network namespace that socket is a
  // path any process of the host's user may reach, and nothing stops the child's other routes but the deny layer.
  for (const host of sandbox.egress) powers.push(`egress to ${host}`);
  for (const name of Object.keys(sandbox.secrets).sort()) powers.push(`the secret ${name}`);
  // A native addon runs machine code Node's permission model does not see.
  if (sandbox.addons === true) powers.push("native addons");
  return powers;
}

/**
 * The lock's `osLayerTools`: the sandboxed tools with a power only the OS layer enforces, sorted. The compiler writes it
 * so that start-up can check them without reading every entry; the runtime holds each entry to it on first read.
 */
export function osLayerTools(tools: Readonly<Record<string, LockedTool>>): string[] {
  return Object.keys(tools)
    .filter((name) => needsOsLayer(tools[name]!))
    .sort();
}

/** The tools of `tools` with a power only the OS layer enforces, by name, each with those powers. */
export function osOnlyTools(
  tools: Readonly<Record<string, LockedTool>>,
): { readonly name: string; readonly tool: LockedTool; readonly powers: string[] }[] {
  return Object.keys(tools)
    .sort()
    .map((name) => ({ name, tool: tools[name]!, powers: osOnlyPowers(tools[name]!.sandbox) }))
    .filter(({ powers }) => powers.length > 0);
}

/** Whether a tool is one of the lock's `osLayerTools`. */
export function needsOsLayer(tool: LockedTool): boolean {
  return tool.sandbox.mode === "required" && osOnlyPowers(tool.sandbox).length > 0;
}

/** OS_LAYER_REQUIRED's message: the tool, its powers, why the OS layer is not in use, and what to do. */
export function osLayerRequired(name: string, powers: readonly string[], why: string): string {
  return `tool ${JSON.stringify(name)} is locked with powers only the sandbox's OS layer can enforce (${powers.join(", ")}), and the OS layer is not in use here (${why}); it is not run. Install bubblewrap and let it create namespaces, and use isolation "auto" or "os"; or remove those powers from its sandboxProfile and rebuild`;
}
