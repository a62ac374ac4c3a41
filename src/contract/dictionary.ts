/**
 * Records keyed by names that come from users (tool, agent, file, property, command names) have no
 * prototype: "constructor", "toString", "valueOf" or "__proto__" is then an own key like any other,
 * found when it exists and absent when it does not, and assigning "__proto__" stores a value instead
 * of replacing the prototype. Object.prototype's members never answer a lookup by name.
 */
export type Dictionary<T> = Record<string, T>;

/** A record without a prototype, filled from `entries`. */
export function dictionary<T>(entries: Iterable<readonly [string, T]> = []): Dictionary<T> {
  const out = Object.create(null) as Dictionary<T>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}

/** A prototype-free copy of a record's own enumerable entries (shallow). */
export function toDictionary<T>(record: Readonly<Record<string, T>>): Dictionary<T> {
  return dictionary(Object.entries(record));
}

/** The own value of `record` at `key`, or undefined: never a member of its prototype. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** JSON.parse where every object is prototype-free (a document whose keys are names: a lock). */
export function parseJsonDictionaries(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? toDictionary(value as Record<string, unknown>)
      : value,
  );
}
