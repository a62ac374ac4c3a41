/** The call that holds a repeat-guard key, and whether its receipt is in the sink yet. */
export interface RepeatHolder {
  readonly callId: string;
  /** "running" until the receipt is recorded ("written"), or the sink refused it ("lost"). */
  receipt: "running" | "written" | "lost";
}

/** What the index needs of a call's arguments: a snapshot's canonical text, its SHA-256 and its repeat hash. */
export interface RepeatArgs {
  readonly text: string;
  readonly sha256: string;
  readonly repeatHash: number;
  /** An upper bound of the canonical text's bytes, known without writing it. */
  readonly bytesAtMost: number;
}

/** A remembered call, as given back to release it. */
export interface RepeatEntry {
  readonly holder: RepeatHolder;
}

/**
 * How many calls a run remembers with their arguments before it remembers every call by its SHA-256, and how large
 * (as bounded before the canonical text is written) one call's arguments may be to be remembered so: what a run holds
 * for the guard stays small however long it runs.
 */
export const LIVE_CALLS = 32;
export const LIVE_ARGS_MAX_BYTES = 64 * 1024;

interface Entry extends RepeatEntry {
  /** The call's arguments while the run remembers calls with them; dropped when it turns to hashes. */
  args: RepeatArgs | undefined;
}

/**
 * The calls of a run the repeat guard remembers, found by tool and canonical equality of their arguments.
 *
 * A run starts by remembering its calls with their arguments, in buckets of their repeat hash
 * (canonical/structural-hash.ts): a call then has neither its canonical text written nor its SHA-256 computed unless
 * it shares a bucket, where canonical texts decide. Most runs an agent makes are that short. A run that has made
 * LIVE_CALLS calls, or one call with larger arguments, or that a journal restores (which records each call's SHA-256
 * only), turns to remembering every call by the SHA-256 of its canonical text, as the guard always did: the
 * arguments held so far are hashed once and let go (docs/decisions.md, "The repeat guard buckets a run's first calls").
 */
export class RepeatIndex {
  /** By tool, then repeat hash; undefined once the run remembers calls by SHA-256. */
  #live: Map<string, Map<number, Entry[]>> | undefined = new Map();
  #liveCalls = 0;
  readonly #hashed = new Map<string, Entry>();

  /** The entry of an earlier call to `tool` with canonically equal arguments, if any. */
  find(tool: string, args: RepeatArgs): RepeatEntry | undefined {
    if (this.#live === undefined) return this.#hashed.get(hashedKey(tool, args.sha256));
    const bucket = this.#live.get(tool)?.get(args.repeatHash);
    if (bucket !== undefined) for (const entry of bucket) if (sameText(entry.args!, args)) return entry;
    return undefined;
  }

  /** Remembers a call to `tool` with `args`, held by `holder`; returns its entry. */
  add(tool: string, args: RepeatArgs, holder: RepeatHolder): RepeatEntry {
    const entry: Entry = { holder, args };
    const live = this.#live;
    if (live !== undefined && this.#liveCalls < LIVE_CALLS && args.bytesAtMost <= LIVE_ARGS_MAX_BYTES) {
      let buckets = live.get(tool);
      if (buckets === undefined) live.set(tool, (buckets = new Map()));
      const bucket = buckets.get(args.repeatHash);
      if (bucket === undefined) buckets.set(args.repeatHash, [entry]);
      else bucket.push(entry);
      this.#liveCalls += 1;
      return entry;
    }
    this.#toHashes();
    entry.args = undefined;
    this.#hashed.set(hashedKey(tool, args.sha256), entry);
    return entry;
  }

  /** Remembers a call known by its arguments' SHA-256 only (a journal's record); returns its entry. */
  addHashed(tool: string, sha256: string, holder: RepeatHolder): RepeatEntry {
    this.#toHashes();
    const entry: Entry = { holder, args: undefined };
    this.#hashed.set(hashedKey(tool, sha256), entry);
    return entry;
  }

  /** Forgets `entry` (a call to `tool` with `args`), if it is still the one remembered. */
  release(tool: string, args: RepeatArgs, entry: RepeatEntry): void {
    if (this.#live === undefined) {
      const key = hashedKey(tool, args.sha256);
      if (this.#hashed.get(key) === entry) this.#hashed.delete(key);
      return;
    }
    const buckets = this.#live.get(tool);
    const bucket = buckets?.get(args.repeatHash);
    const at = bucket === undefined ? -1 : bucket.indexOf(entry as Entry);
    if (at === -1) return;
    bucket!.splice(at, 1);
    if (bucket!.length === 0) buckets!.delete(args.repeatHash);
    this.#liveCalls -= 1;
  }

  /** Forgets the entry a journal restored for call `callId` to `tool` with arguments of SHA-256 `sha256`, if any. */
  releaseRecorded(tool: string, sha256: string, callId: string): void {
    const key = hashedKey(tool, sha256);
    if (this.#hashed.get(key)?.holder.callId === callId) this.#hashed.delete(key);
  }

  /** From now on every call by SHA-256: the calls held with their arguments are hashed and their arguments let go. */
  #toHashes(): void {
    const live = this.#live;
    if (live === undefined) return;
    this.#live = undefined;
    for (const [tool, buckets] of live)
      for (const bucket of buckets.values())
        for (const entry of bucket) {
          this.#hashed.set(hashedKey(tool, entry.args!.sha256), entry);
          entry.args = undefined;
        }
  }
}

function hashedKey(tool: string, sha256: string): string {
  return `${tool}\u0000${sha256}`;
}

/** Whether two arguments have the same canonical text (the same snapshot trivially; texts written only here). */
function sameText(a: RepeatArgs, b: RepeatArgs): boolean {
  return a === b || a.text === b.text;
}
