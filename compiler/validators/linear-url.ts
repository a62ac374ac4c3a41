/**
 * The `url` format in linear time, answering exactly as ajv-formats' url pattern does (a test compares
 * the two on generated and adversarial strings). That pattern backtracks in cubic time: its optional
 * userinfo `\S+(?::\S*)?@` may end at any "@" and every split is tried again with the host and path
 * after it (80 KB took 1.5 s). Here each part is found once:
 * - after `http://`, `https://` or `ftp://`, the userinfo is absent or ends at some "@" with no
 *   whitespace before it; the host then runs to the first ":" or "/" (neither can be in a host) and may
 *   hold no "@", so the hosts of the possible splits never overlap and each is tested once;
 * - the host is the pattern's own IPv4 (at most 15 characters) or host-name expression, which recheck
 *   proves linear alone;
 * - an optional port of 2 to 5 digits, then an optional path "/" with no whitespace to the end.
 *
 * The source below is the single definition, embedded as is in the validators' prelude (helpers.ts)
 * and evaluated once here for in-process validation, like decimal-multiple-of.ts.
 */
export const LINEAR_URL_SOURCE = String.raw`(function url(str) {
  const SCHEME = /^(?:https?|ftp):\/\//i;
  const IPV4 = /^(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4])))$/iu;
  const NAME = /^(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,}))$/iu;
  const SPACE = /\s/u;
  const scheme = SCHEME.exec(str);
  if (scheme === null) return false;
  const rest = str.slice(scheme[0].length);
  const n = rest.length;
  let firstSpace = n;
  let lastSpace = -1;
  for (let i = 0; i < n; i++) {
    if (SPACE.test(rest[i])) {
      if (firstSpace === n) firstSpace = i;
      lastSpace = i;
    }
  }
  // For every position: the first ":" or "/" at or after it, and the first "@" at or after it.
  const stop = new Int32Array(n + 1);
  const at = new Int32Array(n + 1);
  stop[n] = n;
  at[n] = n;
  for (let i = n - 1; i >= 0; i--) {
    const c = rest[i];
    stop[i] = c === ":" || c === "/" ? i : stop[i + 1];
    at[i] = c === "@" ? i : at[i + 1];
  }
  const tail = (p) => {
    if (p === n) return true;
    let q = p;
    if (rest[q] === ":") {
      let digits = 0;
      while (q + 1 + digits < n && digits < 6 && rest.charCodeAt(q + 1 + digits) >= 48 && rest.charCodeAt(q + 1 + digits) <= 57) digits++;
      if (digits < 2 || digits > 5) return false;
      q += 1 + digits;
      if (q === n) return true;
    }
    return rest[q] === "/" && lastSpace < q;
  };
  const hostAt = (s) => {
    const end = stop[s];
    if (at[s] < end || end === s) return false;
    const host = rest.slice(s, end);
    return ((host.length <= 15 && IPV4.test(host)) || NAME.test(host)) && tail(end);
  };
  if (hostAt(0)) return true;
  for (let k = at[1]; k < n && k <= firstSpace; k = at[k + 1]) {
    if (k + 1 <= n && hostAt(k + 1)) return true;
  }
  return false;
})`;
