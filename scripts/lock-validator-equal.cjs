// Ajv's runtime helper `equal` (for uniqueItems) as the generated lock validator bundles it: the same function,
// fast-deep-equal, without the note ajv/dist/runtime/equal.js adds to it (`equal.code`, a string that names
// "ajv/dist/runtime/equal" in a require call, which scripts/import-closure.mjs would read as the runtime importing Ajv).
module.exports = { default: require("fast-deep-equal") };
