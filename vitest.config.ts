import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Like tsconfig.json's paths: the bare "cave" that example and fixture modules import is this checkout's SDK
  // source, not a possibly stale dist/ (only the exact specifier; "cave/compiler" etc. are untouched).
  resolve: { alias: [{ find: /^cave$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) }] },
  test: {
    include: ["test/**/*.test.ts"],
    // The compatibility workspace's installed packages carry test files of their own.
    exclude: ["**/node_modules/**", "test/compat/workspace/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // The runtime imports staged bundles by file URL from its private copy (runtime/loading/private-copy.ts): Node must import
    // them natively, as in production, not vitest's transform pipeline (which made a first call take ~300 ms more).
    server: { deps: { external: [/[\\/]cave-copy-[^\\/]+[\\/]/] } },
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
