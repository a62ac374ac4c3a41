import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Like tsconfig.json's paths: the bare "cave" that example and fixture modules import is this checkout's SDK
  // source, not a possibly stale dist/ (only the exact specifier; "cave/compiler" etc. are untouched).
  resolve: { alias: [{ find: /^cave$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) }] },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
