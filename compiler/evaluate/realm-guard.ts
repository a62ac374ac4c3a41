/**
 * Whether a module left the evaluation child as it found it, so that the next module may be evaluated in the same
 * process. Runs in the child (child.ts bundles it): node builtins only, and every builtin it uses captured when the
 * guard is made, before any module runs.
 *
 * A module's lock facts must come from that module alone. One child may serve many modules only if no module can
 * change what a later one reports, so after each import the child asks the guard, and retires at the first "changed":
 * - the realm: every object reachable from the globals, `process` and the builtin modules loaded before any module ran
 *   (own properties, accessors, prototypes, extensibility), compared by identity with the first walk;
 * - builtin modules loaded for the first time since (a module could have changed one before a later module imports it);
 * - code left to run later: timers and immediates (also unref'd ones), pending I/O callbacks and other async resources
 *   still alive, and finalization callbacks registered (they run at a time nobody chooses).
 * A false alarm (Node initialising something lazily) costs one process start, never a wrong fact.
 */
// The modules' export objects (what require gives), which the wrappers below change; syncBuiltinESMExports passes the
// change on to their ES module facades, so a named import meets the wrapper too.
import asyncHooks, { type AsyncHook } from "node:async_hooks";
import diagnosticsChannel from "node:diagnostics_channel";
import events from "node:events";
import { syncBuiltinESMExports } from "node:module";
import util from "node:util";
import v8 from "node:v8";

const createHook = asyncHooks.createHook;

// Captured before any module runs; the walk below writes only to objects without a prototype, so that no setter or
// iterator a module installed can run inside it and fake a clean answer.
const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const ownKeys = Reflect.ownKeys;
const getPrototypeOf = Reflect.getPrototypeOf;
const isExtensible = Reflect.isExtensible;
const objectIs = Object.is;
const hasOwn = Object.hasOwn;
const createObject = Object.create;
const apply = Reflect.apply;
const defineProperty = Reflect.defineProperty;
const stringStartsWith = String.prototype.startsWith;
const stringSlice = String.prototype.slice;
const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;
const MapCtor = Map;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapHas = Map.prototype.has;
const mapDelete = Map.prototype.delete;
const mapForEach = Map.prototype.forEach;
const SetCtor = Set;
const setAdd = Set.prototype.add;
const setHas = Set.prototype.has;

/** A list on an object without a prototype: pushing to it runs no code but ours. */
interface List<T> {
  [index: number]: T;
  n: number;
}
const list = <T>(): List<T> => {
  const made = createObject(null) as List<T>;
  made.n = 0;
  return made;
};

/** What the walk saw of the realm: each object, and its prototype, extensibility and own property descriptors. */
interface Snapshot {
  readonly objects: List<object>;
  readonly records: Map<object, List<unknown>>;
}

/** What a module may have left behind. */
export interface RealmGuard {
  /** Null when the realm, the loaded builtins and the pending work are as they were when the guard was made, else why not. */
  changed(): string | null;
  /** Async resources created since the guard was made that are still alive (timers, I/O requests, handles...). */
  pending(): number;
  /** Runs `work` (the child's own, such as waiting a turn) without counting the async resources it creates. */
  untracked<T>(work: () => T): T;
}

const isObject = (value: unknown): value is object =>
  (typeof value === "object" && value !== null) || typeof value === "function";

/**
 * Takes the first walk now. `roots` are the builtin modules' exports and any object behind a getter that the walk
 * should cover (it reads no getter itself); `loadList` is process.moduleLoadList (skipped by the walk: Node appends to
 * it lazily).
 */
