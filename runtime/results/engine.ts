import { sha256 } from "../../src/contract/hash.js";
import type { ResultPlan } from "../../src/contract/lock.js";
import { CAVE_PAGE, viewTokens } from "../../src/contract/results/constants.js";
import { serializeResult } from "../../src/contract/results/serial.js";
import {
  fitsTokens,
  loadTokenizer,
  TOKENIZER,
  TokenizerMismatchError,
  type Tokenizer,
} from "../../src/contract/results/tokenizer.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";
import { failure, type ResultFailure } from "./failure.js";
import { pageCuts } from "./paginate.js";
import { checkRecoveryKey, RecoveryKeyError } from "./key.js";
import { expiryOf, readCursor, readRef, signCursor, signRef, type RefBinding, type RefScope } from "./refs.js";
import { isReservedTool, reservedInputProblem } from "./reserved.js";
import { RECOVERY_RETENTION, type RecoveryStore } from "./store.js";
import { TransformLoader } from "./transform-loader.js";
import { compressHeader, exactViewHeader, pageHeader, recoverHeader, summarize } from "./view.js";

export interface ResultPlansOptions {
  /** The project root (absolute): transform modules are resolved against it, as the lock's paths are. */
  readonly root: string;
  readonly store: RecoveryStore;
  /** The clock for cursor and reference expiry (ms since the epoch); for tests. */
  readonly now?: () => number;
}

/** What enters context: the value as is (inline) or a text (a page, a view, a compressed form). */
export interface ResultSuccess {
  readonly ok: true;
  readonly content: unknown;
  /** The sha256 of the stored exact result, when the plan stored it. */
  readonly stored: string | null;
}

export type ResultOutcome =
  | ResultSuccess
  | ResultFailure
  | { readonly ok: false; readonly code: "INPUT_INVALID"; readonly message: string };

/** Page cuts of recently served results, so cave_page over a large result does not re-count it every time. */
const CUT_CACHE_SIZE = 16;

/**
 * Executes locked result plans and the reserved tools cave_page and cave_recover. Nothing here
 * chooses: the plan says what happens, this only does it (and refuses when it cannot do it safely).
 */
export class ResultPlans {
  private readonly transforms: TransformLoader;
  private readonly cuts = new Map<string, number[]>();

  constructor(private readonly options: ResultPlansOptions) {
    this.transforms = new TransformLoader(options.root);
  }

  /**
   * Stage "result" of the call pipeline: `value` is the validated result (plain JSON data);
   * `serialized`, when the caller already has it, is its canonical JSON (saves serialising twice).
   */
  async apply(
    plan: ResultPlan,
    value: unknown,
    serialized: string | undefined,
    binding: RefBinding,
  ): Promise<ResultOutcome> {
    if (plan.strategy === "inline") return { ok: true, content: value, stored: null };
    if (
      plan.tokenizer !== null &&
      (plan.tokenizer.id !== TOKENIZER.id || plan.tokenizer.version !== TOKENIZER.version)
    ) {
      return failure(
        "TOKENIZER_MISMATCH",
        `the lock counts with ${plan.tokenizer.id} ${plan.tokenizer.version} but this runtime has ${TOKENIZER.id} ${TOKENIZER.version}; rebuild with this cave version`,
      );
    }
    try {
      const text = serialized ?? serializeResult(value);
      if (plan.inlineUpToTokens !== null && (await fitsTokens(text, plan.inlineUpToTokens)))
        return { ok: true, content: value, stored: null };
      switch (plan.strategy) {
        case "page":
          return await this.paged(plan, text, binding);
        case "compress":
          return await this.compressed(plan, value, text, binding);
        case "exact_ccr":
          return await this.exact(plan, value, text, binding);
      }
    } catch (thrown) {
      if (thrown instanceof TokenizerMismatchError) return failure("TOKENIZER_MISMATCH", thrown.message);
      throw thrown;
    }
  }

  /** cave_page and cave_recover: `args` as the model sent them, in the lock and run of the call. */
  async reserved(name: string, args: unknown, scope: RefScope): Promise<ResultOutcome> {
    if (!isReservedTool(name)) throw new TypeError(`not a reserved tool: ${name}`);
    const problem = reservedInputProblem(name, args);
    if (problem !== null) return { ok: false, code: "INPUT_INVALID", message: problem };
    const record = args as { cursor?: string; ref?: string; page?: number };
    try {
      return name === CAVE_PAGE
        ? await this.page(record.cursor!, record.page, scope)
        : await this.recover(record.ref!, record.page, scope);
    } catch (thrown) {
      if (thrown instanceof TokenizerMismatchError) return failure("TOKENIZER_MISMATCH", thrown.message);
      throw thrown;
    }
  }

