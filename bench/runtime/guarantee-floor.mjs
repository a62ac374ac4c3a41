// The floor of cave's guarantees for ready + first call: the least work any runtime must do before a first call if it
// keeps what cave promises, written as straight-line code with none of the runtime's own (first-call.mjs's
// "guarantees" side). Against a lock in the layout cave build writes, it:
//  - verifies the lock's seal (the header's canonical JSON, its toolHashes read as lines as the runtime does, SHA-256);
//  - finds the tool's entry (the first one: no search) and checks it against its toolHashes pin;
//  - reads and hashes the tool's two validator files and compiles the input validator's serializer part;
//  - reads and hashes the tool's module and the SDK module, writes both into a fresh private folder and imports the
//    tool from there (what was checked is what runs);
//  - validates the arguments, hashes their canonical text for the receipt, makes a call id, calls execute.
// It leaves out what a real runtime also does (option checks, the lock schema's shape checks, effects, deadline,
// repeat guard, result plan, the receipt itself, error paths), so it is a lower bound: a runtime cannot be faster than
// this on the same machine. Every check throws on a mismatch, so the floor cannot pass by skipping one.
import { createHash, randomUUID } from "node:crypto";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileFunction } from "node:vm";

const sha256 = (bytes) => `sha256-${createHash("sha256").update(bytes).digest("hex")}`;
const FIRST_READ = 128 * 1024;
const TOOL_HASHES = '\n  "toolHashes": {\n';
const TOOLS = '\n  "tools": {\n';
const AJV_PART = "\n// Ajv's part";
const MAX_ARGS_BYTES = 1024 * 1024;

/** Calls tool `name`, the lock's first, with `args` doing only what the guarantees need; returns execute's result. */
export async function callWithGuaranteesOnly(root, name, args) {
  const { head, toolsAt, next } = readHeader(join(root, "cave.lock"));
  const hashesAt = head.lastIndexOf(TOOL_HASHES, toolsAt);
  if (hashesAt < 0) throw new Error("guarantee-floor: the lock is not in cave build's layout");
  const { integrity, ...sealed } = JSON.parse(`${head.toString("utf8", 0, hashesAt - 1)}\n}`);
  const lines = head.toString("latin1", hashesAt + TOOL_HASHES.length, toolsAt - "\n  },".length);
  const compact = lines.replace(/\n {4}|(?<=":) /g, "").trimStart();
  if (sha256(`${JSON.stringify(sealed).slice(0, -1)},"toolHashes":{${compact}}}`) !== integrity)
    throw new Error("guarantee-floor: the lock's seal does not match");

  const entryAt = toolsAt + TOOLS.length;
  const keyEnd = head.indexOf('": ', entryAt);
  if (head.toString("utf8", entryAt + '    "'.length, keyEnd) !== name)
    throw new Error(`guarantee-floor: ${name} is not the lock's first tool, the only one this floor finds`);
  const entry = JSON.parse(head.toString("utf8", keyEnd + 3, head.lastIndexOf(",", next)));
  const pinAt = lines.indexOf(`"${name}": "`) + name.length + 5;
  if (sha256(JSON.stringify(entry)) !== lines.slice(pinAt, lines.indexOf('"', pinAt)))
    throw new Error(`guarantee-floor: ${name}'s entry does not match its pin`);

  const verified = (relative, pin) => {
    const bytes = readFileSync(join(root, relative));
    if (sha256(bytes) !== pin) throw new Error(`guarantee-floor: ${relative} does not match its pin`);
    return bytes;
  };
  const input = verified(entry.input.validation.module, entry.input.validation.sha256);
  verified(entry.output.validation.module, entry.output.validation.sha256);
  const serializer = compileFunction(input.toString("utf8", 0, input.indexOf(AJV_PART) + 1), [])();
  const sdkPath = join(sealed.buildDir, "sdk", "cave.mjs");
  const files = [
    [entry.source.bundle, verified(entry.source.bundle, entry.source.sha256)],
    [sdkPath, verified(sdkPath, sealed.sdk.module.sha256)],
  ];

  // Removed at exit, as the runtime removes its private copy: not part of a first call.
  const copy = mkdtempSync(join(tmpdir(), "cave-floor-"));
  process.once("exit", () => rmSync(copy, { recursive: true, force: true }));
  for (const [relative, bytes] of files) {
    mkdirSync(dirname(join(copy, relative)), { recursive: true, mode: 0o700 });
    writeFileSync(join(copy, relative), bytes, { flag: "wx", mode: 0o400 });
  }
  const module = await import(pathToFileURL(join(copy, entry.source.bundle)).href);
  // The emitted walk validates and writes the sorted twin whose JSON is the canonical text, in one pass.
  const snapshot = serializer.canonical(args, MAX_ARGS_BYTES);
  if (snapshot?.valid !== true) throw new Error("guarantee-floor: the arguments do not validate");
  const receipt = { argsSha256: sha256(JSON.stringify(snapshot.sorted)), callId: randomUUID() };
  return await module[entry.export].execute(args, {
    signal: new AbortController().signal,
    callId: receipt.callId,
    call: async () => null,
  });
}

/**
 * The lock's first bytes, up to past its first tool entry, read in growing steps; where its tools part starts, and
 * where the second entry's key line starts (the first entry ends before it).
 */
function readHeader(path) {
  const fd = openSync(path, "r");
  try {
    let head = Buffer.allocUnsafe(FIRST_READ);
    let read = 0;
    for (;;) {
      const got = readSync(fd, head, read, head.length - read, read);
      read += got;
      const bytes = head.subarray(0, read);
      const toolsAt = bytes.indexOf(TOOLS);
      const next = toolsAt < 0 ? -1 : bytes.indexOf('\n    "', toolsAt + TOOLS.length + 1);
      if (next >= 0) return { head: bytes, toolsAt, next };
      if (got === 0) throw new Error("guarantee-floor: the lock is not in cave build's layout");
      if (read === head.length) head = Buffer.concat([head, Buffer.allocUnsafe(head.length)]);
    }
  } finally {
    closeSync(fd);
  }
}
