import { schema, tool } from "cave";
import { called, loaded, probe } from "./probe.js";

loaded("read");

export const lookup = tool({
  name: "lookup",
  description: "Read the refund window of a region.",
  input: schema.object({ region: schema.string({ minLength: 2 }) }, { additionalProperties: false }),
  output: schema.object({ region: schema.string(), days: schema.number() }),
  effect: "read",
  sandbox: "none",
  execute({ region }) {
    called("lookup");
    return { region, days: 14 };
  },
});

/** Schema-less: returns what it got. */
export const echo = tool({
  name: "echo",
  description: "Return the arguments.",
  effect: "read",
  sandbox: "none",
  execute(input) {
    called("echo");
    return input;
  },
});

/** Returns a sentinel string where its schema wants a number. */
export const badOutput = tool({
  name: "bad_output",
  description: "Return something its schema does not allow.",
  input: schema.object({ secret: schema.string(), asKey: schema.boolean() }),
  output: schema.object({ value: schema.number() }, { additionalProperties: false }),
  effect: "read",
  sandbox: "none",
  execute({ secret, asKey }) {
    called("bad_output");
    return (asKey ? { value: 1, [secret]: 1 } : { value: secret }) as unknown as { value: number };
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
    fine: () => ({ fine: true }),
    toJSON: () => ({ toJSON: () => "replaced" }),
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
  sandbox: "none",
  allowRepeat: true,
  execute({ kind }) {
    called("not_json");
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
  sandbox: "none",
  allowRepeat: true,
  execute({ kind }) {
    called("not_json_typed");
    return oddValue(kind);
  },
});

/** Returns a string of the asked size. */
export const bigOutput = tool({
  name: "big_output",
  description: "Return a long string.",
  input: schema.object({ bytes: schema.integer({ minimum: 0 }) }),
  effect: "read",
  sandbox: "none",
  execute({ bytes }) {
    called("big_output");
    return "x".repeat(bytes);
  },
});

/** Never settles; remembers that its signal was aborted. */
export const hang = tool({
  name: "hang",
  description: "Never finish.",
  effect: "read",
  sandbox: "none",
  timeout: 300,
  allowRepeat: true,
  execute(_input, context) {
    called("hang");
    context.signal.addEventListener("abort", () => {
      probe().aborted.hang = true;
    });
    return new Promise<never>(() => {});
  },
});

/** Throws: a plain error, or a transient one while flags.boomTransientLeft > 0; succeeds when flags.boomHealthy. */
export const boom = tool({
  name: "boom",
  description: "Fail on purpose.",
  input: schema.object({ n: schema.integer() }),
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  async execute({ n }) {
    called("boom");
    const flags = probe().flags;
    if (flags.boomHealthy === true) return { n };
    const left = (flags.boomTransientLeft as number | undefined) ?? 0;
    if (left > 0) {
      flags.boomTransientLeft = left - 1;
      throw Object.assign(new Error("connection reset"), { code: "ECONNRESET" });
    }
    throw new Error(`boom ${n}`);
  },
});

/** A polling tool: identical calls are its job. */
export const poll = tool({
  name: "poll",
  description: "Poll a job.",
  input: schema.object({ job: schema.string() }),
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  execute({ job }) {
    return { job, calls: called("poll") };
  },
});

/** Sandbox required (the default). */
export const sandboxed = tool({
  name: "sandboxed",
  description: "Run only in the sandbox.",
  effect: "read",
  execute() {
    called("sandboxed");
    return { sandboxed: true };
  },
});

/** Throws synchronously, before returning anything. */
export const syncThrow = tool({
  name: "sync_throw",
  description: "Throw at once.",
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  execute() {
    called("sync_throw");
    throw new TypeError("sync failure");
  },
});

/** Returns objects or arrays nested `depth` levels deep (a hostile tool's result). */
export const deepOutput = tool({
  name: "deep_output",
  description: "Return deeply nested data.",
  input: schema.object({ depth: schema.integer({ minimum: 0 }), arrays: schema.boolean() }),
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  execute({ depth, arrays }) {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
    return value;
  },
});

/** Returns whatever the test put in flags.output, as is (a hostile or careless tool's result). */
export const probeOutput = tool({
  name: "probe_output",
  description: "Return the value the test chose.",
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  execute() {
    return probe().flags.output;
  },
});

/** The same with an output schema: the value must be plain JSON data and match it. */
export const probeTypedOutput = tool({
  name: "probe_typed_output",
  description: "Return the value the test chose, checked against a schema.",
  output: schema.object({ value: schema.any() }),
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  execute() {
    return probe().flags.output as { value: unknown };
  },
});
