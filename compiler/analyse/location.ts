import type { ts } from "./typescript.js";
import type { Module } from "./model.js";

/** 1-based line and column of where a node's text starts (after its leading trivia). */
export function locate(module: Module, node: ts.Node): { file: string; line: number; column: number } {
  const { line, character } = module.sf.getLineAndCharacterOfPosition(node.getStart(module.sf));
  return { file: module.file, line: line + 1, column: character + 1 };
}

/** "file:line:column", for messages that point at a second place. */
export function describePlace(module: Module, node: ts.Node): string {
  const at = locate(module, node);
  return `${at.file}:${at.line}:${at.column}`;
}
