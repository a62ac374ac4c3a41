/**
 * The `uri` and `uri-reference` formats in linear time, answering exactly as ajv-formats' patterns do (a test
 * compares them on generated and adversarial strings). Those patterns take quadratic time and worse on strings
 * the model chooses (a few KB of "][" took milliseconds, growing with the square of the length), because their
 * alternatives (authority, absolute path, rootless path) and the optional scheme are tried again at every
 * backtracking point.
 *
 * Here the parts are found by their delimiters, which the grammar keeps out of the parts before them: the
 * fragment starts at the first "#", the query at the first "?" before it (no part of the hierarchical part
 * holds either), the authority ends at the first "/", the userinfo at the only "@" (no host holds one) and a
 * registered name at the first ":". Each part is then checked once against its character set (or the pattern's
 * own IP-literal expressions: the IPv6 one only on at most 45 characters, the IPvFuture one proven linear by recheck). The few choices left (scheme or not in a reference,
 * "//" or "/" before an authority) are tried one after the other, each in one pass.
 *
 * The source below is the single definition, embedded as is in the validators' prelude (helpers.ts) and
 * evaluated once here for in-process validation, like linear-url.ts.
 */
export const LINEAR_URI_SOURCE = String.raw`(function linearUri() {
  const SCHEME = /^[a-z][a-z0-9+\-.]*:/i;
  // An IP literal is an IPv6 address (at most 45 characters: six groups and an IPv4 address) or an IPvFuture.
  const IPV6 = /^(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::))$/i;
  const IPV6_MAX_LENGTH = 45;
  const IP_FUTURE = /^[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+$/i;
  const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const set = (chars) => {
    const table = new Uint8Array(128);
    for (const c of ALNUM + chars) table[c.charCodeAt(0)] = 1;
    return table;
  };
  // The character sets of the two patterns: a reference also allows '"' in names, paths, queries and fragments.
  const sets = (quote) => ({
    userinfo: set("-._~!$&'()*+,;=:"),
    name: set("-._~!$&'()*+,;=" + quote),
    path: set("-._~!$&'()*+,;=:@/" + quote),
    query: set("-._~!$&'()*+,;=:@/?" + quote),
  });
  const URI_SETS = sets("");
  const REFERENCE_SETS = sets('"');
  const hex = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
  // Every character of s[from, to) is in the set or starts a %XX escape that ends before to.
  const within = (s, from, to, table) => {
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      if (c === 37) {
        if (i + 2 >= to || !hex(s.charCodeAt(i + 1)) || !hex(s.charCodeAt(i + 2))) return false;
        i += 2;
      } else if (c >= 128 || table[c] === 0) return false;
    }
    return true;
  };
  const digits = (s, from, to) => {
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) return false;
    }
    return true;
  };
  // An optional ":" and digits: the port after a host.
  const port = (s, from, to) => from === to || (s.charCodeAt(from) === 58 && digits(s, from + 1, to));
  const authority = (s, from, to, t) => {
    let host = from;
    const at = s.indexOf("@", from);
    if (at !== -1 && at < to) {
      if (!within(s, from, at, t.userinfo)) return false;
      host = at + 1;
    }
    if (s.charCodeAt(host) === 91 && host < to) {
      const close = s.indexOf("]", host);
      if (close === -1 || close >= to) return false;
      const literal = s.slice(host + 1, close);
      if (!((literal.length <= IPV6_MAX_LENGTH && IPV6.test(literal)) || IP_FUTURE.test(literal))) return false;
      return port(s, close + 1, to);
    }
    let colon = s.indexOf(":", host);
    if (colon === -1 || colon > to) colon = to;
    return within(s, host, colon, t.name) && port(s, colon, to);
  };
  // "/" or "//", an authority up to the next "/", then a path of "/"-led segments.
  const afterSlashes = (s, from, to, t) => {
    let end = s.indexOf("/", from);
    if (end === -1 || end > to) end = to;
    return authority(s, from, end, t) && within(s, end, to, t.path);
  };
  const hierarchical = (s, from, to, t) => {
    if (from === to) return false;
    const slash = s.charCodeAt(from) === 47;
    if (slash && afterSlashes(s, from + 1, to, t)) return true;
    if (slash && s.charCodeAt(from + 1) === 47 && from + 1 < to && afterSlashes(s, from + 2, to, t)) return true;
    // An absolute path ("/" then nothing or a non-empty first segment) or a rootless one (a non-empty first segment).
    if (slash && from + 1 < to && s.charCodeAt(from + 1) === 47) return false;
    return within(s, from, to, t.path);
  };
  // The query from the first "?" and the fragment from the first "#"; returns where the hierarchical part ends, or -1.
  const tail = (s, t) => {
    let hash = s.indexOf("#");
    if (hash === -1) hash = s.length;
    else if (!within(s, hash + 1, s.length, t.query)) return -1;
    let question = s.indexOf("?");
    if (question === -1 || question > hash) question = hash;
    else if (!within(s, question + 1, hash, t.query)) return -1;
    return question;
  };
  const uri = (s) => {
    if (!/\/|:/.test(s)) return false;
    const scheme = SCHEME.exec(s);
    if (scheme === null) return false;
    const end = tail(s, URI_SETS);
    return end !== -1 && end >= scheme[0].length && hierarchical(s, scheme[0].length, end, URI_SETS);
  };
  const uriReference = (s) => {
    const end = tail(s, REFERENCE_SETS);
    if (end === -1) return false;
    if (end === 0 || hierarchical(s, 0, end, REFERENCE_SETS)) return true;
    const scheme = SCHEME.exec(s);
    return scheme !== null && scheme[0].length <= end && (scheme[0].length === end || hierarchical(s, scheme[0].length, end, REFERENCE_SETS));
  };
  return { uri, "uri-reference": uriReference };
})()`;
