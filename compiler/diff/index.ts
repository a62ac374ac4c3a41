/** cave diff: the semantic diff of two locks and its three renderings. */
export { diffLocks, type DiffInput } from "./classify.js";
export { renderDiffText, type Style } from "./render-text.js";
export { renderDiffMarkdown } from "./render-markdown.js";
export { renderDiffJson, diffToJson } from "./render-json.js";
export { stableJson } from "./stable-json.js";
export type { Impact, LockChange, LockDiff, ChangeKind } from "./types.js";
