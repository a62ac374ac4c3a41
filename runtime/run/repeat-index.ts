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

/**
 * How many calls a run remembers with their arguments before it remembers every call by its SHA-256, and how large
 * (as bounded before the canonical text is written) one call's arguments may be to be remembered so: what a run holds
 * for the guard stays small however long it runs.
 */
export const LIVE_CALLS = 32;
export const LIVE_ARGS_MAX_BYTES = 64 * 1024;

interface Entry extends RepeatHolder {
  /** The call's arguments while the run remembers calls with them; undefined once it remembers them by SHA-256. */
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
  /** By tool, then repeat hash (one entry, or the entries sharing it); made on first use. */
  #live: Map<string, Map<number, Entry | Entry[]>> | undefined = undefined;
  #liveCalls = 0;
  /** By tool and SHA-256, once the run remembers calls so (then #live is never used again). */
  #hashed: Map<string, Entry> | undefined = undefined;

  /**
   * The entry of an earlier call to `tool` with canonically equal arguments, when there is one (nothing is remembered
   * then); else a new entry for call `callId`, running. So `claim(...).callId === callId` says the call is no repeat.
   */
  claim(tool: string, args: RepeatArgs, callId: string): RepeatHolder {
    if (this.#hashed === undefined) {
      const live = (this.#live ??= new Map());
      let buckets = live.get(tool);
      const held = buckets?.get(args.repeatHash);
      if (held !== undefined) {
        if (!Array.isArray(held)) {
          if (sameText(held.args!, args)) return held;
        } else for (const entry of held) if (sameText(entry.args!, args)) return entry;
      }
      if (this.#liveCalls < LIVE_CALLS && args.bytesAtMost <= LIVE_ARGS_MAX_BYTES) {
        const entry: Entry = { callId, receipt: "running", args };
        if (buckets === undefined) live.set(tool, (buckets = new Map()));
        buckets.set(
          args.repeatHash,
          held === undefined ? entry : Array.isArray(held) ? [...held, entry] : [held, entry],
        );
        this.#liveCalls += 1;
        return entry;
      }
    }
    const hashed = this.#toHashes();
    const key = hashedKey(tool, args.sha256);
    const earlier = hashed.get(key);
    if (earlier !== undefined) return earlier;
    const entry: Entry = { callId, receipt: "running", args: undefined };
    hashed.set(key, entry);
    return entry;
  }

  /** Remembers call `callId`, known by its arguments' SHA-256 only (a journal's record: its receipt is written). */
  addHashed(tool: string, sha256: string, callId: string): RepeatHolder {
    const key = hashedKey(tool, sha256);
    const entry: Entry = { callId, receipt: "written", args: undefined };
    this.#toHashes().set(key, entry);
    return entry;
  }

  /** Forgets `entry` (a call to `tool` with `args`), if it is still the one remembered. */
  release(tool: string, args: RepeatArgs, entry: RepeatHolder): void {
    if ((entry as Entry).args === undefined) {
      const key = hashedKey(tool, args.sha256);
      if (this.#hashed?.get(key) === entry) this.#hashed.delete(key);
      return;
    }
    const buckets = this.#live?.get(tool);
    const held = buckets?.get(args.repeatHash);
    const all = held === undefined ? [] : Array.isArray(held) ? held : [held];
    if (!all.includes(entry as Entry)) return;
    const rest = all.filter((other) => other !== entry);
    if (rest.length === 0) buckets!.delete(args.repeatHash);
    else buckets!.set(args.repeatHash, rest.length === 1 ? rest[0]! : rest);
    this.#liveCalls -= 1;
  }

  /** Forgets the entry a journal restored for call `callId` to `tool` with arguments of SHA-256 `sha256`, if any. */
  releaseRecorded(tool: string, sha256: string, callId: string): void {
    const key = hashedKey(tool, sha256);
    if (this.#hashed?.get(key)?.callId === callId) this.#hashed.delete(key);
  }

  /**
   * The entries by SHA-256, the run turning to them if it has not: the calls held with their arguments are hashed
   * and their arguments let go.
   */
  #toHashes(): Map<string, Entry> {
    if (this.#hashed !== undefined) return this.#hashed;
    const hashed = new Map<string, Entry>();
    for (const [tool, buckets] of this.#live ?? [])
      for (const held of buckets.values())
        for (const entry of Array.isArray(held) ? held : [held]) {
          hashed.set(hashedKey(tool, entry.args!.sha256), entry);
          entry.args = undefined;
        }
    this.#live = undefined;
    this.#hashed = hashed;
    return hashed;
  }
}

function hashedKey(tool: string, sha256: string): string {
  return `${tool}\u0000${sha256}`;
}

/** Whether two arguments have the same canonical text (the same snapshot trivially; texts written only here). */
function sameText(a: RepeatArgs, b: RepeatArgs): boolean {
  return a === b || a.text === b.text;
}
