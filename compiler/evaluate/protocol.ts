/**
 * Messages between the evaluator and its child process. The child's side is untrusted: a module it
 * imports may have patched anything, so the parent decodes every field (decode.ts) before use.
 */

/**
 * The module a bundle's body imports the shared SDK from (`import __caveSdk from SDK_HANDLE`). The child loads it
 * once, right after evaluating the SDK, while the SDK sits under SDK_HANDOFF on globalThis, then deletes that
 * global: every later import of this URL gets the same module from Node's module map, and no global is left.
 */
export const SDK_HANDOFF = "__caveEvaluatorSdkHandoff";
export const SDK_HANDLE = `data:text/javascript,${encodeURIComponent(`export default globalThis[${JSON.stringify(SDK_HANDOFF)}];`)}`;

/** Parent -> child, once, before any import: evaluate the SDK (a module whose default export is the SDK), freeze it and share it. */
export interface SdkRequest {
  readonly type: "sdk";
  readonly code: string;
}

/** Parent -> child: import one staged bundle and report its definitions. */
export interface ImportRequest {
  readonly type: "import";
  readonly module: string;
  /** What to call the bundle in messages instead of its (huge) data: URL: its path in the build folder. */
  readonly label: string;
  readonly code: string;
  /**
   * The code is the bundle's body, which imports the SDK shared by this child (SDK_HANDLE) instead of evaluating its
   * own copy. Only a clean success is reported then; anything else is answered "untrusted", and the parent imports
   * the whole bundle instead.
   */
  readonly sharedSdk: boolean;
}

/** Child -> parent. */
export type ChildMessage =
  | { readonly type: "ready" }
  /** The answer to an SdkRequest: whether later imports may use the shared SDK, and if not why (for tests and bug reports). */
  | { readonly type: "sdk"; readonly shared: boolean; readonly message: string | null }
  | { readonly type: "imported"; readonly module: string; readonly exports: readonly ExportReport[] }
  /** `rule.subject` is the CaveError's subject (`tool "name"`), by which the parent locates it. */
  | { readonly type: "threw"; readonly module: string; readonly message: string; readonly exitCode: number | null; readonly rule: { readonly code: string; readonly hint: string; readonly subject: string } | null }
  /** A body evaluated with the shared SDK threw, or something threw outside it meanwhile: judge the whole bundle instead. */
  | { readonly type: "untrusted"; readonly module: string };

export type ExportReport =
  | { readonly exportName: string; readonly kind: "tool"; readonly tool: RawTool }
  | { readonly exportName: string; readonly kind: "agent"; readonly agent: RawAgent }
  /** `code` and `hint`, when not null, replace CAVE5004's generic ones (a rule only evaluation can check). */
  | { readonly exportName: string; readonly kind: "unreadable"; readonly what: "tool" | "agent"; readonly message: string; readonly code: string | null; readonly hint: string | null };

export type RawSchema =
  | { readonly kind: "typebox"; readonly jsonSchema: unknown }
  | { readonly kind: "standard"; readonly vendor: unknown; readonly jsonSchema: unknown };

/** A tool definition as read in the child: values as found, checked by the parent. */
export interface RawTool {
  readonly name: unknown;
  readonly description: unknown;
  readonly effect: unknown;
  readonly timeout: unknown;
  readonly allowRepeat: unknown;
  readonly sandbox: unknown;
  readonly network: unknown;
  readonly env: unknown;
  readonly nestedTools: unknown;
  readonly result: unknown;
  readonly input: RawSchema | null;
  readonly output: RawSchema | null;
  readonly schemaSemanticsSHA256: unknown;
}

export interface RawAgent {
  readonly name: unknown;
  readonly description: unknown;
  readonly tools: unknown;
}
