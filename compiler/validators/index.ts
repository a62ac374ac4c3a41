export { compileValidators, type ValidatorCacheEntry, type ValidatorsOptions } from "./pass.js";
export { AJV_OPTIONS, inProcessAjv } from "./ajv-options.js";
export { GENERATED_HEADER } from "./assemble.js";
