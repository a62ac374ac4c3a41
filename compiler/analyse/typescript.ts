/**
 * The TypeScript that parses tool modules (the `typescript` package, pinned exactly in package.json: the parser
 * version is part of what a build depends on), loaded with require. Imported as an ES module, Node first scans the
 * CommonJS source for its export names (cjs-module-lexer), which costs ~150-250 ms on top of loading it, on the
 * analysis worker's critical path. `import x = require()` is TypeScript's createRequire form for ES modules.
 */
import ts = require("typescript");

export { ts };
