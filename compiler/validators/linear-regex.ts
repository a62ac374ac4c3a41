/**
 * The `regex` format without compiling the model's string. ajv-formats asks V8 (`new RegExp(str)`), whose parser
 * takes super-linear time on strings the model chooses (1 MiB of "(?:" took 2 s, of "(?=a)" 1.4 s, on one call,
 * in the host). Here the string is checked by regexpp's validator (@eslint-community/regexpp, the parser ESLint
 * uses), which reads it once, with the same Annex B grammar V8 applies without the u flag; the "\Z" refusal is
 * ajv-formats' own. A test compares the two on generated strings.
 *
 * One deliberate difference: a pattern whose groups nest deeper than MAX_GROUP_DEPTH (256, the depth limit of JSON
 * values) is refused. V8 accepts some thousands of levels and regexpp's recursive parser runs out of stack at a
 * depth that depends on the machine; a fixed limit keeps the verdict the same everywhere.
 *
 * The source below is the single definition: the validators' prelude (helpers.ts) calls it with regexpp's
 * validator bundled in, and in-process validation evaluates it once, like linear-url.ts.
 */
export const LINEAR_REGEX_SOURCE = String.raw`(function linearRegex(RegExpValidator) {
  const Z_ANCHOR = /[^\\]\\Z/;
  const MAX_GROUP_DEPTH = 256;
  const validator = new RegExpValidator({ ecmaVersion: 2025, strict: false });
  // The deepest nesting of groups outside character classes, in one pass.
  const groupDepth = (str) => {
    let depth = 0;
    let deepest = 0;
    let inClass = false;
    for (let i = 0; i < str.length; i++) {
      const c = str[i];
      if (c === "\\") i++;
      else if (inClass) inClass = c !== "]";
      else if (c === "[") inClass = true;
      else if (c === "(") deepest = Math.max(deepest, ++depth);
      else if (c === ")") depth--;
    }
    return deepest;
  };
  return function regex(str) {
    if (Z_ANCHOR.test(str) || groupDepth(str) > MAX_GROUP_DEPTH) return false;
    try {
      validator.validatePattern(str, 0, str.length, { unicode: false, unicodeSets: false });
      return true;
    } catch (error) {
      if (error instanceof SyntaxError) return false;
      throw error;
    }
  };
})`;
