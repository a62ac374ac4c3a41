/**
 * Deep-freezing the SDK that the evaluation child shares between modules, so that no module can change what
 * another module's SDK does. Runs in the child (child.ts bundles it): node builtins only.
 */
import { types } from "node:util";

type Reachable = object; // objects and functions

const isReachable = (value: unknown): value is Reachable =>
  (typeof value === "object" && value !== null) || typeof value === "function";

/** A value whose state lives in internal slots that Object.freeze does not cover (a Map still takes set()). */
const unfreezable = (value: Reachable) =>
  types.isMap(value) ||
  types.isSet(value) ||
  types.isWeakMap(value) ||
  types.isWeakSet(value) ||
  types.isDate(value) ||
  types.isAnyArrayBuffer(value) ||
  types.isArrayBufferView(value);

/**
 * The realm's own objects as far as a frozen SDK could reach them: the globals, their own properties (the
 * constructors' prototypes, Math's functions...) and every prototype chain from there, plus the prototypes of each
 * kind of function and iterator, which no global names. A deep freeze stops at these: freezing Object.prototype or
 * Function.prototype would change every module, not just stop them from changing the SDK. Getters are not run.
 * Must be called before any module runs.
 */
export function realmObjects(): ReadonlySet<object> {
  const found = new Set<object>();
  const add = (value: unknown, depth: number): void => {
    if (!isReachable(value) || found.has(value)) return;
    found.add(value);
    add(Object.getPrototypeOf(value), depth);
    if (depth === 0) return;
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      if (descriptor && "value" in descriptor) add(descriptor.value, depth - 1);
    }
  };
  add(globalThis, 2);
  const samples: unknown[] = [
    async () => undefined,
    function* () {},
    async function* () {},
    [][Symbol.iterator](),
    new Map().entries(),
    new Set().values(),
    ""[Symbol.iterator](),
    /x/g[Symbol.matchAll](""),
  ];
  for (const sample of samples) add(sample, 2);
  return found;
}

/**
 * Freezes `root` and everything reachable from it (own properties, accessors and the values they return, prototypes),
 * stopping at the realm's objects. Throws if it reaches a value whose state freezing cannot cover: such an SDK is
 * not shared.
 */
export function deepFreeze(root: Reachable, realm: ReadonlySet<object>): void {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (!isReachable(value) || realm.has(value) || seen.has(value)) continue;
    seen.add(value);
    if (unfreezable(value))
      throw new TypeError(
        `the SDK holds ${Object.prototype.toString.call(value)}, whose contents freezing does not protect`,
      );
    Object.freeze(value);
    stack.push(Object.getPrototypeOf(value));
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      if (!descriptor) continue;
      if ("value" in descriptor) {
        stack.push(descriptor.value);
        continue;
      }
      stack.push(descriptor.get, descriptor.set);
      // The SDK's exports are getters (esbuild's live bindings): what they return is what a module gets.
      if (descriptor.get) stack.push(Reflect.get(value, key));
    }
  }
}
