import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Cursors (cave_page) and references (cave_recover) are capabilities: they name a stored result by
 * its sha256 and are signed with the store's key, so the model cannot forge one for a result it was
 * never shown (for example by hashing a guessed value).
 */
export interface PageCursor {
  readonly sha256: string;
  readonly pageTokens: number;
  readonly pageCount: number;
  /** The page this cursor returns when cave_page gets no `page`. */
  readonly page: number;
}

export interface RecoveryRef {
  readonly sha256: string;
  readonly pageTokens: number;
}

const CURSOR = /^pg1\.([0-9a-f]{64})\.([1-9][0-9]{0,8})\.([1-9][0-9]{0,8})\.([1-9][0-9]{0,8})\.([A-Za-z0-9_-]{22})$/;
const REF = /^rf1\.([0-9a-f]{64})\.([1-9][0-9]{0,8})\.([A-Za-z0-9_-]{22})$/;

export function signCursor(cursor: PageCursor, key: Uint8Array): string {
  const body = `pg1.${hex(cursor.sha256)}.${cursor.pageTokens}.${cursor.pageCount}.${cursor.page}`;
  return `${body}.${mac(key, body)}`;
}

export function signRef(ref: RecoveryRef, key: Uint8Array): string {
  const body = `rf1.${hex(ref.sha256)}.${ref.pageTokens}`;
  return `${body}.${mac(key, body)}`;
}

/** The cursor, or null when it is malformed or not signed by this key. */
export function readCursor(text: string, key: Uint8Array): PageCursor | null {
  const match = CURSOR.exec(text);
  if (!match || !verify(key, text.slice(0, text.lastIndexOf(".")), match[5]!)) return null;
  return { sha256: `sha256-${match[1]}`, pageTokens: Number(match[2]), pageCount: Number(match[3]), page: Number(match[4]) };
}

/** The reference, or null when it is malformed or not signed by this key. */
export function readRef(text: string, key: Uint8Array): RecoveryRef | null {
  const match = REF.exec(text);
  if (!match || !verify(key, text.slice(0, text.lastIndexOf(".")), match[3]!)) return null;
  return { sha256: `sha256-${match[1]}`, pageTokens: Number(match[2]) };
}

function hex(sha256: string): string {
  return sha256.replace(/^sha256-/, "");
}

/** 128 bits of HMAC-SHA256: enough against forgery, short enough for a model to copy. */
function mac(key: Uint8Array, body: string): string {
  return createHmac("sha256", key).update(body).digest().subarray(0, 16).toString("base64url");
}

function verify(key: Uint8Array, body: string, given: string): boolean {
  const expected = Buffer.from(mac(key, body));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
