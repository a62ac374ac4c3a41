import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Cursors (cave_page) and references (cave_recover) are capabilities: they name a stored result by
 * its sha256 and are signed with the store's key, so the model cannot forge one for a result it was
 * never shown (for example by hashing a guessed value). Each is bound to what it was issued for: the
 * lock (its integrity), the tool whose result it names and the run it was shown in, and it expires
 * with the store's retention. The tool and the expiry are in the text; the lock and the run are only
 * in the MAC, so a cursor shown in one run, or before a rebuild, does not verify in another.
 */
export interface PageCursor {
  readonly tool: string;
  readonly sha256: string;
  readonly pageTokens: number;
  readonly pageCount: number;
  /** The page this cursor returns when cave_page gets no `page`. */
  readonly page: number;
  /** Seconds since the epoch after which it is refused. */
  readonly expires: number;
}

export interface RecoveryRef {
  readonly tool: string;
  readonly sha256: string;
  readonly pageTokens: number;
  /** Seconds since the epoch after which it is refused. */
  readonly expires: number;
}

/** What a cursor or reference is checked against when it comes back: the lock and run of the call that presents it. */
export interface RefScope {
  readonly lockIntegrity: string;
  readonly run: string;
}

/** What it is issued for: the scope, and the tool whose result it names. */
export interface RefBinding extends RefScope {
  readonly tool: string;
}

/** Why one was refused: not signed for this scope (forged, damaged, another run or lock), or past its expiry. */
export type RefProblem = "unsigned" | "expired";

const TOOL = "[a-zA-Z][a-zA-Z0-9_-]{0,127}";
const COUNT = "[1-9][0-9]{0,8}";
const CURSOR = new RegExp(
  `^pg2\\.(${TOOL})\\.([0-9a-f]{64})\\.(${COUNT})\\.(${COUNT})\\.(${COUNT})\\.([1-9][0-9]{0,11})\\.([A-Za-z0-9_-]{22})$`,
);
const REF = new RegExp(`^rf2\\.(${TOOL})\\.([0-9a-f]{64})\\.(${COUNT})\\.([1-9][0-9]{0,11})\\.([A-Za-z0-9_-]{22})$`);

export function signCursor(cursor: PageCursor, key: Uint8Array, scope: RefScope): string {
  const body = `pg2.${cursor.tool}.${hex(cursor.sha256)}.${cursor.pageTokens}.${cursor.pageCount}.${cursor.page}.${cursor.expires}`;
  return `${body}.${mac(key, body, scope)}`;
}

export function signRef(ref: RecoveryRef, key: Uint8Array, scope: RefScope): string {
  const body = `rf2.${ref.tool}.${hex(ref.sha256)}.${ref.pageTokens}.${ref.expires}`;
  return `${body}.${mac(key, body, scope)}`;
}

/** The cursor, or why it is refused. `nowMs`: the clock, ms since the epoch. */
export function readCursor(text: string, key: Uint8Array, scope: RefScope, nowMs: number): PageCursor | RefProblem {
  const match = CURSOR.exec(text);
  if (!match || !verify(key, text.slice(0, text.lastIndexOf(".")), match[7]!, scope)) return "unsigned";
  const cursor = {
    tool: match[1]!,
    sha256: `sha256-${match[2]}`,
    pageTokens: Number(match[3]),
    pageCount: Number(match[4]),
    page: Number(match[5]),
    expires: Number(match[6]),
  };
  return nowMs > cursor.expires * 1000 ? "expired" : cursor;
}

/** The reference, or why it is refused. */
export function readRef(text: string, key: Uint8Array, scope: RefScope, nowMs: number): RecoveryRef | RefProblem {
  const match = REF.exec(text);
  if (!match || !verify(key, text.slice(0, text.lastIndexOf(".")), match[5]!, scope)) return "unsigned";
  const ref = {
    tool: match[1]!,
    sha256: `sha256-${match[2]}`,
    pageTokens: Number(match[3]),
    expires: Number(match[4]),
  };
  return nowMs > ref.expires * 1000 ? "expired" : ref;
}

/** The expiry of one issued at `nowMs` from a store that keeps results `retentionMs`: whole seconds, never before the retention ends. */
export function expiryOf(nowMs: number, retentionMs: number): number {
  return Math.ceil((nowMs + retentionMs) / 1000);
}

function hex(sha256: string): string {
  return sha256.replace(/^sha256-/, "");
}

/**
 * 128 bits of HMAC-SHA256 over the text and its scope: enough against forgery, short enough for a
 * model to copy. The scope is length-prefixed so no two scopes give the same input.
 */
function mac(key: Uint8Array, body: string, scope: RefScope): string {
  const bound = `${body}\n${scope.lockIntegrity.length}:${scope.lockIntegrity}\n${scope.run.length}:${scope.run}`;
  return createHmac("sha256", key).update(bound).digest().subarray(0, 16).toString("base64url");
}

function verify(key: Uint8Array, body: string, given: string, scope: RefScope): boolean {
  const expected = Buffer.from(mac(key, body, scope));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
