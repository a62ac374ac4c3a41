import type { ts } from "./typescript.js";
import type { Diagnostic } from "../diagnostics.js";
import type { CaveFunction, Module } from "./model.js";
import type { Options } from "./options.js";
import type { Placement } from "./placement.js";

/** One tool()/agent()/artifact() call as analysis knows it. */
export interface Definition {
  readonly kind: CaveFunction;
  readonly module: Module;
  readonly call: ts.CallExpression;
  /** Null for artifact(), which may be written anywhere. */
  readonly placement: Placement | null;
  /** Null when the options cannot be read. */
  readonly options: Options | null;
  /** Values for the SDK's checks: static values, NOT_STATIC where unknown, stand-ins for what is evaluated later. */
  readonly values: Record<string, unknown>;
  readonly diagnostics: Diagnostic[];
  /** It depends on a definition whose facts are unknown; that definition's diagnostics say why. */
  incomplete: boolean;
  checked: boolean;
  /** Where the lock finds it (homes.ts); null while unknown, and for a definition that is not locked. */
  home: Home | null;
}

/** The module and export the runtime imports a locked tool or agent from. */
export interface Home {
  readonly module: Module;
  readonly exportName: string;
  /** A module-level const the source does not export: the staged bundle exports it under its own name. */
  readonly synthetic: boolean;
}

/** How messages name a definition: by its name when it is known, else by its export. */
export function subjectOf(kind: CaveFunction, name: unknown, placement: Placement | null): string {
  if (typeof name === "string") return `${kind} ${JSON.stringify(name)}`;
  if (placement?.ok) return `${kind} exported as ${placement.exportName}`;
  if (placement && placement.local) return `${kind} ${placement.local}`;
  return `${kind}()`;
}

export function definitionSubject(definition: Definition): string {
  return subjectOf(definition.kind, definition.values.name, definition.placement);
}

export function hasErrors(definition: Definition): boolean {
  return definition.incomplete || definition.diagnostics.some((d) => d.severity === "error");
}
