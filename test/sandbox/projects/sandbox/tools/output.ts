import { schema, tool } from "cave";

/** Returns a sentinel string where its schema wants a number (row 4). */
export const badOutput = tool({
  name: "bad_output",
  description: "Return something its schema does not allow.",
  input: schema.object({ sentinel: schema.string() }),
  output: schema.object({ value: schema.number() }, { additionalProperties: false }),
  effect: "read",
  allowRepeat: true,
  execute({ sentinel }) {
    return { value: sentinel } as unknown as { value: number };
  },
});

class Point {
  constructor(readonly x: number) {}
}

/** One kind of value that is not plain JSON data (row 5). */
function oddValue(kind: string): unknown {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const values: Record<string, () => unknown> = {
    function: () => ({ f: () => 1 }),
    symbol: () => ({ s: Symbol("x") }),
    undefinedField: () => ({ u: undefined }),
    bigint: () => ({ n: 10n }),
    cycle: () => cyclic,
    classInstance: () => ({ p: new Point(1) }),
    date: () => ({ d: new Date(0) }),
    nan: () => ({ n: Number.NaN }),
    throwingGetter: () => ({ get g(): number { throw new Error("getter exploded"); } }),
    protoKey: () => JSON.parse('{"ok":{"__proto__":{"polluted":1}}}'),
    toJSON: () => ({ toJSON: () => "replaced" }),
    nullPrototype: () => Object.assign(Object.create(null), { fine: "yes" }),
    fine: () => ({ fine: true }),
    deep: () => {
      let value: unknown = 1;
      for (let i = 0; i < 100_000; i++) value = [value];
      return value;
    },
    toJSONThrows: () => ({ t: { toJSON: () => { throw new Error("toJSON exploded"); } } }),
    secretKey: () => ({ "PIN-4711": () => 1 }),
    secretClass: () => ({ v: new (class Secret4711 {})() }),
  };
  return values[kind]!();
}

/** Returns one kind of value that is not plain JSON data, without an output schema: native JSON serialisation applies. */
export const notJson = tool({
  name: "not_json",
  description: "Return a value that is not JSON data.",
  input: schema.object({ kind: schema.string() }),
  effect: "read",
  allowRepeat: true,
  execute({ kind }) {
    return oddValue(kind);
  },
});

/** The same with an output schema: only plain JSON data is accepted. */
export const notJsonTyped = tool({
  name: "not_json_typed",
  description: "Return a value that is not JSON data, against an output schema.",
  input: schema.object({ kind: schema.string() }),
  output: schema.any(),
  effect: "read",
  allowRepeat: true,
  execute({ kind }) {
    return oddValue(kind);
  },
});

/** Returns a string of the asked size (row 6). */
export const bigOutput = tool({
  name: "big_output",
  description: "Return a long string.",
  input: schema.object({ bytes: schema.integer({ minimum: 0 }) }),
  effect: "read",
  allowRepeat: true,
  execute({ bytes }) {
    return "x".repeat(bytes);
  },
});