  private async paged(plan: ResultPlan, text: string, binding: RefBinding): Promise<ResultOutcome> {
    const pageTokens = plan.pageTokens!;
    const tokenizer = await loadTokenizer();
    const stored = await this.store(text);
    if (!stored.ok) return stored;
    const cuts = this.cutsOf(stored.sha256, text, pageTokens, tokenizer);
    const key = stored.key;
    const pageCount = cuts.length - 1;
    const expires = this.expiry();
    const next =
      pageCount > 1
        ? signCursor(
            { tool: binding.tool, sha256: stored.sha256, pageTokens, pageCount, page: 2, expires },
            key,
            binding,
          )
        : null;
    let header = pageHeader(1, pageCount, stored.bytes, next);
    if (plan.recovery === "exact_ccr")
      header += `\n[exact result: cave_recover ${JSON.stringify({ ref: signRef({ tool: binding.tool, sha256: stored.sha256, pageTokens, expires }, key, binding) })}]`;
    return { ok: true, content: `${header}\n${text.slice(cuts[0], cuts[1])}`, stored: stored.sha256 };
  }

  private async compressed(
    plan: ResultPlan,
    value: unknown,
    text: string,
    binding: RefBinding,
  ): Promise<ResultOutcome> {
    const pinned = plan.transform!;
    const transform = await this.transforms.load(pinned);
    if ("ok" in transform) return transform;
    let ref: string | null = null;
    let stored: string | null = null;
    // The exact original is stored and verified before any lossy form can stand in for it.
    if (plan.recovery === "exact_ccr") {
      const kept = await this.store(text);
      if (!kept.ok) return kept;
      ref = signRef(
        { tool: binding.tool, sha256: kept.sha256, pageTokens: plan.pageTokens!, expires: this.expiry() },
        kept.key,
        binding,
      );
      stored = kept.sha256;
    }
    let encoded: unknown;
    try {
      encoded = transform.encode(value);
    } catch (thrown) {
      return failure(
        "TRANSFORM_FAILED",
        `transform ${pinned.id}@${pinned.version} failed on this result: ${thrownText(thrown)}`,
      );
    }
    if (typeof encoded !== "string")
      return failure(
        "TRANSFORM_FAILED",
        `transform ${pinned.id}@${pinned.version} returned ${typeof encoded}, not text`,
      );
    return { ok: true, content: `${compressHeader(pinned, ref)}\n${encoded}`, stored };
  }

  private async exact(plan: ResultPlan, value: unknown, text: string, binding: RefBinding): Promise<ResultOutcome> {
    const pageTokens = plan.pageTokens!;
    const tokenizer = await loadTokenizer();
    const stored = await this.store(text);
    if (!stored.ok) return stored;
    const ref = signRef(
      { tool: binding.tool, sha256: stored.sha256, pageTokens, expires: this.expiry() },
      stored.key,
      binding,
    );
    // Only the preview is cut here: paging the whole result waits until cave_recover asks for it.
    const preview = pageCuts(text, viewTokens(plan.inlineUpToTokens), tokenizer, 1);
    const header = exactViewHeader(stored.bytes, ref, summarize(value));
    return { ok: true, content: `${header}\n${text.slice(0, preview[1])}…`, stored: stored.sha256 };
  }

  private async page(cursorText: string, asked: number | undefined, scope: RefScope): Promise<ResultOutcome> {
    const key = await this.key();
    if (!key.ok) return key;
    const cursor = readCursor(cursorText, key.key, scope, this.now());
    if (cursor === "unsigned")
      return failure(
        "PAGE_CURSOR_INVALID",
        "this cursor was not issued in this run for this build of the tools (it is forged, damaged, from another run or from before a rebuild); copy the cursor exactly as shown, or call the tool again",
      );
    if (cursor === "expired")
      return failure(
        "PAGE_CURSOR_INVALID",
        "this cursor has expired (it lives as long as the recovery store keeps results); call the tool again",
      );
    const page = asked ?? cursor.page;
    if (page > cursor.pageCount)
      return failure(
        "PAGE_CURSOR_INVALID",
        `the result has ${cursor.pageCount} pages; ask for a page from 1 to ${cursor.pageCount}`,
      );
    const text = await this.read(cursor.sha256, "PAGE_CURSOR_INVALID");
    if (typeof text !== "string") return text;
    const cuts = this.cutsOf(cursor.sha256, text, cursor.pageTokens, await loadTokenizer());
    if (cuts.length - 1 !== cursor.pageCount)
      return failure(
        "PAGE_CURSOR_INVALID",
        "this cursor is stale: the stored result no longer pages as it did when the cursor was issued; call the tool again",
      );
    const next = page < cursor.pageCount ? signCursor({ ...cursor, page: page + 1 }, key.key, scope) : null;
    return {
      ok: true,
      content: `${pageHeader(page, cursor.pageCount, Buffer.byteLength(text), next)}\n${text.slice(cuts[page - 1], cuts[page])}`,
      stored: cursor.sha256,
    };
  }