export function createRealmGuard(roots: readonly unknown[], loadList: readonly string[] | undefined): RealmGuard {
  const skip = new SetCtor<object>();
  if (loadList !== undefined) apply(setAdd, skip, [loadList]);
  const rootList = list<unknown>();
  rootList[rootList.n++] = globalThis;
  rootList[rootList.n++] = process;
  for (let i = 0; i < roots.length; i++) rootList[rootList.n++] = roots[i];

  const walk = (): Snapshot => {
    const records = new MapCtor<object, List<unknown>>();
    const objects = list<object>();
    const stack = list<unknown>();
    for (let i = 0; i < rootList.n; i++) stack[stack.n++] = rootList[i];
    while (stack.n > 0) {
      const value = stack[--stack.n];
      if (!isObject(value) || apply(mapHas, records, [value]) || apply(setHas, skip, [value])) continue;
      const prototype = getPrototypeOf(value);
      const record = list<unknown>();
      record[record.n++] = prototype;
      record[record.n++] = isExtensible(value);
      apply(mapSet, records, [value, record]);
      objects[objects.n++] = value;
      stack[stack.n++] = prototype;
      const keys = ownKeys(value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const descriptor = getOwnPropertyDescriptor(value, key);
        if (descriptor === undefined) continue;
        record[record.n++] = key;
        if (hasOwn(descriptor, "value")) {
          record[record.n++] = descriptor.value;
          record[record.n++] = descriptor.writable;
          stack[stack.n++] = descriptor.value;
        } else {
          record[record.n++] = descriptor.get;
          record[record.n++] = descriptor.set;
          stack[stack.n++] = descriptor.get;
          stack[stack.n++] = descriptor.set;
        }
        record[record.n++] = descriptor.enumerable;
        record[record.n++] = descriptor.configurable;
      }
    }
    return { objects, records };
  };

  const pending = trackPending();
  const registrations = watchRegistrations();
  const settings = readSettings();
  rootList[rootList.n++] = util.inspect.defaultOptions;
  const firstLoaded = loadList === undefined ? 0 : loadList.length;
  const baseline = walk();

  return {
    untracked: pending.untracked,
    pending: pending.count,
    changed(): string | null {
      const left = pending.left() ?? registrations.left();
      if (left !== null) return left;
      const now = readSettings();
      for (let i = 0; i < settings.n; i++) if (!objectIs(settings[i], now[i])) return "a process-wide setting changed";
      if (loadList !== undefined) {
        for (let i = firstLoaded; i < loadList.length; i++) {
          const entry = loadList[i]!;
          if (
            apply(stringStartsWith, entry, ["NativeModule "]) &&
            !apply(stringStartsWith, entry, ["NativeModule internal/"])
          )
            return `a builtin module was loaded (${apply(stringSlice, entry, [13]) as string})`;
        }
      }
      // The walk in the first walk's order: any change to a property, prototype or extensibility of an object it saw is
      // found there, and a new object can only have become reachable through such a change.
      const { objects, records } = baseline;
      for (let o = 0; o < objects.n; o++) {
        const value = objects[o]!;
        const before = apply(mapGet, records, [value]) as List<unknown>;
        if (!objectIs(getPrototypeOf(value), before[0]) || isExtensible(value) !== before[1])
          return "a realm object's prototype or extensibility changed";
        const keys = ownKeys(value);
        let at = 2;
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          const descriptor = getOwnPropertyDescriptor(value, key);
          if (descriptor === undefined || before[at++] !== key) return "a realm object gained or lost a property";
          const same = hasOwn(descriptor, "value")
            ? objectIs(before[at++], descriptor.value) && before[at++] === descriptor.writable
            : before[at++] === descriptor.get && before[at++] === descriptor.set;
          if (!same || before[at++] !== descriptor.enumerable || before[at++] !== descriptor.configurable)
            return "a realm object's property changed";
        }
        if (at !== before.n) return "a realm object lost a property";
      }
      return null;
    },
  };
}

/**
 * Process-wide settings that live in Node's internal state behind accessors or calls, where the walk cannot see them
 * change (util.inspect.defaultOptions, an object, is walked instead).
 */
function readSettings(): List<unknown> {
  const settings = list<unknown>();
  settings[settings.n++] = events.defaultMaxListeners;
  settings[settings.n++] = (events as unknown as { captureRejections: boolean }).captureRejections;
  settings[settings.n++] = process.cwd();
  return settings;
}

/**
 * Node APIs that keep a callback in internal state, where no walk sees it, and run it later (while another module is
 * imported, for one): calling any of them retires the child. Each is wrapped in place before the first walk, so a
 * module that replaces a wrapper is seen by the walk.
 */
