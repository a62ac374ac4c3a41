/**
 * The `date-time` and `iso-date-time` formats without splitting the string. ajv-formats splits the whole value at
 * every "t" or white space and then checks that there were exactly two parts: on a string of a million separators
 * the model chooses, that builds a million strings (0.5 s for 640 KB). Here the first separator is found, the rest
 * is checked to hold no other, and ajv-formats' own `date` and `time` (or `iso-time`) check the two parts, so the
 * answers are the same (a test compares them).
 *
 * The source below is the single definition: the validators' prelude (helpers.ts) calls it with ajv-formats' formats,
 * and in-process validation evaluates it once, like linear-url.ts.
 */
export const LINEAR_DATE_TIME_SOURCE = String.raw`(function linearDateTimes(formats) {
  const SEPARATOR = /t|\s/i;
  const dateTime = (time) => (str) => {
    const at = str.search(SEPARATOR);
    if (at === -1) return false;
    const rest = str.slice(at + 1);
    return !SEPARATOR.test(rest) && formats.date.validate(str.slice(0, at)) && time(rest);
  };
  return { "date-time": dateTime(formats.time.validate), "iso-date-time": dateTime(formats["iso-time"].validate) };
})`;
