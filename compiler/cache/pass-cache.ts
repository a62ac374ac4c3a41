import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { hashJson, sha256 } from "../../src/contract/hash.js";
import { writeFileAtomic } from "../emit/atomic.js";
import { cacheFolder } from "./index.js";

/**
 * A content-addressed cache for one pass: the value stored under a key is a pure function of what the key hashes
 * (the pass's input and the compiler identity), so a hit gives exactly what the pass would compute. Each entry
 * carries a check hash over its key and value; an entry that fails it (a truncated or hand-edited file) is a miss,
 * so a corrupted cache only costs time. Reads never fail; a cache that cannot be written is left as it was.
 */
export interface PassCache<V> {
  /** The value stored for this input (content hashes, as JSON data), or undefined on a miss (also for a corrupted entry). */
  get(input: unknown): V | undefined;
  /** Remembers a value for `save()`; a read-only cache ignores it. */
  set(input: unknown, value: V): void;
}

interface StoredEntry<V> {
  readonly value: V;
  readonly check: string;
}

/**
 * One file per pass and project root (beside the whole-build cache). It holds the entries the last writing build
 * that ran the pass used or made, so it never grows past one build's worth of entries.
 */
export class PassCacheFile<V> implements PassCache<V> {
  readonly #path: string;
  readonly #identity: string;
  readonly #pass: string;
  readonly #writable: boolean;
  readonly #stored: Record<string, StoredEntry<V>>;
  readonly #used = new Map<string, StoredEntry<V>>();
  /** Whether the pass ran at all: a build that stopped before it leaves its cache as it was. */
  #consulted = false;

  /** `identity`: the compiler identity (identity.ts), part of every key, so another compiler's entries never hit. */
  constructor(root: string, pass: string, options: { readonly identity: string; readonly write: boolean }) {
    this.#path = join(cacheFolder(root), `${pass}-${sha256(root).slice(7, 23)}.json`);
    this.#identity = options.identity;
    this.#pass = pass;
    this.#writable = options.write;
    this.#stored = readEntries<V>(this.#path);
  }

  get(input: unknown): V | undefined {
    this.#consulted = true;
    const key = this.#key(input);
    const entry = Object.hasOwn(this.#stored, key) ? this.#stored[key] : undefined;
    if (entry === undefined || !isEntry(entry) || entry.check !== check(key, entry.value)) return undefined;
    this.#used.set(key, entry);
    return entry.value;
  }

  set(input: unknown, value: V): void {
    this.#consulted = true;
    if (!this.#writable) return;
    const key = this.#key(input);
    this.#used.set(key, { value, check: check(key, value) });
  }

  /** Writes the entries this build used or made (only for a writing build in which the pass ran). */
  save(): void {
    if (!this.#writable || !this.#consulted) return;
    try {
      mkdirSync(dirname(this.#path), { recursive: true });
      const entries = Object.fromEntries([...this.#used].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      writeFileAtomic(this.#path, JSON.stringify(entries));
    } catch {
      // a read-only node_modules: the next build only loses speed
    }
  }

  #key(input: unknown): string {
    return hashJson({ identity: this.#identity, pass: this.#pass, input });
  }
}

/** A cache that never hits and never stores (build({ cache: false })). */
export const NO_CACHE: PassCache<never> = { get: () => undefined, set: () => undefined };

/**
 * The check hash of an entry. Over JSON.stringify's text, not canonical JSON: the value checked when read back is
 * the one parsed from the text JSON.stringify wrote, and stringifying that gives the same text again, so the check
 * holds exactly when nothing changed the entry; canonical JSON of evaluated reports (schemas with unsorted keys) cost
 * tens of milliseconds per thousand entries.
 */
function check(key: string, value: unknown): string {
  return sha256(JSON.stringify([key, value]));
}

function isEntry(entry: unknown): entry is StoredEntry<unknown> {
  return (
    typeof entry === "object" &&
    entry !== null &&
    "value" in entry &&
    typeof (entry as { check?: unknown }).check === "string"
  );
}

function readEntries<V>(path: string): Record<string, StoredEntry<V>> {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, StoredEntry<V>>)
      : {};
  } catch {
    return {};
  }
}
