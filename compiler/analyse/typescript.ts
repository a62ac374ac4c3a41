/**
 * ts-morph (and the TypeScript it carries), loaded with require. Imported as an ES module, Node first scans the
 * CommonJS source for its export names (cjs-module-lexer), which for ts-morph costs ~150-250 ms on top of the ~300 ms
 * of loading it, on the analysis worker's critical path. `import x = require()` is TypeScript's createRequire form
 * for ES modules; the alias below keeps both meanings of the name (the value and its types).
 */
import tsMorph = require("ts-morph");

export import ts = tsMorph.ts;
