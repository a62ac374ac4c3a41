import type { CodeEntry } from "./types.js";

/** CAVE4xxx: staging, the esbuild bundle of each tool module's source graph. */
export const STAGE_CODES = {
  CAVE4001: {
    title: "Bundling failed",
    doc: "esbuild could not bundle a tool module or a file it imports (a syntax error, an import that does not resolve, a file type it cannot load). The message is esbuild's; fix the file at the location given.",
  },
  CAVE4002: {
    title: "File outside the project",
    doc: "A tool module's source graph reaches a file outside the project root that is neither the cave SDK nor inside a node_modules folder, usually through a symlink. Staged bundles may only hold project files and installed packages: copy the file into the project, or install it as a package.",
  },
  CAVE4003: {
    title: "Two modules share a bundle path",
    doc: "Two tool modules differ only by their extension (tools/a.ts and tools/a.mts), so both would be staged as the same .mjs bundle. Rename one of them.",
  },
  CAVE4004: {
    title: "Bundler warning",
    doc: "esbuild warned about code in a tool module's graph (for example a comparison that can never be true). The bundle is still produced; fix the code at the location given.",
  },
  CAVE4120: {
    title: "require() of the SDK",
    doc: 'A CommonJS file in a tool module\'s graph loads "cave" with require(). The SDK is staged once as an ES module that every bundle imports, which require() cannot load. Import it with an import declaration (import { tool } from "cave"), or move the tool into an ES module.',
  },
  CAVE4121: {
    title: "Folder read next to a module",
    doc: 'A module (or a package in its graph) names a folder next to itself statically (new URL("./data/", import.meta.url), path.join(__dirname, "fonts")). Only files are staged next to a bundle, and which files of a folder the code reads cannot be known; list them in cave.config.json "assets" so they are staged and pinned.',
  },
  CAVE4122: {
    title: "Assets glob matches nothing usable",
    doc: 'A glob in cave.config.json "assets" matches no file, or matches a link to a file outside the project. Assets are files of the project or of installed packages, staged into the build folder and pinned in the lock; fix the glob or copy the file into the project.',
  },
  CAVE4123: {
    title: "Asset in a bundle's place",
    doc: "A file a tool module reads next to itself would be staged where a bundle is (tools/a.mjs next to tools/a.ts). Rename the file or the module.",
  },
  CAVE4124: {
    title: "External package not pinnable",
    doc: "A package listed in cave.config.json \"external\" (or a package it depends on) is not in the project's package-lock.json with a registry version and integrity, or there is no package-lock.json. External packages are not bundled: the lock pins each one's name, version and integrity from package-lock.json, and the runtime refuses an installed version that differs. Install the package with npm and commit package-lock.json.",
  },
} as const satisfies Record<string, CodeEntry>;
