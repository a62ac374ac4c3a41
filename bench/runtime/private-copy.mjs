// What the runtime's private copy (runtime/loading/private-copy.ts) costs on a tool's first use, against the alternatives it
// replaced, in one process run (ratios side by side): N tool bundles of a realistic size plus the one SDK module.
//   A  read + sha256 (verification alone: what every scheme does)
//   B  A + import from a data: URL (the scheme before: no file URL for tool code)
//   W  A + write into the private copy (mkdtemp 0700, wx, 0400), no import: the copy's own cost
//   C  W + import by file URL (the scheme now)
// Each side gets its own files and its own fresh module URLs (imports are cached per URL). Run after `npm run build`:
//   node bench/runtime/private-copy.mjs [N=1000] [bundle KB=11]
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const repoRoot = new URL("../..", import.meta.url);
const { PrivateCopy } = await import(new URL("dist/runtime/loading/private-copy.js", repoRoot).href);

const count = Number(process.argv[2] ?? 1000);
const kilobytes = Number(process.argv[3] ?? 11);
const base = mkdtempSync(join(tmpdir(), "cave-bench-copy-"));

/** A valid ES module of about `kilobytes` KB, unique per side and index. */
function moduleText(side, i) {
  const filler = "x".repeat(kilobytes * 1024 - 80);
  return `export const name = "${side}_${i}";\nexport const filler = "${filler}";\n`;
}

function writeSide(side) {
  const dir = join(base, side, "bundles");
  mkdirSync(dir, { recursive: true });
  const files = [];
  for (let i = 0; i < count; i++) {
    const relative = `bundles/tool_${i}.mjs`;
    const text = moduleText(side, i);
    writeFileSync(join(base, side, relative), text);
    files.push({ relative, expected: createHash("sha256").update(text).digest("hex") });
  }
  return files;
}

async function verified(side, file) {
  const bytes = await readFile(join(base, side, file.relative));
  if (createHash("sha256").update(bytes).digest("hex") !== file.expected) throw new Error("hash");
  return bytes;
}

const sides = {
  A: async (files, side) => {
    for (const file of files) await verified(side, file);
  },
  B: async (files, side) => {
    for (const file of files) {
      const bytes = await verified(side, file);
      await import(`data:text/javascript;base64,${bytes.toString("base64")}`);
    }
  },
  W: async (files, side) => {
    const copy = new PrivateCopy();
    for (const file of files) await copy.add(file.relative, await verified(side, file));
    copy.dispose();
  },
  C: async (files, side) => {
    const copy = new PrivateCopy();
    for (const file of files) {
      const bytes = await verified(side, file);
      await import(pathToFileURL(await copy.add(file.relative, bytes)).href);
    }
    copy.dispose();
  },
};

// Three rounds, the sides in a rotating order, each on files of its own; the median of each side is reported (the
// machine is shared: the spread is printed too).
const rounds = 3;
const times = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
try {
  for (let round = 0; round < rounds; round++) {
    const order = Object.keys(sides);
    for (let r = 0; r < round; r++) order.push(order.shift());
    for (const side of order) {
      const folder = `${side}${round}`;
      const files = writeSide(folder);
      const start = performance.now();
      await sides[side](files, folder);
      times[side].push(performance.now() - start);
    }
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const results = Object.fromEntries(Object.entries(times).map(([side, list]) => [side, median(list)]));
const spread = (side) => times[side].map((ms) => ms.toFixed(0)).join(" / ");
const perTool = (ms) => `${((ms * 1000) / count).toFixed(0)} µs/tool`;
console.log(
  `${count} bundles of ${kilobytes} KB, first use of each, one process (Node ${process.version}), median of ${rounds} rounds`,
);
console.log(
  `A read + verify:                         ${results.A.toFixed(0)} ms (${perTool(results.A)}; ${spread("A")})`,
);
console.log(
  `B A + import from data: URL:             ${results.B.toFixed(0)} ms (${perTool(results.B)}; ${spread("B")})`,
);
console.log(
  `W A + private copy, no import:           ${results.W.toFixed(0)} ms (${perTool(results.W)}; ${spread("W")})`,
);
console.log(
  `C W + import by file URL:                ${results.C.toFixed(0)} ms (${perTool(results.C)}; ${spread("C")})`,
);
console.log(
  `the copy alone (W - A): ${(results.W - results.A).toFixed(0)} ms (${perTool(results.W - results.A)}); C / B = ${(results.C / results.B).toFixed(2)}x`,
);