  private async recover(refText: string, asked: number | undefined, scope: RefScope): Promise<ResultOutcome> {
    const key = await this.key();
    if (!key.ok) return key;
    const ref = readRef(refText, key.key, scope, this.now());
    if (ref === "unsigned")
      return failure(
        "RECOVERY_REF_INVALID",
        "this reference was not issued in this run for this build of the tools (it is forged, damaged, from another run or from before a rebuild); copy it exactly as shown, or call the tool again",
      );
    if (ref === "expired")
      return failure(
        "RECOVERY_REF_INVALID",
        "this reference has expired (it lives as long as the recovery store keeps results); call the tool again",
      );
    const text = await this.read(ref.sha256, "RECOVERY_NOT_FOUND");
    if (typeof text !== "string") return text;
    const cuts = this.cutsOf(ref.sha256, text, ref.pageTokens, await loadTokenizer());
    const pageCount = cuts.length - 1;
    const page = asked ?? 1;
    if (page > pageCount)
      return failure(
        "RECOVERY_REF_INVALID",
        `the exact result has ${pageCount} page${pageCount === 1 ? "" : "s"}; ask for a page from 1 to ${pageCount}`,
      );
    if (pageCount === 1) return { ok: true, content: text, stored: ref.sha256 };
    return {
      ok: true,
      content: `${recoverHeader(page, pageCount, Buffer.byteLength(text), refText)}\n${text.slice(cuts[page - 1], cuts[page])}`,
      stored: ref.sha256,
    };
  }

  /** Stores the exact bytes, reads them back and re-hashes them; only a verified copy counts as stored. */
  private async store(
    text: string,
  ): Promise<{ ok: true; sha256: string; bytes: number; key: Uint8Array } | ResultFailure> {
    const bytes = Buffer.from(text, "utf8");
    const hash = sha256(bytes);
    const refuse = (why: string) =>
      failure(
        "RECOVERY_STORE_FAILED",
        `the result (${bytes.length} bytes, ${hash}) exceeds what its plan lets into context and could not be stored for recovery (${why}), so it was not replaced and is not shown; fix the recovery store (by default <root>/.cave-state/recovery), then call the tool again`,
      );
    const key = await this.key();
    if (!key.ok) return key.code === "RECOVERY_KEY_INVALID" ? key : refuse(key.message);
    try {
      await this.options.store.put(hash, bytes);
      const back = await this.options.store.get(hash);
      if (back === null) return refuse("the store does not return what was just stored");
      if (sha256(back) !== hash) return refuse("the bytes read back do not hash to what was stored");
      return { ok: true, sha256: hash, bytes: bytes.length, key: key.key };
    } catch (thrown) {
      return refuse(thrownText(thrown));
    }
  }

  /** The store's key, checked: anything but 32 bytes is refused (RECOVERY_KEY_INVALID), never signed or checked with. */
  private async key(): Promise<{ ok: true; key: Uint8Array } | ResultFailure> {
    try {
      const key = await this.options.store.key();
      checkRecoveryKey(
        key,
        "the recovery store's key",
        "fix the store's key(): it must give the same 32 random bytes every time",
      );
      return { ok: true, key };
    } catch (thrown) {
      if (thrown instanceof RecoveryKeyError) return failure("RECOVERY_KEY_INVALID", thrown.message);
      return failure(
        "RECOVERY_NOT_FOUND",
        `the recovery store cannot be read (${thrownText(thrown)}); nothing stored can be returned`,
      );
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** When what is issued now expires: the store's retention from now (it keeps the result at least that long). */
  private expiry(): number {
    return expiryOf(this.now(), this.options.store.retentionMs ?? RECOVERY_RETENTION.maxAgeMs);
  }

  private async read(
    hash: string,
    missing: "PAGE_CURSOR_INVALID" | "RECOVERY_NOT_FOUND",
  ): Promise<string | ResultFailure> {
    let bytes: Uint8Array | null;
    try {
      bytes = await this.options.store.get(hash);
    } catch (thrown) {
      return failure("RECOVERY_NOT_FOUND", `the recovery store cannot be read (${thrownText(thrown)})`);
    }
    if (bytes === null) {
      return failure(
        missing,
        missing === "PAGE_CURSOR_INVALID"
          ? "this cursor is stale: its result is no longer stored; call the tool again"
          : `the store no longer holds ${hash}; call the tool again`,
      );
    }
    if (sha256(bytes) !== hash)
      return failure(
        "RECOVERY_CORRUPT",
        `the stored bytes of ${hash} do not hash to it, so they are not shown; call the tool again`,
      );
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  }

  private cutsOf(hash: string, text: string, pageTokens: number, tokenizer: Tokenizer): number[] {
    const id = `${hash}:${pageTokens}`;
    let cuts = this.cuts.get(id);
    if (cuts === undefined) {
      cuts = pageCuts(text, pageTokens, tokenizer);
      if (this.cuts.size >= CUT_CACHE_SIZE) this.cuts.delete(this.cuts.keys().next().value!);
      this.cuts.set(id, cuts);
    }
    return cuts;
  }
}
