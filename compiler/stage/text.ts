/** How far into a file git looks for a NUL byte to call it binary (xdiff's FIRST_FEW_BYTES). */
const SNIFF_BYTES = 8000;
const BOM = [0xef, 0xbb, 0xbf];

/** Whether a file is text the way git's `text=auto` decides: no NUL byte in its first 8,000 bytes. */
export function isText(bytes: Uint8Array): boolean {
  return !bytes.subarray(0, SNIFF_BYTES).includes(0);
}

/**
 * A file's bytes as a commit holds them under git's text normalisation, whatever the checkout did: for a text file,
 * CRLF line endings become LF and a leading UTF-8 BOM is dropped; a binary file is returned as it is. Staging hashes
 * sources and stages assets in this form, so a Windows checkout (core.autocrlf) locks what a Linux one does.
 */
export function normalisedText(bytes: Uint8Array): Uint8Array {
  if (!isText(bytes)) return bytes;
  const start = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? 3 : 0;
  if (start === 0 && !bytes.includes(0x0d)) return bytes;
  const out = new Uint8Array(bytes.length - start);
  let n = 0;
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x0d && bytes[i + 1] === 0x0a) continue;
    out[n++] = byte;
  }
  return out.subarray(0, n);
}
