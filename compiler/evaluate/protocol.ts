/**
 * Messages between the evaluator and its child process. The child's side is untrusted: a module it
 * imports may have patched anything, so the parent decodes every field (decode.ts) before use.
 */

/** Parent -> child: import one staged bundle and report its definitions. */
export interface ImportRequest {
  readonly type: "import";
  readonly module: string;
  /** What to call the bundle in messages instead of its (huge) data: URL: its path in the build folder. */
  readonly label: string;
  readonly code: string;
}

/** Child -> parent. */
export type ChildMessage =
  | { readonly type: "ready" }
  | { readonly type: "imported"; readonly module: string; readonly exports: readonly ExportReport[] }
  | { readonly type: "threw"; readonly module: string; readonly message: string; readonly exitCode: number | null; readonly rule: { readonly code: string; readonly hint: string } | null };

export type ExportReport =
  | { readonly exportName: string; readonly kind: "tool"; readonly tool: RawTool }
  | { readonly exportName: string; readonly kind: "agent"; readonly agent: RawAgent }
  | { readonly exportName: string; readonly kind: "unreadable"; readonly what: "tool" | "agent"; readonly message: string };

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
