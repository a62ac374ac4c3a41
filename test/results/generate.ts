/** Deterministic generators for property-style tests: the same seed gives the same values. */

export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  "a",
  "b",
  "z",
  "Q",
  " ",
  " ",
  "\n",
  "\t",
  '"',
  "\\",
  "/",
  "0",
  "7",
  "é",
  "ß",
  "漢",
  "字",
  "😀",
  "🇫🇷",
  "\u0001",
  "\u001f",
  "<|endoftext|>",
  "{",
  "}",
  ",",
  ":",
  "ā",
  "\u2028",
  "word",
  "the ",
  "  ",
];

export function randomText(random: () => number, length: number): string {
  let out = "";
  while (out.length < length) out += ALPHABET[Math.floor(random() * ALPHABET.length)]!;
  return out;
}

/** A random JSON value with nesting, long strings, non-ASCII and numbers of every form. */
export function randomValue(random: () => number, depth = 0): unknown {
  const pick = random();
  if (depth > 3 || pick < 0.35) {
    const scalar = random();
    if (scalar < 0.3) return randomText(random, Math.floor(random() * (random() < 0.1 ? 3000 : 60)));
    if (scalar < 0.5) return Math.floor((random() - 0.5) * 1e6);
    if (scalar < 0.65) return (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20);
    if (scalar < 0.75) return random() < 0.5;
    if (scalar < 0.85) return null;
    return -1.2345678901234567e-300;
  }
  if (pick < 0.65) return Array.from({ length: Math.floor(random() * 12) }, () => randomValue(random, depth + 1));
  const out: Record<string, unknown> = {};
  const keys = Math.floor(random() * 8);
  for (let i = 0; i < keys; i++) out[randomText(random, 1 + Math.floor(random() * 8))] = randomValue(random, depth + 1);
  return out;
}
