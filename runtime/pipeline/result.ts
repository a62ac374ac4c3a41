import type { LockedResult } from "../../src/contract/lock.js";
import type { DataSnapshot } from "../json-data.js";
import type { Success } from "./state.js";

/**
 * Stage 9, result: what of the validated result enters context. The locked result plan decides; until
 * result plans are executed (paging, compression, exact recovery), every plan puts the validated
 * result in context as is, which is what `inline` means.
 */
export function result(_plan: LockedResult, data: DataSnapshot): Success {
  return { ok: true, content: data.value, resultSha256: data.sha256 };
}
