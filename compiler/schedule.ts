import type { BuildContext } from "./context.js";
import type { Bundled } from "./stage/index.js";
import type { AnalyseResult } from "./types.js";

/**
 * How a build overlaps its first two passes; nothing here changes what they compute.
 *
 * The passes load only when a build runs them (a whole-build cache hit loads none): TypeScript alone takes longer to
 * import than a whole no-change rebuild. Analysis runs on a worker thread (analyse/off-thread.ts) while esbuild
 * already bundles, on this thread, the modules that mention "cave" (all those analysis can name, perhaps a few more);
 * stage then keeps what analysis names, or bundles them itself. The worker starts first, before the other passes
 * load: it is the longer of the two.
 */
export async function analyseWhileBundling(
  files: readonly string[],
  ctx: BuildContext,
): Promise<{ readonly analysed: AnalyseResult; readonly ahead: Promise<Bundled | undefined> }> {
  const { analyseOffThread } = await import("./analyse/off-thread.js");
  const analysing = analyseOffThread(ctx.root, files);
  const [{ mentioningCave }, { bundleAhead }] = await Promise.all([
    import("./analyse/candidates.js"),
    import("./stage/index.js"),
    import("./evaluate/index.js"),
    import("./validators/pass.js"),
  ]);
  const ahead = bundleAhead(ctx.root, await mentioningCave(ctx.root, files), ctx.config);
  return { analysed: await analysing, ahead };
}
