import { isAbsolute, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { BundleMap } from "./source-map.js";

/** Frames an outcome's stack keeps at most (V8 records 10 by default; a tool may raise Error.stackTraceLimit). */
export const MAX_STACK_FRAMES = 20;

/** Where the frames of a stack may point, and how a staged bundle's frames are mapped back. */
export interface StackPlaces {
  /** Real paths of the runtime's private copy of the verified files (the lock's paths below it), if there is one. */
  readonly copyDirs: readonly string[];
  /** Installed external packages the runtime checked: each one's real folder and its install path in the lock. */
  readonly packages: ReadonlyArray<{ readonly dir: string; readonly path: string }>;
  /** The source map of the staged file at `path` (relative to the copy), or undefined when it has none. */
  mapOf(path: string): Promise<BundleMap | undefined>;
}

/**
 * A thrown error's V8 stack as frames an outcome can show: `name (file:line:column)` with the original file of a
 * staged bundle's code (its source map), other staged files (the SDK module) by their path in the build folder, and
 * installed external packages by their install path. Frames anywhere else (Node's internals, cave's own files, any
 * other path of this machine) and lines that are not frames (the message, which the outcome says already) are left
 * out: outputs are the same on every machine, and name nothing outside the project.
 */
export async function mapStack(raw: string, places: StackPlaces): Promise<string[]> {
  return (await mapFrames(raw, places)).map((frame) => {
    const where = `${frame.file}:${frame.line}:${frame.column}`;
    return frame.name === "" ? where : `${frame.name} (${where})`;
  });
}

/** A frame of a stack: the function's name as V8 gives it ("" when none), a file (here: relative) and 1-based line and column. */
export interface StackFrame {
  readonly name: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** mapStack's frames as data, innermost first. */
export async function mapFrames(raw: string, places: StackPlaces): Promise<StackFrame[]> {
  const frames: StackFrame[] = [];
  for (const line of raw.split("\n")) {
    if (frames.length >= MAX_STACK_FRAMES) break;
    const frame = parseFrame(line);
    if (frame === undefined) continue;
    const where = await place(frame, places);
    if (where !== undefined) frames.push({ name: frame.name, ...where });
  }
  return frames;
}

type RawFrame = StackFrame;

const FRAME = /^\s*at (.*)$/;
const LOCATION = /^(.+):(\d+):(\d+)$/;

function parseFrame(text: string): RawFrame | undefined {
  const match = FRAME.exec(text);
  if (match === null) return undefined;
  const body = match[1]!;
  const open = body.endsWith(")") ? body.lastIndexOf(" (") : -1;
  const name = open < 0 ? "" : body.slice(0, open);
  const location = LOCATION.exec(open < 0 ? body : body.slice(open + 2, -1));
  if (location === null) return undefined;
  let file = location[1]!;
  if (file.startsWith("file://")) {
    try {
      file = fileURLToPath(file);
    } catch {
      return undefined;
    }
  } else if (!isAbsolute(file)) return undefined;
  return { name, file, line: Number(location[2]), column: Number(location[3]) };
}

async function place(
  frame: RawFrame,
  places: StackPlaces,
): Promise<{ file: string; line: number; column: number } | undefined> {
  for (const dir of places.copyDirs) {
    const path = below(dir, frame.file);
    if (path === undefined) continue;
    const original = (await places.mapOf(path))?.at(frame.line, frame.column);
    return original === undefined
      ? { file: path, line: frame.line, column: frame.column }
      : { file: original.source, line: original.line, column: original.column };
  }
  for (const { dir, path } of places.packages) {
    const inside = below(dir, frame.file);
    if (inside !== undefined) return { file: `${path}/${inside}`, line: frame.line, column: frame.column };
  }
  return undefined;
}

/** `file` relative to `dir` as a POSIX path, or undefined when it is not below it. */
function below(dir: string, file: string): string | undefined {
  const rel = relative(dir, file);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}