function watchRegistrations(): { left(): string | null } {
  let used: string | null = null;
  const watch = (owner: object | undefined, key: string, name: string) => {
    if (owner === undefined) return;
    const original = (owner as Record<string, unknown>)[key];
    if (typeof original !== "function") return;
    defineProperty(owner, key, {
      value: function (this: unknown, ...args: unknown[]) {
        used ??= name;
        return apply(original as (...a: unknown[]) => unknown, this, args);
      },
      writable: true,
      enumerable: apply(propertyIsEnumerable, owner, [key]) as boolean,
      configurable: true,
    });
  };
  watch(asyncHooks, "createHook", "async_hooks.createHook");
  const promiseHooks = (v8 as unknown as { promiseHooks?: Record<string, unknown> }).promiseHooks;
  for (const key of ["createHook", "onInit", "onBefore", "onAfter", "onSettled"])
    watch(promiseHooks, key, `v8.promiseHooks.${key}`);
  watch(diagnosticsChannel, "subscribe", "diagnostics_channel.subscribe");
  watch(diagnosticsChannel.Channel.prototype, "subscribe", "a diagnostics channel's subscribe");
  watch(diagnosticsChannel.Channel.prototype, "bindStore", "a diagnostics channel's bindStore");
  watch(
    getPrototypeOf(diagnosticsChannel.tracingChannel("cave.evaluate")) as object,
    "subscribe",
    "a tracing channel's subscribe",
  );
  for (const key of ["setUncaughtExceptionCaptureCallback", "setSourceMapsEnabled", "umask"])
    watch(process, key, `process.${key}`);
  watch(Atomics, "waitAsync", "Atomics.waitAsync");
  watch(FinalizationRegistry.prototype, "register", "a finalization registry's register");
  syncBuiltinESMExports();
  return {
    left: () =>
      used === null ? null : `${used} was called: it keeps a callback or setting where the next module would meet it`,
  };
}

/** Async resource types whose callback runs once (Node's requests, jobs and queued callbacks). */
const ONE_SHOT = new SetCtor([
  "FSREQCALLBACK",
  "FSREQPROMISE",
  "FILEHANDLECLOSEREQ",
  "GETADDRINFOREQWRAP",
  "GETNAMEINFOREQWRAP",
  "QUERYWRAP",
  "SHUTDOWNWRAP",
  "WRITEWRAP",
  "UDPSENDWRAP",
  "PIPECONNECTWRAP",
  "TCPCONNECTWRAP",
  "TickObject",
  "Immediate",
  "Microtask",
]);
const stringEndsWith = String.prototype.endsWith;
const isOneShot = (type: string) =>
  apply(setHas, ONE_SHOT, [type]) || apply(stringEndsWith, type, ["JOB"]) || apply(stringEndsWith, type, ["REQUEST"]);

/**
 * Async resources (timers, immediates, I/O requests, handles...) created since the guard was made and not yet
 * done: code a module could have left to run while a later one is imported. Promises are not counted: a promise runs nothing unless something above resolves it; nor are open files
 * (FILEHANDLE, destroyed only when collected): what is done with one is a request, which is counted.
 */
function trackPending(): { left(): string | null; count(): number; untracked<T>(work: () => T): T } {
  const alive = new MapCtor<number, string>();
  let count = 0;
  let ours = false;
  const done = (asyncId: number) => {
    if (apply(mapDelete, alive, [asyncId])) count--;
  };
  const hook: AsyncHook = createHook({
    init(asyncId, type) {
      if (type === "PROMISE" || type === "FILEHANDLE" || ours) return;
      apply(mapSet, alive, [asyncId, type]);
      count++;
    },
    // A request runs its callback once: after it, nothing of it is left to run, even if Node destroys it only later
    // (a closed file's request is destroyed when it is collected). Anything else is pending until destroyed.
    after(asyncId) {
      const type = apply(mapGet, alive, [asyncId]) as string | undefined;
      if (type !== undefined && isOneShot(type)) done(asyncId);
    },
    destroy: done,
  });
  hook.enable();
  return {
    count: () => count,
    untracked<T>(work: () => T): T {
      ours = true;
      try {
        return work();
      } finally {
        ours = false;
      }
    },
    left() {
      if (count === 0) return null;
      let types = "";
      apply(mapForEach, alive, [(type: string) => void (types = types === "" ? type : `${types}, ${type}`)]);
      return `work was left to run later (${types})`;
    },
  };
}
