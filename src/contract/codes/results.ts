import type { CodeEntry } from "./types.js";

/**
 * Executing result plans: call outcome codes of the runtime (spread into RUNTIME_CODES, so a call's
 * error.code can hold them).
 */
export const RESULTS_RUNTIME_CODES = {
  PAGE_CURSOR_INVALID: {
    title: "Invalid page cursor",
    doc: "cave_page received a cursor that this runtime did not issue (forged or damaged), that asks for a page outside the result, or whose result is no longer stored (stale). Call the tool again for a fresh result and cursor.",
  },
  RECOVERY_REF_INVALID: {
    title: "Invalid recovery reference",
    doc: "cave_recover received a reference that this runtime's recovery store did not issue (forged or damaged) or a page outside the result. Use the reference exactly as it appeared in the tool result.",
  },
  RECOVERY_NOT_FOUND: {
    title: "Recovered result not found",
    doc: "The recovery reference is genuine but the store no longer holds its bytes (the state folder was cleared or belongs to another deployment). Call the tool again.",
  },
  RECOVERY_CORRUPT: {
    title: "Stored result does not match its hash",
    doc: "The bytes read back from the recovery store do not hash to the reference's sha256, so they are not what the tool returned and are not shown. Check the state folder's storage; call the tool again.",
  },
  RECOVERY_STORE_FAILED: {
    title: "Result could not be stored for recovery",
    doc: "The result plan must store the exact result before replacing it in context, and storing or verifying it failed (for example a read-only state folder). Nothing was replaced and no dangling reference was given; the result is larger than the plan lets into context, so the call fails. Fix the recovery store (by default the folder <root>/.cave-state/recovery) and call the tool again.",
  },
  RECOVERY_KEY_INVALID: {
    title: "Recovery key is damaged",
    doc: "The key that signs cursors and references is not exactly 32 bytes (for example a 0-byte key file left by a crash or a full disk when it was first created), so nothing is signed or checked with it: results that need the store fail, and every cursor and reference is refused. Delete the key file (by default <root>/.cave-state/recovery/key) so a new one is created, or restore it from a backup; cursors and references issued with the old key stop working.",
  },
  TRANSFORM_MISMATCH: {
    title: "Transform module does not match the lock",
    doc: "A compression transform's staged module is missing from the build folder, its bytes do not hash to the sha256 pinned in the lock, or it does not export what its id and version promise. Deploy the build folder that `cave build` wrote with this lock.",
  },
  TRANSFORM_FAILED: {
    title: "Transform failed",
    doc: "The locked compression transform threw on this result (its value does not have the shape the transform was planned for). The message says why; the result is not shown. Check the tool's output schema.",
  },
  TOKENIZER_MISMATCH: {
    title: "Tokenizer does not match the lock",
    doc: "The lock counts tokens with a pinned tokenizer (id and version) and the installed one differs, so page sizes and inline caps would not mean what was reviewed. Install the pinned version of gpt-tokenizer, or rebuild.",
  },
} as const satisfies Record<string, CodeEntry>;

/** CAVE70xx: planning result policies (build time); and the run-time codes above. */
export const RESULTS_CODES = {
  CAVE7001: {
    title: "No eligible compression transform",
    doc: "The tool asks for `compress` (as its policy or its artifact strategy) but no transform of the registry is eligible for its output schema; the message gives each transform's reason. Declare an output schema the transform needs, allow exact recovery (a lossy transform needs the exact original stored first), or choose `page` or `exact_ccr`.",
  },
  CAVE7002: {
    title: "Page size too small",
    doc: "An artifact's maxInlineTokens is also its page size, and it is below the smallest page (64 tokens), which must hold any JSON token that is never split. Raise maxInlineTokens to 64 or more.",
  },
  ...RESULTS_RUNTIME_CODES,
} as const satisfies Record<string, CodeEntry>;
