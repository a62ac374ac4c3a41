import type { Metafile } from "esbuild";

/**
 * Every input file reachable from an entry through the metafile's import records, including files
 * whose code was tree-shaken away entirely (they are part of the graph the bundle was built from).
 * Keys are esbuild's input names; externals are left out.
 */
export function graphInputs(metafile: Metafile, entry: string): string[] {
  return walkGraph(metafile, entry).inputs;
}

/** The specifiers of the external imports anywhere in an entry's graph (the SDK placeholder, node: builtins, external packages), sorted. */
export function graphExternalImports(metafile: Metafile, entry: string): string[] {
  return walkGraph(metafile, entry).externals;
}

function walkGraph(metafile: Metafile, entry: string): { inputs: string[]; externals: string[] } {
  const seen = new Set<string>();
  const externals = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    if (seen.has(current)) continue;
    const input = metafile.inputs[current];
    if (!input) continue;
    seen.add(current);
    for (const record of input.imports) {
      if (record.external) externals.add(record.path);
      else if (!seen.has(record.path)) stack.push(record.path);
    }
  }
  return { inputs: [...seen].sort(), externals: [...externals].sort() };
}
