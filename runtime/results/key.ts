/** The length of the key that signs cursors and references (HMAC-SHA256): exactly this, never more or less. */
export const RECOVERY_KEY_BYTES = 32;

/** A recovery key that cannot be trusted: the message says which, what is wrong, and what to do. */
export class RecoveryKeyError extends Error {
  override readonly name = "RecoveryKeyError";
}

/**
 * Throws RecoveryKeyError unless `key` is exactly 32 bytes. A shorter key (a 0-byte file left by a
 * crash or a full disk at first use) would let anyone compute the MAC of a forged cursor; a longer one
 * is not what was created, so it was damaged too. Neither is used, truncated or silently replaced.
 */
export function checkRecoveryKey(key: unknown, what: string, fix: string = FILE_FIX): asserts key is Uint8Array {
  if (!(key instanceof Uint8Array))
    throw new RecoveryKeyError(`${what} is not bytes (a Uint8Array of ${RECOVERY_KEY_BYTES}); ${fix}`);
  if (key.length !== RECOVERY_KEY_BYTES) {
    throw new RecoveryKeyError(
      `${what} is ${key.length} bytes, not ${RECOVERY_KEY_BYTES}, so it cannot sign or check cursors and references; ${fix}`,
    );
  }
}

/** What to do about a damaged key file. */
const FILE_FIX =
  "it is damaged (for example by a crash or a full disk when it was created). Delete it so a new key is created (cursors and references issued before stop working; the stored results stay), or restore the 32-byte key from a backup";

/** What to do about a key a host gives in code. */
export const CODE_FIX = "give 32 random bytes (crypto.randomBytes(32)), kept as long as the stored results";
