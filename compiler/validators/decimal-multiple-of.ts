import { _, str, type Ajv, type KeywordCxt } from "ajv";
import { fromSource } from "./from-source.js";
import { useFunc } from "ajv/dist/compile/util.js";

/**
 * `multipleOf` on the decimal values JSON carries, not on binary floats. Ajv divides (0.07 / 0.01 is
 * 7.000000000000001) and so rejects 0.07 as a multiple of 0.01 — a money amount in cents — and 3.3 as a multiple
 * of 1.1; `multipleOfPrecision` only trades that for an absolute tolerance that grows wrong with magnitude. This
 * compares the shortest decimal forms (what JSON.stringify prints) exactly, with BigInt: a JSON number has at most
 * ~17 significant digits and an exponent within ±324, so the work is bounded.
 *
 * The source below is the single definition: it is embedded as is in every generated validator (so the bytes
 * do not depend on how this compiler was itself compiled) and evaluated once here for in-process validation.
 */
export const DECIMAL_MULTIPLE_OF_SOURCE = `(function decimalMultipleOf(value, divisor) {
  if (Number.isInteger(value) && Number.isInteger(divisor)) return value % divisor === 0;
  const parts = (x) => {
    const [mantissa, exponent = "0"] = String(x).split("e");
    const [whole, fraction = ""] = mantissa.split(".");
    return { digits: BigInt(whole + fraction), exponent: Number(exponent) - fraction.length };
  };
  const a = parts(value);
  const b = parts(divisor);
  const e = Math.min(a.exponent, b.exponent);
  return (a.digits * 10n ** BigInt(a.exponent - e)) % (b.digits * 10n ** BigInt(b.exponent - e)) === 0n;
})`;

// A constant of ours, not user data: evaluating it is how the in-process validator gets the very same function.
const decimalMultipleOf = Object.assign(
  fromSource<(value: number, divisor: number) => boolean>(DECIMAL_MULTIPLE_OF_SOURCE),
  {
    code: DECIMAL_MULTIPLE_OF_SOURCE,
  },
);

/** Replaces Ajv's multipleOf with the decimal one; errors keep Ajv's shape (message, params.multipleOf). */
export function useDecimalMultipleOf(ajv: Ajv): void {
  ajv.removeKeyword("multipleOf");
  ajv.addKeyword({
    keyword: "multipleOf",
    type: "number",
    schemaType: "number",
    error: {
      message: ({ schemaCode }) => str`must be multiple of ${schemaCode}`,
      params: ({ schemaCode }) => _`{multipleOf: ${schemaCode}}`,
    },
    code(cxt: KeywordCxt) {
      const fn = useFunc(cxt.gen, decimalMultipleOf);
      cxt.fail(_`!${fn}(${cxt.data}, ${cxt.schemaCode})`);
    },
  });
}
