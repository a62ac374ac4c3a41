// What a tool's output that is not plain JSON data becomes: one table, run against the in-process dispatcher
// (test/runtime/pipeline.test.ts) and the sandbox dispatcher (test/sandbox/rows-01-06-data.test.ts). Each kind names a
// value of oddValue() in both test projects (test/runtime/projects/pipeline/tools/read.ts and
// test/sandbox/projects/sandbox/tools/output.ts).

/** Without an output schema: the kind and the content JSON.stringify makes of it. */
export const NATIVE_CONTENT: ReadonlyArray<readonly [string, unknown]> = [
  ["function", {}],
  ["symbol", {}],
  ["undefinedField", {}],
  ["classInstance", { p: { x: 1 } }],
  ["date", { d: "1970-01-01T00:00:00.000Z" }],
  ["nan", { n: null }],
  ["toJSON", "replaced"],
  ["secretKey", {}],
];

/** Without an output schema, what JSON.stringify still cannot write: the kind and the words after "JSON.stringify cannot write: ". */
export const NATIVE_REFUSED: ReadonlyArray<readonly [string, string]> = [
  ["bigint", "a BigInt"],
  ["cycle", "a cycle (the value contains itself)"],
  ["throwingGetter", "a getter or toJSON method that throws"],
  ["toJSONThrows", "a getter or toJSON method that throws"],
];

/** With an output schema: the kind and what the refusal says it was, in "not plain JSON data (...)". */
export const TYPED_REFUSED: ReadonlyArray<readonly [string, string]> = [
  ["function", "a function"],
  ["symbol", "a Symbol"],
  ["undefinedField", "undefined"],
  ["bigint", "a BigInt"],
  ["cycle", "a cycle (the value contains itself)"],
  ["classInstance", "a class instance"],
  ["date", "a class instance"],
  ["nan", "a non-finite number (NaN)"],
  ["throwingGetter", "a property whose read throws"],
  ["toJSON", "a function"],
  ["protoKey", "a __proto__ or constructor.prototype key"],
];
