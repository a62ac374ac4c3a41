// DO NOT EDIT: generated from docs/cave.lock.schema.json by scripts/generate-lock-validator.mjs (npm run build).
// @ts-nocheck
var __getOwnPropNames = Object.getOwnPropertyNames;
var __commonJS = (cb, mod) => function __require() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};

// node_modules/fast-deep-equal/index.js
var require_fast_deep_equal = __commonJS({
  "node_modules/fast-deep-equal/index.js"(exports, module) {
    "use strict";
    module.exports = function equal(a, b) {
      if (a === b) return true;
      if (a && b && typeof a == "object" && typeof b == "object") {
        if (a.constructor !== b.constructor) return false;
        var length, i, keys;
        if (Array.isArray(a)) {
          length = a.length;
          if (length != b.length) return false;
          for (i = length; i-- !== 0; )
            if (!equal(a[i], b[i])) return false;
          return true;
        }
        if (a.constructor === RegExp) return a.source === b.source && a.flags === b.flags;
        if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
        if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();
        keys = Object.keys(a);
        length = keys.length;
        if (length !== Object.keys(b).length) return false;
        for (i = length; i-- !== 0; )
          if (!Object.prototype.hasOwnProperty.call(b, keys[i])) return false;
        for (i = length; i-- !== 0; ) {
          var key = keys[i];
          if (!equal(a[key], b[key])) return false;
        }
        return true;
      }
      return a !== a && b !== b;
    };
  }
});

// scripts/lock-validator-equal.cjs
var require_lock_validator_equal = __commonJS({
  "scripts/lock-validator-equal.cjs"(exports, module) {
    module.exports = { default: require_fast_deep_equal() };
  }
});

// lock-shape.js
var header = validate10;
var schema11 = { "$schema": "http://json-schema.org/draft-07/schema#", "$id": "cave.lock.header", "type": "object", "additionalProperties": false, "required": ["lockfileVersion", "integrity", "buildDir", "sdk", "agents", "externals", "osLayerTools", "toolHashes"], "properties": { "lockfileVersion": { "const": 2 }, "integrity": { "$ref": "#/definitions/hash" }, "buildDir": { "$ref": "#/definitions/relativePath" }, "sdk": { "type": ["object", "null"], "additionalProperties": false, "required": ["id", "sha256", "files", "module"], "properties": { "id": { "type": "string", "pattern": "^cave@\\S+$" }, "sha256": { "$ref": "#/definitions/hash" }, "files": { "type": "object", "additionalProperties": { "$ref": "#/definitions/hash" } }, "module": { "type": "object", "additionalProperties": false, "required": ["path", "sha256"], "properties": { "path": { "$ref": "#/definitions/relativePath" }, "sha256": { "$ref": "#/definitions/hash" } } } } }, "agents": { "type": "object", "propertyNames": { "$ref": "#/definitions/name" }, "additionalProperties": { "$ref": "#/definitions/agent" } }, "externals": { "type": "object", "propertyNames": { "pattern": "^(\\.\\./)*([^./][^/]*/)*node_modules/(@[^/.][^/]*/)?[^/.][^/]*(/node_modules/(@[^/.][^/]*/)?[^/.][^/]*)*$" }, "additionalProperties": { "type": "object", "additionalProperties": false, "required": ["name", "version", "integrity", "optional"], "properties": { "name": { "type": "string", "minLength": 1 }, "version": { "type": "string", "minLength": 1 }, "integrity": { "type": "string", "minLength": 1 }, "optional": { "type": "boolean" } } } }, "osLayerTools": { "$ref": "#/definitions/sortedNames" }, "toolHashes": { "type": "object", "propertyNames": { "$ref": "#/definitions/name" }, "additionalProperties": { "$ref": "#/definitions/hash" } } }, "definitions": { "hash": { "type": "string", "pattern": "^sha256-[0-9a-f]{64}$" }, "name": { "type": "string", "pattern": "^[a-zA-Z][a-zA-Z0-9_-]{0,127}$" }, "relativePath": { "type": "string", "minLength": 1, "pattern": "^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$" }, "sortedNames": { "type": "array", "items": { "$ref": "#/definitions/name" }, "uniqueItems": true }, "egressEntry": { "type": "string", "pattern": "^(\\*\\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[1-9][0-9]{0,4})?$" }, "agent": { "type": "object", "additionalProperties": false, "required": ["module", "export", "description", "tools"], "properties": { "module": { "$ref": "#/definitions/relativePath" }, "export": { "type": "string", "minLength": 1 }, "description": { "type": ["string", "null"] }, "tools": { "$ref": "#/definitions/sortedNames" } } }, "tool": { "type": "object", "additionalProperties": false, "required": ["module", "export", "description", "effect", "speculable", "retryable", "timeoutMs", "allowRepeat", "sandbox", "nestedTools", "source", "input", "output", "result"], "properties": { "module": { "$ref": "#/definitions/relativePath" }, "export": { "type": "string", "minLength": 1 }, "description": { "type": "string", "minLength": 1 }, "effect": { "enum": ["read", "write", "idempotent", "external"] }, "speculable": { "type": "boolean" }, "retryable": { "type": "boolean" }, "timeoutMs": { "type": "integer", "minimum": 1, "maximum": 2147483647 }, "allowRepeat": { "type": "boolean" }, "sandbox": { "type": "object", "additionalProperties": false, "required": ["mode", "network", "env", "egress", "secrets", "fs", "addons"], "properties": { "mode": { "enum": ["required", "none"] }, "network": { "const": false }, "env": { "type": "array", "items": { "type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$" }, "uniqueItems": true }, "egress": { "type": "array", "uniqueItems": true, "items": { "$ref": "#/definitions/egressEntry" } }, "secrets": { "type": "object", "propertyNames": { "pattern": "^[A-Za-z_][A-Za-z0-9_]*$" }, "additionalProperties": { "type": "object", "additionalProperties": false, "required": ["format", "header", "hosts"], "properties": { "format": { "type": "string", "pattern": "\\{\\}" }, "header": { "type": "string", "pattern": "^[a-z0-9!#$%&'*+.^_`|~-]+$" }, "hosts": { "type": "array", "minItems": 1, "uniqueItems": true, "items": { "$ref": "#/definitions/egressEntry" } } } } }, "fs": { "type": ["object", "null"], "additionalProperties": false, "required": ["read", "write"], "properties": { "read": { "$ref": "#/definitions/fsScopes" }, "write": { "$ref": "#/definitions/fsScopes" } } }, "addons": { "type": "boolean" } } }, "nestedTools": { "$ref": "#/definitions/sortedNames" }, "source": { "type": "object", "additionalProperties": false, "required": ["bundle", "sha256", "files", "assets", "externals"], "properties": { "bundle": { "$ref": "#/definitions/relativePath" }, "sha256": { "$ref": "#/definitions/hash" }, "files": { "type": "object", "minProperties": 1, "additionalProperties": { "$ref": "#/definitions/hash" } }, "assets": { "type": "array", "items": { "type": "object", "additionalProperties": false, "required": ["path", "sha256"], "properties": { "path": { "$ref": "#/definitions/relativePath" }, "sha256": { "$ref": "#/definitions/hash" } } } }, "externals": { "type": "array", "uniqueItems": true, "items": { "type": "string", "pattern": "^(\\.\\./)*([^./][^/]*/)*node_modules/(@[^/.][^/]*/)?[^/.][^/]*(/node_modules/(@[^/.][^/]*/)?[^/.][^/]*)*$" } } } }, "input": { "$ref": "#/definitions/schemaSide" }, "output": { "$ref": "#/definitions/schemaSide" }, "result": { "$ref": "#/definitions/result" } } }, "schemaSide": { "type": ["object", "null"], "additionalProperties": false, "required": ["jsonSchema", "sha256", "validation"], "properties": { "jsonSchema": { "type": ["object", "null"] }, "sha256": { "oneOf": [{ "$ref": "#/definitions/hash" }, { "type": "null" }] }, "validation": { "type": "object", "required": ["kind"], "oneOf": [{ "type": "object", "additionalProperties": false, "required": ["kind", "module", "sha256"], "properties": { "kind": { "const": "precompiled" }, "module": { "$ref": "#/definitions/relativePath" }, "sha256": { "$ref": "#/definitions/hash" } } }, { "type": "object", "additionalProperties": false, "required": ["kind", "vendor", "semanticsSHA256"], "properties": { "kind": { "const": "opaque" }, "vendor": { "type": "string", "minLength": 1 }, "semanticsSHA256": { "type": "string", "pattern": "^[0-9a-f]{64}$" } } }], "discriminator": { "propertyName": "kind" } } } }, "resultPlan": { "type": "object", "additionalProperties": false, "required": ["strategy", "reason", "bound", "inlineUpToTokens", "pageTokens", "transform", "recovery", "tokenizer"], "properties": { "strategy": { "enum": ["inline", "page", "compress", "exact_ccr"] }, "reason": { "type": "string", "minLength": 1 }, "bound": { "type": "object", "required": ["kind"], "oneOf": [{ "type": "object", "additionalProperties": false, "required": ["kind", "tokens"], "properties": { "kind": { "const": "bounded" }, "tokens": { "type": "integer", "minimum": 0 } } }, { "type": "object", "additionalProperties": false, "required": ["kind", "path", "why"], "properties": { "kind": { "const": "unbounded" }, "path": { "type": "string" }, "why": { "type": "string", "minLength": 1 } } }], "discriminator": { "propertyName": "kind" } }, "inlineUpToTokens": { "type": ["integer", "null"], "minimum": 1 }, "pageTokens": { "type": ["integer", "null"], "minimum": 64 }, "transform": { "type": ["object", "null"], "additionalProperties": false, "required": ["id", "version", "lossless", "module", "sha256"], "properties": { "id": { "type": "string", "pattern": "^[a-z][a-z0-9-]*$" }, "version": { "type": "integer", "minimum": 1 }, "lossless": { "type": "boolean" }, "module": { "$ref": "#/definitions/relativePath" }, "sha256": { "$ref": "#/definitions/hash" } } }, "recovery": { "enum": ["exact_ccr", "none"] }, "tokenizer": { "type": ["object", "null"], "additionalProperties": false, "required": ["id", "version"], "properties": { "id": { "type": "string", "minLength": 1 }, "version": { "type": "string", "minLength": 1 } } } } }, "result": { "type": "object", "additionalProperties": false, "required": ["requested", "plan"], "properties": { "plan": { "$ref": "#/definitions/resultPlan" }, "requested": { "type": "object", "required": ["policy"], "oneOf": [{ "type": "object", "additionalProperties": false, "required": ["policy"], "properties": { "policy": { "enum": ["auto", "inline", "page", "compress", "exact_ccr"] } } }, { "type": "object", "additionalProperties": false, "required": ["policy", "artifact"], "properties": { "policy": { "const": "artifact" }, "artifact": { "type": "object", "additionalProperties": false, "required": ["strategy", "maxInlineTokens", "recovery"], "properties": { "strategy": { "enum": ["page", "compress", "exact_ccr"] }, "maxInlineTokens": { "type": "integer", "minimum": 1 }, "recovery": { "enum": ["exact_ccr", "none"] } } } } }], "discriminator": { "propertyName": "policy" } } } }, "fsScopes": { "type": "array", "items": { "type": "string", "minLength": 1, "maxLength": 512, "pattern": "^(?:\\$[A-Z][A-Z0-9_]{0,63}(?:/[^/\\\\,\\u0000-\\u001f]+)*|\\.|[^/$~\\\\,\\u0000-\\u001f][^\\\\,\\u0000-\\u001f]*)$", "not": { "pattern": "(?:^|/)\\.\\.(?:/|$)|/\\.(?:/|$)|^\\./|//|/$" } }, "uniqueItems": true } } };
var func0 = Object.prototype.hasOwnProperty;
var pattern0 = new RegExp("^sha256-[0-9a-f]{64}$", "u");
var pattern1 = new RegExp("^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$", "u");
var pattern2 = new RegExp("^cave@\\S+$", "u");
var pattern7 = new RegExp("^[a-zA-Z][a-zA-Z0-9_-]{0,127}$", "u");
var pattern10 = new RegExp("^(\\.\\./)*([^./][^/]*/)*node_modules/(@[^/.][^/]*/)?[^/.][^/]*(/node_modules/(@[^/.][^/]*/)?[^/.][^/]*)*$", "u");
var schema19 = { "type": "object", "additionalProperties": false, "required": ["module", "export", "description", "tools"], "properties": { "module": { "$ref": "#/definitions/relativePath" }, "export": { "type": "string", "minLength": 1 }, "description": { "type": ["string", "null"] }, "tools": { "$ref": "#/definitions/sortedNames" } } };
var func32 = require_lock_validator_equal().default;
function validate12(data, { instancePath = "", parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (errors === 0) {
    if (Array.isArray(data)) {
      var valid0 = true;
      const len0 = data.length;
      for (let i0 = 0; i0 < len0; i0++) {
        let data0 = data[i0];
        const _errs1 = errors;
        const _errs2 = errors;
        if (errors === _errs2) {
          if (typeof data0 === "string") {
            if (!pattern7.test(data0)) {
              validate12.errors = [{ instancePath: instancePath + "/" + i0, schemaPath: "#/definitions/name/pattern", keyword: "pattern", params: { pattern: "^[a-zA-Z][a-zA-Z0-9_-]{0,127}$" } }];
              return false;
            }
          } else {
            validate12.errors = [{ instancePath: instancePath + "/" + i0, schemaPath: "#/definitions/name/type", keyword: "type", params: { type: "string" } }];
            return false;
          }
        }
        var valid0 = _errs1 === errors;
        if (!valid0) {
          break;
        }
      }
      if (valid0) {
        let i1 = data.length;
        let j0;
        if (i1 > 1) {
          outer0:
            for (; i1--; ) {
              for (j0 = i1; j0--; ) {
                if (func32(data[i1], data[j0])) {
                  validate12.errors = [{ instancePath, schemaPath: "#/uniqueItems", keyword: "uniqueItems", params: { i: i1, j: j0 } }];
                  return false;
                  break outer0;
                }
              }
            }
        }
      }
    } else {
      validate12.errors = [{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: "array" } }];
      return false;
    }
  }
  validate12.errors = vErrors;
  return errors === 0;
}
function validate11(data, { instancePath = "", parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (errors === 0) {
    if (data && typeof data == "object" && !Array.isArray(data)) {
      let missing0;
      if ((data.module === void 0 || !func0.call(data, "module")) && (missing0 = "module") || (data.export === void 0 || !func0.call(data, "export")) && (missing0 = "export") || (data.description === void 0 || !func0.call(data, "description")) && (missing0 = "description") || (data.tools === void 0 || !func0.call(data, "tools")) && (missing0 = "tools")) {
        validate11.errors = [{ instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: missing0 } }];
        return false;
      } else {
        const _errs1 = errors;
        for (const key0 of Object.keys(data)) {
          if (!(key0 === "module" || key0 === "export" || key0 === "description" || key0 === "tools")) {
            validate11.errors = [{ instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 } }];
            return false;
            break;
          }
        }
        if (_errs1 === errors) {
          if (data.module !== void 0 && func0.call(data, "module")) {
            let data0 = data.module;
            const _errs2 = errors;
            const _errs3 = errors;
            if (errors === _errs3) {
              if (typeof data0 === "string") {
                if (data0.length < 1) {
                  validate11.errors = [{ instancePath: instancePath + "/module", schemaPath: "#/definitions/relativePath/minLength", keyword: "minLength", params: { limit: 1 } }];
                  return false;
                } else {
                  if (!pattern1.test(data0)) {
                    validate11.errors = [{ instancePath: instancePath + "/module", schemaPath: "#/definitions/relativePath/pattern", keyword: "pattern", params: { pattern: "^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$" } }];
                    return false;
                  }
                }
              } else {
                validate11.errors = [{ instancePath: instancePath + "/module", schemaPath: "#/definitions/relativePath/type", keyword: "type", params: { type: "string" } }];
                return false;
              }
            }
            var valid0 = _errs2 === errors;
          } else {
            var valid0 = true;
          }
          if (valid0) {
            if (data.export !== void 0 && func0.call(data, "export")) {
              let data1 = data.export;
              const _errs5 = errors;
              if (errors === _errs5) {
                if (typeof data1 === "string") {
                  if (data1.length < 1) {
                    validate11.errors = [{ instancePath: instancePath + "/export", schemaPath: "#/properties/export/minLength", keyword: "minLength", params: { limit: 1 } }];
                    return false;
                  }
                } else {
                  validate11.errors = [{ instancePath: instancePath + "/export", schemaPath: "#/properties/export/type", keyword: "type", params: { type: "string" } }];
                  return false;
                }
              }
              var valid0 = _errs5 === errors;
            } else {
              var valid0 = true;
            }
            if (valid0) {
              if (data.description !== void 0 && func0.call(data, "description")) {
                let data2 = data.description;
                const _errs7 = errors;
                if (typeof data2 !== "string" && data2 !== null) {
                  validate11.errors = [{ instancePath: instancePath + "/description", schemaPath: "#/properties/description/type", keyword: "type", params: { type: schema19.properties.description.type } }];
                  return false;
                }
                var valid0 = _errs7 === errors;
              } else {
                var valid0 = true;
              }
              if (valid0) {
                if (data.tools !== void 0 && func0.call(data, "tools")) {
                  const _errs9 = errors;
                  if (!validate12(data.tools, { instancePath: instancePath + "/tools", parentData: data, parentDataProperty: "tools", rootData })) {
                    vErrors = vErrors === null ? validate12.errors : vErrors.concat(validate12.errors);
                    errors = vErrors.length;
                  }
                  var valid0 = _errs9 === errors;
                } else {
                  var valid0 = true;
                }
              }
            }
          }
        }
      }
    } else {
      validate11.errors = [{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" } }];
      return false;
    }
  }
  validate11.errors = vErrors;
  return errors === 0;
}
function validate10(data, { instancePath = "", parentData, parentDataProperty, rootData = data } = {}) {
  ;
  let vErrors = null;
  let errors = 0;
  if (errors === 0) {
    if (data && typeof data == "object" && !Array.isArray(data)) {
      let missing0;
      if ((data.lockfileVersion === void 0 || !func0.call(data, "lockfileVersion")) && (missing0 = "lockfileVersion") || (data.integrity === void 0 || !func0.call(data, "integrity")) && (missing0 = "integrity") || (data.buildDir === void 0 || !func0.call(data, "buildDir")) && (missing0 = "buildDir") || (data.sdk === void 0 || !func0.call(data, "sdk")) && (missing0 = "sdk") || (data.agents === void 0 || !func0.call(data, "agents")) && (missing0 = "agents") || (data.externals === void 0 || !func0.call(data, "externals")) && (missing0 = "externals") || (data.osLayerTools === void 0 || !func0.call(data, "osLayerTools")) && (missing0 = "osLayerTools") || (data.toolHashes === void 0 || !func0.call(data, "toolHashes")) && (missing0 = "toolHashes")) {
        validate10.errors = [{ instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: missing0 } }];
        return false;
      } else {
        const _errs1 = errors;
        for (const key0 of Object.keys(data)) {
          if (!(key0 === "lockfileVersion" || key0 === "integrity" || key0 === "buildDir" || key0 === "sdk" || key0 === "agents" || key0 === "externals" || key0 === "osLayerTools" || key0 === "toolHashes")) {
            validate10.errors = [{ instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 } }];
            return false;
            break;
          }
        }
        if (_errs1 === errors) {
          if (data.lockfileVersion !== void 0 && func0.call(data, "lockfileVersion")) {
            const _errs2 = errors;
            if (2 !== data.lockfileVersion) {
              validate10.errors = [{ instancePath: instancePath + "/lockfileVersion", schemaPath: "#/properties/lockfileVersion/const", keyword: "const", params: { allowedValue: 2 } }];
              return false;
            }
            var valid0 = _errs2 === errors;
          } else {
            var valid0 = true;
          }
          if (valid0) {
            if (data.integrity !== void 0 && func0.call(data, "integrity")) {
              let data1 = data.integrity;
              const _errs3 = errors;
              const _errs4 = errors;
              if (errors === _errs4) {
                if (typeof data1 === "string") {
                  if (!pattern0.test(data1)) {
                    validate10.errors = [{ instancePath: instancePath + "/integrity", schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                    return false;
                  }
                } else {
                  validate10.errors = [{ instancePath: instancePath + "/integrity", schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                  return false;
                }
              }
              var valid0 = _errs3 === errors;
            } else {
              var valid0 = true;
            }
            if (valid0) {
              if (data.buildDir !== void 0 && func0.call(data, "buildDir")) {
                let data2 = data.buildDir;
                const _errs6 = errors;
                const _errs7 = errors;
                if (errors === _errs7) {
                  if (typeof data2 === "string") {
                    if (data2.length < 1) {
                      validate10.errors = [{ instancePath: instancePath + "/buildDir", schemaPath: "#/definitions/relativePath/minLength", keyword: "minLength", params: { limit: 1 } }];
                      return false;
                    } else {
                      if (!pattern1.test(data2)) {
                        validate10.errors = [{ instancePath: instancePath + "/buildDir", schemaPath: "#/definitions/relativePath/pattern", keyword: "pattern", params: { pattern: "^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$" } }];
                        return false;
                      }
                    }
                  } else {
                    validate10.errors = [{ instancePath: instancePath + "/buildDir", schemaPath: "#/definitions/relativePath/type", keyword: "type", params: { type: "string" } }];
                    return false;
                  }
                }
                var valid0 = _errs6 === errors;
              } else {
                var valid0 = true;
              }
              if (valid0) {
                if (data.sdk !== void 0 && func0.call(data, "sdk")) {
                  let data3 = data.sdk;
                  const _errs9 = errors;
                  if (!(data3 && typeof data3 == "object" && !Array.isArray(data3)) && data3 !== null) {
                    validate10.errors = [{ instancePath: instancePath + "/sdk", schemaPath: "#/properties/sdk/type", keyword: "type", params: { type: schema11.properties.sdk.type } }];
                    return false;
                  }
                  if (errors === _errs9) {
                    if (data3 && typeof data3 == "object" && !Array.isArray(data3)) {
                      let missing1;
                      if ((data3.id === void 0 || !func0.call(data3, "id")) && (missing1 = "id") || (data3.sha256 === void 0 || !func0.call(data3, "sha256")) && (missing1 = "sha256") || (data3.files === void 0 || !func0.call(data3, "files")) && (missing1 = "files") || (data3.module === void 0 || !func0.call(data3, "module")) && (missing1 = "module")) {
                        validate10.errors = [{ instancePath: instancePath + "/sdk", schemaPath: "#/properties/sdk/required", keyword: "required", params: { missingProperty: missing1 } }];
                        return false;
                      } else {
                        const _errs11 = errors;
                        for (const key1 of Object.keys(data3)) {
                          if (!(key1 === "id" || key1 === "sha256" || key1 === "files" || key1 === "module")) {
                            validate10.errors = [{ instancePath: instancePath + "/sdk", schemaPath: "#/properties/sdk/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 } }];
                            return false;
                            break;
                          }
                        }
                        if (_errs11 === errors) {
                          if (data3.id !== void 0 && func0.call(data3, "id")) {
                            let data4 = data3.id;
                            const _errs12 = errors;
                            if (errors === _errs12) {
                              if (typeof data4 === "string") {
                                if (!pattern2.test(data4)) {
                                  validate10.errors = [{ instancePath: instancePath + "/sdk/id", schemaPath: "#/properties/sdk/properties/id/pattern", keyword: "pattern", params: { pattern: "^cave@\\S+$" } }];
                                  return false;
                                }
                              } else {
                                validate10.errors = [{ instancePath: instancePath + "/sdk/id", schemaPath: "#/properties/sdk/properties/id/type", keyword: "type", params: { type: "string" } }];
                                return false;
                              }
                            }
                            var valid3 = _errs12 === errors;
                          } else {
                            var valid3 = true;
                          }
                          if (valid3) {
                            if (data3.sha256 !== void 0 && func0.call(data3, "sha256")) {
                              let data5 = data3.sha256;
                              const _errs14 = errors;
                              const _errs15 = errors;
                              if (errors === _errs15) {
                                if (typeof data5 === "string") {
                                  if (!pattern0.test(data5)) {
                                    validate10.errors = [{ instancePath: instancePath + "/sdk/sha256", schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                                    return false;
                                  }
                                } else {
                                  validate10.errors = [{ instancePath: instancePath + "/sdk/sha256", schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                                  return false;
                                }
                              }
                              var valid3 = _errs14 === errors;
                            } else {
                              var valid3 = true;
                            }
                            if (valid3) {
                              if (data3.files !== void 0 && func0.call(data3, "files")) {
                                let data6 = data3.files;
                                const _errs17 = errors;
                                if (errors === _errs17) {
                                  if (data6 && typeof data6 == "object" && !Array.isArray(data6)) {
                                    for (const key2 of Object.keys(data6)) {
                                      let data7 = data6[key2];
                                      const _errs20 = errors;
                                      const _errs21 = errors;
                                      if (errors === _errs21) {
                                        if (typeof data7 === "string") {
                                          if (!pattern0.test(data7)) {
                                            validate10.errors = [{ instancePath: instancePath + "/sdk/files/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                                            return false;
                                          }
                                        } else {
                                          validate10.errors = [{ instancePath: instancePath + "/sdk/files/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                                          return false;
                                        }
                                      }
                                      var valid5 = _errs20 === errors;
                                      if (!valid5) {
                                        break;
                                      }
                                    }
                                  } else {
                                    validate10.errors = [{ instancePath: instancePath + "/sdk/files", schemaPath: "#/properties/sdk/properties/files/type", keyword: "type", params: { type: "object" } }];
                                    return false;
                                  }
                                }
                                var valid3 = _errs17 === errors;
                              } else {
                                var valid3 = true;
                              }
                              if (valid3) {
                                if (data3.module !== void 0 && func0.call(data3, "module")) {
                                  let data8 = data3.module;
                                  const _errs23 = errors;
                                  if (errors === _errs23) {
                                    if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                                      let missing2;
                                      if ((data8.path === void 0 || !func0.call(data8, "path")) && (missing2 = "path") || (data8.sha256 === void 0 || !func0.call(data8, "sha256")) && (missing2 = "sha256")) {
                                        validate10.errors = [{ instancePath: instancePath + "/sdk/module", schemaPath: "#/properties/sdk/properties/module/required", keyword: "required", params: { missingProperty: missing2 } }];
                                        return false;
                                      } else {
                                        const _errs25 = errors;
                                        for (const key3 of Object.keys(data8)) {
                                          if (!(key3 === "path" || key3 === "sha256")) {
                                            validate10.errors = [{ instancePath: instancePath + "/sdk/module", schemaPath: "#/properties/sdk/properties/module/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key3 } }];
                                            return false;
                                            break;
                                          }
                                        }
                                        if (_errs25 === errors) {
                                          if (data8.path !== void 0 && func0.call(data8, "path")) {
                                            let data9 = data8.path;
                                            const _errs26 = errors;
                                            const _errs27 = errors;
                                            if (errors === _errs27) {
                                              if (typeof data9 === "string") {
                                                if (data9.length < 1) {
                                                  validate10.errors = [{ instancePath: instancePath + "/sdk/module/path", schemaPath: "#/definitions/relativePath/minLength", keyword: "minLength", params: { limit: 1 } }];
                                                  return false;
                                                } else {
                                                  if (!pattern1.test(data9)) {
                                                    validate10.errors = [{ instancePath: instancePath + "/sdk/module/path", schemaPath: "#/definitions/relativePath/pattern", keyword: "pattern", params: { pattern: "^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$" } }];
                                                    return false;
                                                  }
                                                }
                                              } else {
                                                validate10.errors = [{ instancePath: instancePath + "/sdk/module/path", schemaPath: "#/definitions/relativePath/type", keyword: "type", params: { type: "string" } }];
                                                return false;
                                              }
                                            }
                                            var valid7 = _errs26 === errors;
                                          } else {
                                            var valid7 = true;
                                          }
                                          if (valid7) {
                                            if (data8.sha256 !== void 0 && func0.call(data8, "sha256")) {
                                              let data10 = data8.sha256;
                                              const _errs29 = errors;
                                              const _errs30 = errors;
                                              if (errors === _errs30) {
                                                if (typeof data10 === "string") {
                                                  if (!pattern0.test(data10)) {
                                                    validate10.errors = [{ instancePath: instancePath + "/sdk/module/sha256", schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                                                    return false;
                                                  }
                                                } else {
                                                  validate10.errors = [{ instancePath: instancePath + "/sdk/module/sha256", schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                                                  return false;
                                                }
                                              }
                                              var valid7 = _errs29 === errors;
                                            } else {
                                              var valid7 = true;
                                            }
                                          }
                                        }
                                      }
                                    } else {
                                      validate10.errors = [{ instancePath: instancePath + "/sdk/module", schemaPath: "#/properties/sdk/properties/module/type", keyword: "type", params: { type: "object" } }];
                                      return false;
                                    }
                                  }
                                  var valid3 = _errs23 === errors;
                                } else {
                                  var valid3 = true;
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                  var valid0 = _errs9 === errors;
                } else {
                  var valid0 = true;
                }
                if (valid0) {
                  if (data.agents !== void 0 && func0.call(data, "agents")) {
                    let data11 = data.agents;
                    const _errs32 = errors;
                    if (errors === _errs32) {
                      if (data11 && typeof data11 == "object" && !Array.isArray(data11)) {
                        for (const key4 of Object.keys(data11)) {
                          const _errs34 = errors;
                          const _errs35 = errors;
                          if (errors === _errs35) {
                            if (typeof key4 === "string") {
                              if (!pattern7.test(key4)) {
                                const err0 = { instancePath: instancePath + "/agents", schemaPath: "#/definitions/name/pattern", keyword: "pattern", params: { pattern: "^[a-zA-Z][a-zA-Z0-9_-]{0,127}$" }, propertyName: key4 };
                                if (vErrors === null) {
                                  vErrors = [err0];
                                } else {
                                  vErrors.push(err0);
                                }
                                errors++;
                              }
                            } else {
                              const err1 = { instancePath: instancePath + "/agents", schemaPath: "#/definitions/name/type", keyword: "type", params: { type: "string" }, propertyName: key4 };
                              if (vErrors === null) {
                                vErrors = [err1];
                              } else {
                                vErrors.push(err1);
                              }
                              errors++;
                            }
                          }
                          var valid10 = _errs34 === errors;
                          if (!valid10) {
                            const err2 = { instancePath: instancePath + "/agents", schemaPath: "#/properties/agents/propertyNames", keyword: "propertyNames", params: { propertyName: key4 } };
                            if (vErrors === null) {
                              vErrors = [err2];
                            } else {
                              vErrors.push(err2);
                            }
                            errors++;
                            validate10.errors = vErrors;
                            return false;
                            break;
                          }
                        }
                        if (valid10) {
                          for (const key5 of Object.keys(data11)) {
                            const _errs38 = errors;
                            if (!validate11(data11[key5], { instancePath: instancePath + "/agents/" + key5.replace(/~/g, "~0").replace(/\//g, "~1"), parentData: data11, parentDataProperty: key5, rootData })) {
                              vErrors = vErrors === null ? validate11.errors : vErrors.concat(validate11.errors);
                              errors = vErrors.length;
                            }
                            var valid12 = _errs38 === errors;
                            if (!valid12) {
                              break;
                            }
                          }
                        }
                      } else {
                        validate10.errors = [{ instancePath: instancePath + "/agents", schemaPath: "#/properties/agents/type", keyword: "type", params: { type: "object" } }];
                        return false;
                      }
                    }
                    var valid0 = _errs32 === errors;
                  } else {
                    var valid0 = true;
                  }
                  if (valid0) {
                    if (data.externals !== void 0 && func0.call(data, "externals")) {
                      let data13 = data.externals;
                      const _errs39 = errors;
                      if (errors === _errs39) {
                        if (data13 && typeof data13 == "object" && !Array.isArray(data13)) {
                          for (const key6 of Object.keys(data13)) {
                            const _errs41 = errors;
                            if (typeof key6 === "string") {
                              if (!pattern10.test(key6)) {
                                const err3 = { instancePath: instancePath + "/externals", schemaPath: "#/properties/externals/propertyNames/pattern", keyword: "pattern", params: { pattern: "^(\\.\\./)*([^./][^/]*/)*node_modules/(@[^/.][^/]*/)?[^/.][^/]*(/node_modules/(@[^/.][^/]*/)?[^/.][^/]*)*$" }, propertyName: key6 };
                                if (vErrors === null) {
                                  vErrors = [err3];
                                } else {
                                  vErrors.push(err3);
                                }
                                errors++;
                              }
                            }
                            var valid13 = _errs41 === errors;
                            if (!valid13) {
                              const err4 = { instancePath: instancePath + "/externals", schemaPath: "#/properties/externals/propertyNames", keyword: "propertyNames", params: { propertyName: key6 } };
                              if (vErrors === null) {
                                vErrors = [err4];
                              } else {
                                vErrors.push(err4);
                              }
                              errors++;
                              validate10.errors = vErrors;
                              return false;
                              break;
                            }
                          }
                          if (valid13) {
                            for (const key7 of Object.keys(data13)) {
                              let data14 = data13[key7];
                              const _errs43 = errors;
                              if (errors === _errs43) {
                                if (data14 && typeof data14 == "object" && !Array.isArray(data14)) {
                                  let missing3;
                                  if ((data14.name === void 0 || !func0.call(data14, "name")) && (missing3 = "name") || (data14.version === void 0 || !func0.call(data14, "version")) && (missing3 = "version") || (data14.integrity === void 0 || !func0.call(data14, "integrity")) && (missing3 = "integrity") || (data14.optional === void 0 || !func0.call(data14, "optional")) && (missing3 = "optional")) {
                                    validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/properties/externals/additionalProperties/required", keyword: "required", params: { missingProperty: missing3 } }];
                                    return false;
                                  } else {
                                    const _errs45 = errors;
                                    for (const key8 of Object.keys(data14)) {
                                      if (!(key8 === "name" || key8 === "version" || key8 === "integrity" || key8 === "optional")) {
                                        validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/properties/externals/additionalProperties/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key8 } }];
                                        return false;
                                        break;
                                      }
                                    }
                                    if (_errs45 === errors) {
                                      if (data14.name !== void 0 && func0.call(data14, "name")) {
                                        let data15 = data14.name;
                                        const _errs46 = errors;
                                        if (errors === _errs46) {
                                          if (typeof data15 === "string") {
                                            if (data15.length < 1) {
                                              validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1") + "/name", schemaPath: "#/properties/externals/additionalProperties/properties/name/minLength", keyword: "minLength", params: { limit: 1 } }];
                                              return false;
                                            }
                                          } else {
                                            validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1") + "/name", schemaPath: "#/properties/externals/additionalProperties/properties/name/type", keyword: "type", params: { type: "string" } }];
                                            return false;
                                          }
                                        }
                                        var valid15 = _errs46 === errors;
                                      } else {
                                        var valid15 = true;
                                      }
                                      if (valid15) {
                                        if (data14.version !== void 0 && func0.call(data14, "version")) {
                                          let data16 = data14.version;
                                          const _errs48 = errors;
                                          if (errors === _errs48) {
                                            if (typeof data16 === "string") {
                                              if (data16.length < 1) {
                                                validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1") + "/version", schemaPath: "#/properties/externals/additionalProperties/properties/version/minLength", keyword: "minLength", params: { limit: 1 } }];
                                                return false;
                                              }
                                            } else {
                                              validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1") + "/version", schemaPath: "#/properties/externals/additionalProperties/properties/version/type", keyword: "type", params: { type: "string" } }];
                                              return false;
                                            }
                                          }
                                          var valid15 = _errs48 === errors;
                                        } else {
                                          var valid15 = true;
                                        }
                                        if (valid15) {
                                          if (data14.integrity !== void 0 && func0.call(data14, "integrity")) {
                                            let data17 = data14.integrity;
                                            const _errs50 = errors;
                                            if (errors === _errs50) {
                                              if (typeof data17 === "string") {
                                                if (data17.length < 1) {
                                                  validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1") + "/integrity", schemaPath: "#/properties/externals/additionalProperties/properties/integrity/minLength", keyword: "minLength", params: { limit: 1 } }];
                                                  return false;
                                                }
                                              } else {
                                                validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1") + "/integrity", schemaPath: "#/properties/externals/additionalProperties/properties/integrity/type", keyword: "type", params: { type: "string" } }];
                                                return false;
                                              }
                                            }
                                            var valid15 = _errs50 === errors;
                                          } else {
                                            var valid15 = true;
                                          }
                                          if (valid15) {
                                            if (data14.optional !== void 0 && func0.call(data14, "optional")) {
                                              const _errs52 = errors;
                                              if (typeof data14.optional !== "boolean") {
                                                validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1") + "/optional", schemaPath: "#/properties/externals/additionalProperties/properties/optional/type", keyword: "type", params: { type: "boolean" } }];
                                                return false;
                                              }
                                              var valid15 = _errs52 === errors;
                                            } else {
                                              var valid15 = true;
                                            }
                                          }
                                        }
                                      }
                                    }
                                  }
                                } else {
                                  validate10.errors = [{ instancePath: instancePath + "/externals/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/properties/externals/additionalProperties/type", keyword: "type", params: { type: "object" } }];
                                  return false;
                                }
                              }
                              var valid14 = _errs43 === errors;
                              if (!valid14) {
                                break;
                              }
                            }
                          }
                        } else {
                          validate10.errors = [{ instancePath: instancePath + "/externals", schemaPath: "#/properties/externals/type", keyword: "type", params: { type: "object" } }];
                          return false;
                        }
                      }
                      var valid0 = _errs39 === errors;
                    } else {
                      var valid0 = true;
                    }
                    if (valid0) {
                      if (data.osLayerTools !== void 0 && func0.call(data, "osLayerTools")) {
                        const _errs54 = errors;
                        if (!validate12(data.osLayerTools, { instancePath: instancePath + "/osLayerTools", parentData: data, parentDataProperty: "osLayerTools", rootData })) {
                          vErrors = vErrors === null ? validate12.errors : vErrors.concat(validate12.errors);
                          errors = vErrors.length;
                        }
                        var valid0 = _errs54 === errors;
                      } else {
                        var valid0 = true;
                      }
                      if (valid0) {
                        if (data.toolHashes !== void 0 && func0.call(data, "toolHashes")) {
                          let data20 = data.toolHashes;
                          const _errs55 = errors;
                          if (errors === _errs55) {
                            if (data20 && typeof data20 == "object" && !Array.isArray(data20)) {
                              for (const key9 of Object.keys(data20)) {
                                const _errs57 = errors;
                                const _errs58 = errors;
                                if (errors === _errs58) {
                                  if (typeof key9 === "string") {
                                    if (!pattern7.test(key9)) {
                                      const err5 = { instancePath: instancePath + "/toolHashes", schemaPath: "#/definitions/name/pattern", keyword: "pattern", params: { pattern: "^[a-zA-Z][a-zA-Z0-9_-]{0,127}$" }, propertyName: key9 };
                                      if (vErrors === null) {
                                        vErrors = [err5];
                                      } else {
                                        vErrors.push(err5);
                                      }
                                      errors++;
                                    }
                                  } else {
                                    const err6 = { instancePath: instancePath + "/toolHashes", schemaPath: "#/definitions/name/type", keyword: "type", params: { type: "string" }, propertyName: key9 };
                                    if (vErrors === null) {
                                      vErrors = [err6];
                                    } else {
                                      vErrors.push(err6);
                                    }
                                    errors++;
                                  }
                                }
                                var valid16 = _errs57 === errors;
                                if (!valid16) {
                                  const err7 = { instancePath: instancePath + "/toolHashes", schemaPath: "#/properties/toolHashes/propertyNames", keyword: "propertyNames", params: { propertyName: key9 } };
                                  if (vErrors === null) {
                                    vErrors = [err7];
                                  } else {
                                    vErrors.push(err7);
                                  }
                                  errors++;
                                  validate10.errors = vErrors;
                                  return false;
                                  break;
                                }
                              }
                              if (valid16) {
                                for (const key10 of Object.keys(data20)) {
                                  let data21 = data20[key10];
                                  const _errs61 = errors;
                                  const _errs62 = errors;
                                  if (errors === _errs62) {
                                    if (typeof data21 === "string") {
                                      if (!pattern0.test(data21)) {
                                        validate10.errors = [{ instancePath: instancePath + "/toolHashes/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                                        return false;
                                      }
                                    } else {
                                      validate10.errors = [{ instancePath: instancePath + "/toolHashes/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                                      return false;
                                    }
                                  }
                                  var valid18 = _errs61 === errors;
                                  if (!valid18) {
                                    break;
                                  }
                                }
                              }
                            } else {
                              validate10.errors = [{ instancePath: instancePath + "/toolHashes", schemaPath: "#/properties/toolHashes/type", keyword: "type", params: { type: "object" } }];
                              return false;
                            }
                          }
                          var valid0 = _errs55 === errors;
                        } else {
                          var valid0 = true;
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    } else {
      validate10.errors = [{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" } }];
      return false;
    }
  }
  validate10.errors = vErrors;
  return errors === 0;
}
var tool = validate32;
var schema40 = { "type": "object", "additionalProperties": false, "required": ["module", "export", "description", "effect", "speculable", "retryable", "timeoutMs", "allowRepeat", "sandbox", "nestedTools", "source", "input", "output", "result"], "properties": { "module": { "$ref": "#/definitions/relativePath" }, "export": { "type": "string", "minLength": 1 }, "description": { "type": "string", "minLength": 1 }, "effect": { "enum": ["read", "write", "idempotent", "external"] }, "speculable": { "type": "boolean" }, "retryable": { "type": "boolean" }, "timeoutMs": { "type": "integer", "minimum": 1, "maximum": 2147483647 }, "allowRepeat": { "type": "boolean" }, "sandbox": { "type": "object", "additionalProperties": false, "required": ["mode", "network", "env", "egress", "secrets", "fs", "addons"], "properties": { "mode": { "enum": ["required", "none"] }, "network": { "const": false }, "env": { "type": "array", "items": { "type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$" }, "uniqueItems": true }, "egress": { "type": "array", "uniqueItems": true, "items": { "$ref": "#/definitions/egressEntry" } }, "secrets": { "type": "object", "propertyNames": { "pattern": "^[A-Za-z_][A-Za-z0-9_]*$" }, "additionalProperties": { "type": "object", "additionalProperties": false, "required": ["format", "header", "hosts"], "properties": { "format": { "type": "string", "pattern": "\\{\\}" }, "header": { "type": "string", "pattern": "^[a-z0-9!#$%&'*+.^_`|~-]+$" }, "hosts": { "type": "array", "minItems": 1, "uniqueItems": true, "items": { "$ref": "#/definitions/egressEntry" } } } } }, "fs": { "type": ["object", "null"], "additionalProperties": false, "required": ["read", "write"], "properties": { "read": { "$ref": "#/definitions/fsScopes" }, "write": { "$ref": "#/definitions/fsScopes" } } }, "addons": { "type": "boolean" } } }, "nestedTools": { "$ref": "#/definitions/sortedNames" }, "source": { "type": "object", "additionalProperties": false, "required": ["bundle", "sha256", "files", "assets", "externals"], "properties": { "bundle": { "$ref": "#/definitions/relativePath" }, "sha256": { "$ref": "#/definitions/hash" }, "files": { "type": "object", "minProperties": 1, "additionalProperties": { "$ref": "#/definitions/hash" } }, "assets": { "type": "array", "items": { "type": "object", "additionalProperties": false, "required": ["path", "sha256"], "properties": { "path": { "$ref": "#/definitions/relativePath" }, "sha256": { "$ref": "#/definitions/hash" } } } }, "externals": { "type": "array", "uniqueItems": true, "items": { "type": "string", "pattern": "^(\\.\\./)*([^./][^/]*/)*node_modules/(@[^/.][^/]*/)?[^/.][^/]*(/node_modules/(@[^/.][^/]*/)?[^/.][^/]*)*$" } } } }, "input": { "$ref": "#/definitions/schemaSide" }, "output": { "$ref": "#/definitions/schemaSide" }, "result": { "$ref": "#/definitions/result" } } };
var pattern28 = new RegExp("^[A-Za-z_][A-Za-z0-9_]*$", "u");
var pattern29 = new RegExp("^(\\*\\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[1-9][0-9]{0,4})?$", "u");
var pattern31 = new RegExp("\\{\\}", "u");
var pattern32 = new RegExp("^[a-z0-9!#$%&'*+.^_`|~-]+$", "u");
var pattern34 = new RegExp("(?:^|/)\\.\\.(?:/|$)|/\\.(?:/|$)|^\\./|//|/$", "u");
var pattern35 = new RegExp("^(?:\\$[A-Z][A-Z0-9_]{0,63}(?:/[^/\\\\,\\u0000-\\u001f]+)*|\\.|[^/$~\\\\,\\u0000-\\u001f][^\\\\,\\u0000-\\u001f]*)$", "u");
function validate18(data, { instancePath = "", parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (errors === 0) {
    if (Array.isArray(data)) {
      var valid0 = true;
      const len0 = data.length;
      for (let i0 = 0; i0 < len0; i0++) {
        let data0 = data[i0];
        const _errs1 = errors;
        const _errs2 = errors;
        if (errors === _errs2) {
          if (typeof data0 === "string") {
            if (!pattern7.test(data0)) {
              validate18.errors = [{ instancePath: instancePath + "/" + i0, schemaPath: "#/definitions/name/pattern", keyword: "pattern", params: { pattern: "^[a-zA-Z][a-zA-Z0-9_-]{0,127}$" } }];
              return false;
            }
          } else {
            validate18.errors = [{ instancePath: instancePath + "/" + i0, schemaPath: "#/definitions/name/type", keyword: "type", params: { type: "string" } }];
            return false;
          }
        }
        var valid0 = _errs1 === errors;
        if (!valid0) {
          break;
        }
      }
      if (valid0) {
        let i1 = data.length;
        let j0;
        if (i1 > 1) {
          outer0:
            for (; i1--; ) {
              for (j0 = i1; j0--; ) {
                if (func32(data[i1], data[j0])) {
                  validate18.errors = [{ instancePath, schemaPath: "#/uniqueItems", keyword: "uniqueItems", params: { i: i1, j: j0 } }];
                  return false;
                  break outer0;
                }
              }
            }
        }
      }
    } else {
      validate18.errors = [{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: "array" } }];
      return false;
    }
  }
  validate18.errors = vErrors;
  return errors === 0;
}
var schema51 = { "type": ["object", "null"], "additionalProperties": false, "required": ["jsonSchema", "sha256", "validation"], "properties": { "jsonSchema": { "type": ["object", "null"] }, "sha256": { "oneOf": [{ "$ref": "#/definitions/hash" }, { "type": "null" }] }, "validation": { "type": "object", "required": ["kind"], "oneOf": [{ "type": "object", "additionalProperties": false, "required": ["kind", "module", "sha256"], "properties": { "kind": { "const": "precompiled" }, "module": { "$ref": "#/definitions/relativePath" }, "sha256": { "$ref": "#/definitions/hash" } } }, { "type": "object", "additionalProperties": false, "required": ["kind", "vendor", "semanticsSHA256"], "properties": { "kind": { "const": "opaque" }, "vendor": { "type": "string", "minLength": 1 }, "semanticsSHA256": { "type": "string", "pattern": "^[0-9a-f]{64}$" } } }], "discriminator": { "propertyName": "kind" } } } };
var pattern47 = new RegExp("^[0-9a-f]{64}$", "u");
function validate24(data, { instancePath = "", parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (!(data && typeof data == "object" && !Array.isArray(data)) && data !== null) {
    validate24.errors = [{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: schema51.type } }];
    return false;
  }
  if (errors === 0) {
    if (data && typeof data == "object" && !Array.isArray(data)) {
      let missing0;
      if ((data.jsonSchema === void 0 || !func0.call(data, "jsonSchema")) && (missing0 = "jsonSchema") || (data.sha256 === void 0 || !func0.call(data, "sha256")) && (missing0 = "sha256") || (data.validation === void 0 || !func0.call(data, "validation")) && (missing0 = "validation")) {
        validate24.errors = [{ instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: missing0 } }];
        return false;
      } else {
        const _errs1 = errors;
        for (const key0 of Object.keys(data)) {
          if (!(key0 === "jsonSchema" || key0 === "sha256" || key0 === "validation")) {
            validate24.errors = [{ instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 } }];
            return false;
            break;
          }
        }
        if (_errs1 === errors) {
          if (data.jsonSchema !== void 0 && func0.call(data, "jsonSchema")) {
            let data0 = data.jsonSchema;
            const _errs2 = errors;
            if (!(data0 && typeof data0 == "object" && !Array.isArray(data0)) && data0 !== null) {
              validate24.errors = [{ instancePath: instancePath + "/jsonSchema", schemaPath: "#/properties/jsonSchema/type", keyword: "type", params: { type: schema51.properties.jsonSchema.type } }];
              return false;
            }
            var valid0 = _errs2 === errors;
          } else {
            var valid0 = true;
          }
          if (valid0) {
            if (data.sha256 !== void 0 && func0.call(data, "sha256")) {
              let data1 = data.sha256;
              const _errs4 = errors;
              const _errs5 = errors;
              let valid1 = false;
              let passing0 = null;
              const _errs6 = errors;
              const _errs7 = errors;
              if (errors === _errs7) {
                if (typeof data1 === "string") {
                  if (!pattern0.test(data1)) {
                    const err0 = { instancePath: instancePath + "/sha256", schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } };
                    if (vErrors === null) {
                      vErrors = [err0];
                    } else {
                      vErrors.push(err0);
                    }
                    errors++;
                  }
                } else {
                  const err1 = { instancePath: instancePath + "/sha256", schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } };
                  if (vErrors === null) {
                    vErrors = [err1];
                  } else {
                    vErrors.push(err1);
                  }
                  errors++;
                }
              }
              var _valid0 = _errs6 === errors;
              if (_valid0) {
                valid1 = true;
                passing0 = 0;
              }
              const _errs9 = errors;
              if (data1 !== null) {
                const err2 = { instancePath: instancePath + "/sha256", schemaPath: "#/properties/sha256/oneOf/1/type", keyword: "type", params: { type: "null" } };
                if (vErrors === null) {
                  vErrors = [err2];
                } else {
                  vErrors.push(err2);
                }
                errors++;
              }
              var _valid0 = _errs9 === errors;
              if (_valid0 && valid1) {
                valid1 = false;
                passing0 = [passing0, 1];
              } else {
                if (_valid0) {
                  valid1 = true;
                  passing0 = 1;
                }
              }
              if (!valid1) {
                const err3 = { instancePath: instancePath + "/sha256", schemaPath: "#/properties/sha256/oneOf", keyword: "oneOf", params: { passingSchemas: passing0 } };
                if (vErrors === null) {
                  vErrors = [err3];
                } else {
                  vErrors.push(err3);
                }
                errors++;
                validate24.errors = vErrors;
                return false;
              } else {
                errors = _errs5;
                if (vErrors !== null) {
                  if (_errs5) {
                    vErrors.length = _errs5;
                  } else {
                    vErrors = null;
                  }
                }
              }
              var valid0 = _errs4 === errors;
            } else {
              var valid0 = true;
            }
            if (valid0) {
              if (data.validation !== void 0 && func0.call(data, "validation")) {
                let data2 = data.validation;
                const _errs11 = errors;
                if (errors === _errs11) {
                  if (data2 && typeof data2 == "object" && !Array.isArray(data2)) {
                    let missing1;
                    if ((data2.kind === void 0 || !func0.call(data2, "kind")) && (missing1 = "kind")) {
                      validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/required", keyword: "required", params: { missingProperty: missing1 } }];
                      return false;
                    } else {
                      const tag0 = data2.kind;
                      if (typeof tag0 == "string") {
                        if (tag0 === "precompiled") {
                          const _errs14 = errors;
                          if (errors === _errs14) {
                            if (data2 && typeof data2 == "object" && !Array.isArray(data2)) {
                              let missing2;
                              if ((data2.kind === void 0 || !func0.call(data2, "kind")) && (missing2 = "kind") || (data2.module === void 0 || !func0.call(data2, "module")) && (missing2 = "module") || (data2.sha256 === void 0 || !func0.call(data2, "sha256")) && (missing2 = "sha256")) {
                                validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/oneOf/0/required", keyword: "required", params: { missingProperty: missing2 } }];
                                return false;
                              } else {
                                const _errs16 = errors;
                                for (const key1 of Object.keys(data2)) {
                                  if (!(key1 === "kind" || key1 === "module" || key1 === "sha256")) {
                                    validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/oneOf/0/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 } }];
                                    return false;
                                    break;
                                  }
                                }
                                if (_errs16 === errors) {
                                  if (data2.kind !== void 0 && func0.call(data2, "kind")) {
                                    const _errs17 = errors;
                                    if ("precompiled" !== data2.kind) {
                                      validate24.errors = [{ instancePath: instancePath + "/validation/kind", schemaPath: "#/properties/validation/oneOf/0/properties/kind/const", keyword: "const", params: { allowedValue: "precompiled" } }];
                                      return false;
                                    }
                                    var valid5 = _errs17 === errors;
                                  } else {
                                    var valid5 = true;
                                  }
                                  if (valid5) {
                                    if (data2.module !== void 0 && func0.call(data2, "module")) {
                                      let data4 = data2.module;
                                      const _errs18 = errors;
                                      const _errs19 = errors;
                                      if (errors === _errs19) {
                                        if (typeof data4 === "string") {
                                          if (data4.length < 1) {
                                            validate24.errors = [{ instancePath: instancePath + "/validation/module", schemaPath: "#/definitions/relativePath/minLength", keyword: "minLength", params: { limit: 1 } }];
                                            return false;
                                          } else {
                                            if (!pattern1.test(data4)) {
                                              validate24.errors = [{ instancePath: instancePath + "/validation/module", schemaPath: "#/definitions/relativePath/pattern", keyword: "pattern", params: { pattern: "^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$" } }];
                                              return false;
                                            }
                                          }
                                        } else {
                                          validate24.errors = [{ instancePath: instancePath + "/validation/module", schemaPath: "#/definitions/relativePath/type", keyword: "type", params: { type: "string" } }];
                                          return false;
                                        }
                                      }
                                      var valid5 = _errs18 === errors;
                                    } else {
                                      var valid5 = true;
                                    }
                                    if (valid5) {
                                      if (data2.sha256 !== void 0 && func0.call(data2, "sha256")) {
                                        let data5 = data2.sha256;
                                        const _errs21 = errors;
                                        const _errs22 = errors;
                                        if (errors === _errs22) {
                                          if (typeof data5 === "string") {
                                            if (!pattern0.test(data5)) {
                                              validate24.errors = [{ instancePath: instancePath + "/validation/sha256", schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                                              return false;
                                            }
                                          } else {
                                            validate24.errors = [{ instancePath: instancePath + "/validation/sha256", schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                                            return false;
                                          }
                                        }
                                        var valid5 = _errs21 === errors;
                                      } else {
                                        var valid5 = true;
                                      }
                                    }
                                  }
                                }
                              }
                            } else {
                              validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/oneOf/0/type", keyword: "type", params: { type: "object" } }];
                              return false;
                            }
                          }
                        } else if (tag0 === "opaque") {
                          const _errs24 = errors;
                          if (errors === _errs24) {
                            if (data2 && typeof data2 == "object" && !Array.isArray(data2)) {
                              let missing3;
                              if ((data2.kind === void 0 || !func0.call(data2, "kind")) && (missing3 = "kind") || (data2.vendor === void 0 || !func0.call(data2, "vendor")) && (missing3 = "vendor") || (data2.semanticsSHA256 === void 0 || !func0.call(data2, "semanticsSHA256")) && (missing3 = "semanticsSHA256")) {
                                validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/oneOf/1/required", keyword: "required", params: { missingProperty: missing3 } }];
                                return false;
                              } else {
                                const _errs26 = errors;
                                for (const key2 of Object.keys(data2)) {
                                  if (!(key2 === "kind" || key2 === "vendor" || key2 === "semanticsSHA256")) {
                                    validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/oneOf/1/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key2 } }];
                                    return false;
                                    break;
                                  }
                                }
                                if (_errs26 === errors) {
                                  if (data2.kind !== void 0 && func0.call(data2, "kind")) {
                                    const _errs27 = errors;
                                    if ("opaque" !== data2.kind) {
                                      validate24.errors = [{ instancePath: instancePath + "/validation/kind", schemaPath: "#/properties/validation/oneOf/1/properties/kind/const", keyword: "const", params: { allowedValue: "opaque" } }];
                                      return false;
                                    }
                                    var valid9 = _errs27 === errors;
                                  } else {
                                    var valid9 = true;
                                  }
                                  if (valid9) {
                                    if (data2.vendor !== void 0 && func0.call(data2, "vendor")) {
                                      let data7 = data2.vendor;
                                      const _errs28 = errors;
                                      if (errors === _errs28) {
                                        if (typeof data7 === "string") {
                                          if (data7.length < 1) {
                                            validate24.errors = [{ instancePath: instancePath + "/validation/vendor", schemaPath: "#/properties/validation/oneOf/1/properties/vendor/minLength", keyword: "minLength", params: { limit: 1 } }];
                                            return false;
                                          }
                                        } else {
                                          validate24.errors = [{ instancePath: instancePath + "/validation/vendor", schemaPath: "#/properties/validation/oneOf/1/properties/vendor/type", keyword: "type", params: { type: "string" } }];
                                          return false;
                                        }
                                      }
                                      var valid9 = _errs28 === errors;
                                    } else {
                                      var valid9 = true;
                                    }
                                    if (valid9) {
                                      if (data2.semanticsSHA256 !== void 0 && func0.call(data2, "semanticsSHA256")) {
                                        let data8 = data2.semanticsSHA256;
                                        const _errs30 = errors;
                                        if (errors === _errs30) {
                                          if (typeof data8 === "string") {
                                            if (!pattern47.test(data8)) {
                                              validate24.errors = [{ instancePath: instancePath + "/validation/semanticsSHA256", schemaPath: "#/properties/validation/oneOf/1/properties/semanticsSHA256/pattern", keyword: "pattern", params: { pattern: "^[0-9a-f]{64}$" } }];
                                              return false;
                                            }
                                          } else {
                                            validate24.errors = [{ instancePath: instancePath + "/validation/semanticsSHA256", schemaPath: "#/properties/validation/oneOf/1/properties/semanticsSHA256/type", keyword: "type", params: { type: "string" } }];
                                            return false;
                                          }
                                        }
                                        var valid9 = _errs30 === errors;
                                      } else {
                                        var valid9 = true;
                                      }
                                    }
                                  }
                                }
                              }
                            } else {
                              validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/oneOf/1/type", keyword: "type", params: { type: "object" } }];
                              return false;
                            }
                          }
                        } else {
                          validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/discriminator", keyword: "discriminator", params: { error: "mapping", tag: "kind", tagValue: tag0 } }];
                          return false;
                        }
                      } else {
                        validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/discriminator", keyword: "discriminator", params: { error: "tag", tag: "kind", tagValue: tag0 } }];
                        return false;
                      }
                    }
                  } else {
                    validate24.errors = [{ instancePath: instancePath + "/validation", schemaPath: "#/properties/validation/type", keyword: "type", params: { type: "object" } }];
                    return false;
                  }
                }
                var valid0 = _errs11 === errors;
              } else {
                var valid0 = true;
              }
            }
          }
        }
      }
    }
  }
  validate24.errors = vErrors;
  return errors === 0;
}
var schema55 = { "type": "object", "additionalProperties": false, "required": ["requested", "plan"], "properties": { "plan": { "$ref": "#/definitions/resultPlan" }, "requested": { "type": "object", "required": ["policy"], "oneOf": [{ "type": "object", "additionalProperties": false, "required": ["policy"], "properties": { "policy": { "enum": ["auto", "inline", "page", "compress", "exact_ccr"] } } }, { "type": "object", "additionalProperties": false, "required": ["policy", "artifact"], "properties": { "policy": { "const": "artifact" }, "artifact": { "type": "object", "additionalProperties": false, "required": ["strategy", "maxInlineTokens", "recovery"], "properties": { "strategy": { "enum": ["page", "compress", "exact_ccr"] }, "maxInlineTokens": { "type": "integer", "minimum": 1 }, "recovery": { "enum": ["exact_ccr", "none"] } } } } }], "discriminator": { "propertyName": "policy" } } } };
var schema56 = { "type": "object", "additionalProperties": false, "required": ["strategy", "reason", "bound", "inlineUpToTokens", "pageTokens", "transform", "recovery", "tokenizer"], "properties": { "strategy": { "enum": ["inline", "page", "compress", "exact_ccr"] }, "reason": { "type": "string", "minLength": 1 }, "bound": { "type": "object", "required": ["kind"], "oneOf": [{ "type": "object", "additionalProperties": false, "required": ["kind", "tokens"], "properties": { "kind": { "const": "bounded" }, "tokens": { "type": "integer", "minimum": 0 } } }, { "type": "object", "additionalProperties": false, "required": ["kind", "path", "why"], "properties": { "kind": { "const": "unbounded" }, "path": { "type": "string" }, "why": { "type": "string", "minLength": 1 } } }], "discriminator": { "propertyName": "kind" } }, "inlineUpToTokens": { "type": ["integer", "null"], "minimum": 1 }, "pageTokens": { "type": ["integer", "null"], "minimum": 64 }, "transform": { "type": ["object", "null"], "additionalProperties": false, "required": ["id", "version", "lossless", "module", "sha256"], "properties": { "id": { "type": "string", "pattern": "^[a-z][a-z0-9-]*$" }, "version": { "type": "integer", "minimum": 1 }, "lossless": { "type": "boolean" }, "module": { "$ref": "#/definitions/relativePath" }, "sha256": { "$ref": "#/definitions/hash" } } }, "recovery": { "enum": ["exact_ccr", "none"] }, "tokenizer": { "type": ["object", "null"], "additionalProperties": false, "required": ["id", "version"], "properties": { "id": { "type": "string", "minLength": 1 }, "version": { "type": "string", "minLength": 1 } } } } };
var pattern48 = new RegExp("^[a-z][a-z0-9-]*$", "u");
function validate28(data, { instancePath = "", parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (errors === 0) {
    if (data && typeof data == "object" && !Array.isArray(data)) {
      let missing0;
      if ((data.strategy === void 0 || !func0.call(data, "strategy")) && (missing0 = "strategy") || (data.reason === void 0 || !func0.call(data, "reason")) && (missing0 = "reason") || (data.bound === void 0 || !func0.call(data, "bound")) && (missing0 = "bound") || (data.inlineUpToTokens === void 0 || !func0.call(data, "inlineUpToTokens")) && (missing0 = "inlineUpToTokens") || (data.pageTokens === void 0 || !func0.call(data, "pageTokens")) && (missing0 = "pageTokens") || (data.transform === void 0 || !func0.call(data, "transform")) && (missing0 = "transform") || (data.recovery === void 0 || !func0.call(data, "recovery")) && (missing0 = "recovery") || (data.tokenizer === void 0 || !func0.call(data, "tokenizer")) && (missing0 = "tokenizer")) {
        validate28.errors = [{ instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: missing0 } }];
        return false;
      } else {
        const _errs1 = errors;
        for (const key0 of Object.keys(data)) {
          if (!(key0 === "strategy" || key0 === "reason" || key0 === "bound" || key0 === "inlineUpToTokens" || key0 === "pageTokens" || key0 === "transform" || key0 === "recovery" || key0 === "tokenizer")) {
            validate28.errors = [{ instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 } }];
            return false;
            break;
          }
        }
        if (_errs1 === errors) {
          if (data.strategy !== void 0 && func0.call(data, "strategy")) {
            let data0 = data.strategy;
            const _errs2 = errors;
            if (!(data0 === "inline" || data0 === "page" || data0 === "compress" || data0 === "exact_ccr")) {
              validate28.errors = [{ instancePath: instancePath + "/strategy", schemaPath: "#/properties/strategy/enum", keyword: "enum", params: { allowedValues: schema56.properties.strategy.enum } }];
              return false;
            }
            var valid0 = _errs2 === errors;
          } else {
            var valid0 = true;
          }
          if (valid0) {
            if (data.reason !== void 0 && func0.call(data, "reason")) {
              let data1 = data.reason;
              const _errs3 = errors;
              if (errors === _errs3) {
                if (typeof data1 === "string") {
                  if (data1.length < 1) {
                    validate28.errors = [{ instancePath: instancePath + "/reason", schemaPath: "#/properties/reason/minLength", keyword: "minLength", params: { limit: 1 } }];
                    return false;
                  }
                } else {
                  validate28.errors = [{ instancePath: instancePath + "/reason", schemaPath: "#/properties/reason/type", keyword: "type", params: { type: "string" } }];
                  return false;
                }
              }
              var valid0 = _errs3 === errors;
            } else {
              var valid0 = true;
            }
            if (valid0) {
              if (data.bound !== void 0 && func0.call(data, "bound")) {
                let data2 = data.bound;
                const _errs5 = errors;
                if (errors === _errs5) {
                  if (data2 && typeof data2 == "object" && !Array.isArray(data2)) {
                    let missing1;
                    if ((data2.kind === void 0 || !func0.call(data2, "kind")) && (missing1 = "kind")) {
                      validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/required", keyword: "required", params: { missingProperty: missing1 } }];
                      return false;
                    } else {
                      const tag0 = data2.kind;
                      if (typeof tag0 == "string") {
                        if (tag0 === "bounded") {
                          const _errs8 = errors;
                          if (errors === _errs8) {
                            if (data2 && typeof data2 == "object" && !Array.isArray(data2)) {
                              let missing2;
                              if ((data2.kind === void 0 || !func0.call(data2, "kind")) && (missing2 = "kind") || (data2.tokens === void 0 || !func0.call(data2, "tokens")) && (missing2 = "tokens")) {
                                validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/oneOf/0/required", keyword: "required", params: { missingProperty: missing2 } }];
                                return false;
                              } else {
                                const _errs10 = errors;
                                for (const key1 of Object.keys(data2)) {
                                  if (!(key1 === "kind" || key1 === "tokens")) {
                                    validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/oneOf/0/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 } }];
                                    return false;
                                    break;
                                  }
                                }
                                if (_errs10 === errors) {
                                  if (data2.kind !== void 0 && func0.call(data2, "kind")) {
                                    const _errs11 = errors;
                                    if ("bounded" !== data2.kind) {
                                      validate28.errors = [{ instancePath: instancePath + "/bound/kind", schemaPath: "#/properties/bound/oneOf/0/properties/kind/const", keyword: "const", params: { allowedValue: "bounded" } }];
                                      return false;
                                    }
                                    var valid3 = _errs11 === errors;
                                  } else {
                                    var valid3 = true;
                                  }
                                  if (valid3) {
                                    if (data2.tokens !== void 0 && func0.call(data2, "tokens")) {
                                      let data4 = data2.tokens;
                                      const _errs12 = errors;
                                      if (!(typeof data4 == "number" && (!(data4 % 1) && !isNaN(data4)) && isFinite(data4))) {
                                        validate28.errors = [{ instancePath: instancePath + "/bound/tokens", schemaPath: "#/properties/bound/oneOf/0/properties/tokens/type", keyword: "type", params: { type: "integer" } }];
                                        return false;
                                      }
                                      if (errors === _errs12) {
                                        if (typeof data4 == "number" && isFinite(data4)) {
                                          if (data4 < 0 || isNaN(data4)) {
                                            validate28.errors = [{ instancePath: instancePath + "/bound/tokens", schemaPath: "#/properties/bound/oneOf/0/properties/tokens/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 } }];
                                            return false;
                                          }
                                        }
                                      }
                                      var valid3 = _errs12 === errors;
                                    } else {
                                      var valid3 = true;
                                    }
                                  }
                                }
                              }
                            } else {
                              validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/oneOf/0/type", keyword: "type", params: { type: "object" } }];
                              return false;
                            }
                          }
                        } else if (tag0 === "unbounded") {
                          const _errs14 = errors;
                          if (errors === _errs14) {
                            if (data2 && typeof data2 == "object" && !Array.isArray(data2)) {
                              let missing3;
                              if ((data2.kind === void 0 || !func0.call(data2, "kind")) && (missing3 = "kind") || (data2.path === void 0 || !func0.call(data2, "path")) && (missing3 = "path") || (data2.why === void 0 || !func0.call(data2, "why")) && (missing3 = "why")) {
                                validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/oneOf/1/required", keyword: "required", params: { missingProperty: missing3 } }];
                                return false;
                              } else {
                                const _errs16 = errors;
                                for (const key2 of Object.keys(data2)) {
                                  if (!(key2 === "kind" || key2 === "path" || key2 === "why")) {
                                    validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/oneOf/1/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key2 } }];
                                    return false;
                                    break;
                                  }
                                }
                                if (_errs16 === errors) {
                                  if (data2.kind !== void 0 && func0.call(data2, "kind")) {
                                    const _errs17 = errors;
                                    if ("unbounded" !== data2.kind) {
                                      validate28.errors = [{ instancePath: instancePath + "/bound/kind", schemaPath: "#/properties/bound/oneOf/1/properties/kind/const", keyword: "const", params: { allowedValue: "unbounded" } }];
                                      return false;
                                    }
                                    var valid5 = _errs17 === errors;
                                  } else {
                                    var valid5 = true;
                                  }
                                  if (valid5) {
                                    if (data2.path !== void 0 && func0.call(data2, "path")) {
                                      const _errs18 = errors;
                                      if (typeof data2.path !== "string") {
                                        validate28.errors = [{ instancePath: instancePath + "/bound/path", schemaPath: "#/properties/bound/oneOf/1/properties/path/type", keyword: "type", params: { type: "string" } }];
                                        return false;
                                      }
                                      var valid5 = _errs18 === errors;
                                    } else {
                                      var valid5 = true;
                                    }
                                    if (valid5) {
                                      if (data2.why !== void 0 && func0.call(data2, "why")) {
                                        let data7 = data2.why;
                                        const _errs20 = errors;
                                        if (errors === _errs20) {
                                          if (typeof data7 === "string") {
                                            if (data7.length < 1) {
                                              validate28.errors = [{ instancePath: instancePath + "/bound/why", schemaPath: "#/properties/bound/oneOf/1/properties/why/minLength", keyword: "minLength", params: { limit: 1 } }];
                                              return false;
                                            }
                                          } else {
                                            validate28.errors = [{ instancePath: instancePath + "/bound/why", schemaPath: "#/properties/bound/oneOf/1/properties/why/type", keyword: "type", params: { type: "string" } }];
                                            return false;
                                          }
                                        }
                                        var valid5 = _errs20 === errors;
                                      } else {
                                        var valid5 = true;
                                      }
                                    }
                                  }
                                }
                              }
                            } else {
                              validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/oneOf/1/type", keyword: "type", params: { type: "object" } }];
                              return false;
                            }
                          }
                        } else {
                          validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/discriminator", keyword: "discriminator", params: { error: "mapping", tag: "kind", tagValue: tag0 } }];
                          return false;
                        }
                      } else {
                        validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/discriminator", keyword: "discriminator", params: { error: "tag", tag: "kind", tagValue: tag0 } }];
                        return false;
                      }
                    }
                  } else {
                    validate28.errors = [{ instancePath: instancePath + "/bound", schemaPath: "#/properties/bound/type", keyword: "type", params: { type: "object" } }];
                    return false;
                  }
                }
                var valid0 = _errs5 === errors;
              } else {
                var valid0 = true;
              }
              if (valid0) {
                if (data.inlineUpToTokens !== void 0 && func0.call(data, "inlineUpToTokens")) {
                  let data8 = data.inlineUpToTokens;
                  const _errs22 = errors;
                  if (!(typeof data8 == "number" && (!(data8 % 1) && !isNaN(data8)) && isFinite(data8)) && data8 !== null) {
                    validate28.errors = [{ instancePath: instancePath + "/inlineUpToTokens", schemaPath: "#/properties/inlineUpToTokens/type", keyword: "type", params: { type: schema56.properties.inlineUpToTokens.type } }];
                    return false;
                  }
                  if (errors === _errs22) {
                    if (typeof data8 == "number" && isFinite(data8)) {
                      if (data8 < 1 || isNaN(data8)) {
                        validate28.errors = [{ instancePath: instancePath + "/inlineUpToTokens", schemaPath: "#/properties/inlineUpToTokens/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 } }];
                        return false;
                      }
                    }
                  }
                  var valid0 = _errs22 === errors;
                } else {
                  var valid0 = true;
                }
                if (valid0) {
                  if (data.pageTokens !== void 0 && func0.call(data, "pageTokens")) {
                    let data9 = data.pageTokens;
                    const _errs24 = errors;
                    if (!(typeof data9 == "number" && (!(data9 % 1) && !isNaN(data9)) && isFinite(data9)) && data9 !== null) {
                      validate28.errors = [{ instancePath: instancePath + "/pageTokens", schemaPath: "#/properties/pageTokens/type", keyword: "type", params: { type: schema56.properties.pageTokens.type } }];
                      return false;
                    }
                    if (errors === _errs24) {
                      if (typeof data9 == "number" && isFinite(data9)) {
                        if (data9 < 64 || isNaN(data9)) {
                          validate28.errors = [{ instancePath: instancePath + "/pageTokens", schemaPath: "#/properties/pageTokens/minimum", keyword: "minimum", params: { comparison: ">=", limit: 64 } }];
                          return false;
                        }
                      }
                    }
                    var valid0 = _errs24 === errors;
                  } else {
                    var valid0 = true;
                  }
                  if (valid0) {
                    if (data.transform !== void 0 && func0.call(data, "transform")) {
                      let data10 = data.transform;
                      const _errs26 = errors;
                      if (!(data10 && typeof data10 == "object" && !Array.isArray(data10)) && data10 !== null) {
                        validate28.errors = [{ instancePath: instancePath + "/transform", schemaPath: "#/properties/transform/type", keyword: "type", params: { type: schema56.properties.transform.type } }];
                        return false;
                      }
                      if (errors === _errs26) {
                        if (data10 && typeof data10 == "object" && !Array.isArray(data10)) {
                          let missing4;
                          if ((data10.id === void 0 || !func0.call(data10, "id")) && (missing4 = "id") || (data10.version === void 0 || !func0.call(data10, "version")) && (missing4 = "version") || (data10.lossless === void 0 || !func0.call(data10, "lossless")) && (missing4 = "lossless") || (data10.module === void 0 || !func0.call(data10, "module")) && (missing4 = "module") || (data10.sha256 === void 0 || !func0.call(data10, "sha256")) && (missing4 = "sha256")) {
                            validate28.errors = [{ instancePath: instancePath + "/transform", schemaPath: "#/properties/transform/required", keyword: "required", params: { missingProperty: missing4 } }];
                            return false;
                          } else {
                            const _errs28 = errors;
                            for (const key3 of Object.keys(data10)) {
                              if (!(key3 === "id" || key3 === "version" || key3 === "lossless" || key3 === "module" || key3 === "sha256")) {
                                validate28.errors = [{ instancePath: instancePath + "/transform", schemaPath: "#/properties/transform/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key3 } }];
                                return false;
                                break;
                              }
                            }
                            if (_errs28 === errors) {
                              if (data10.id !== void 0 && func0.call(data10, "id")) {
                                let data11 = data10.id;
                                const _errs29 = errors;
                                if (errors === _errs29) {
                                  if (typeof data11 === "string") {
                                    if (!pattern48.test(data11)) {
                                      validate28.errors = [{ instancePath: instancePath + "/transform/id", schemaPath: "#/properties/transform/properties/id/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9-]*$" } }];
                                      return false;
                                    }
                                  } else {
                                    validate28.errors = [{ instancePath: instancePath + "/transform/id", schemaPath: "#/properties/transform/properties/id/type", keyword: "type", params: { type: "string" } }];
                                    return false;
                                  }
                                }
                                var valid6 = _errs29 === errors;
                              } else {
                                var valid6 = true;
                              }
                              if (valid6) {
                                if (data10.version !== void 0 && func0.call(data10, "version")) {
                                  let data12 = data10.version;
                                  const _errs31 = errors;
                                  if (!(typeof data12 == "number" && (!(data12 % 1) && !isNaN(data12)) && isFinite(data12))) {
                                    validate28.errors = [{ instancePath: instancePath + "/transform/version", schemaPath: "#/properties/transform/properties/version/type", keyword: "type", params: { type: "integer" } }];
                                    return false;
                                  }
                                  if (errors === _errs31) {
                                    if (typeof data12 == "number" && isFinite(data12)) {
                                      if (data12 < 1 || isNaN(data12)) {
                                        validate28.errors = [{ instancePath: instancePath + "/transform/version", schemaPath: "#/properties/transform/properties/version/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 } }];
                                        return false;
                                      }
                                    }
                                  }
                                  var valid6 = _errs31 === errors;
                                } else {
                                  var valid6 = true;
                                }
                                if (valid6) {
                                  if (data10.lossless !== void 0 && func0.call(data10, "lossless")) {
                                    const _errs33 = errors;
                                    if (typeof data10.lossless !== "boolean") {
                                      validate28.errors = [{ instancePath: instancePath + "/transform/lossless", schemaPath: "#/properties/transform/properties/lossless/type", keyword: "type", params: { type: "boolean" } }];
                                      return false;
                                    }
                                    var valid6 = _errs33 === errors;
                                  } else {
                                    var valid6 = true;
                                  }
                                  if (valid6) {
                                    if (data10.module !== void 0 && func0.call(data10, "module")) {
                                      let data14 = data10.module;
                                      const _errs35 = errors;
                                      const _errs36 = errors;
                                      if (errors === _errs36) {
                                        if (typeof data14 === "string") {
                                          if (data14.length < 1) {
                                            validate28.errors = [{ instancePath: instancePath + "/transform/module", schemaPath: "#/definitions/relativePath/minLength", keyword: "minLength", params: { limit: 1 } }];
                                            return false;
                                          } else {
                                            if (!pattern1.test(data14)) {
                                              validate28.errors = [{ instancePath: instancePath + "/transform/module", schemaPath: "#/definitions/relativePath/pattern", keyword: "pattern", params: { pattern: "^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$" } }];
                                              return false;
                                            }
                                          }
                                        } else {
                                          validate28.errors = [{ instancePath: instancePath + "/transform/module", schemaPath: "#/definitions/relativePath/type", keyword: "type", params: { type: "string" } }];
                                          return false;
                                        }
                                      }
                                      var valid6 = _errs35 === errors;
                                    } else {
                                      var valid6 = true;
                                    }
                                    if (valid6) {
                                      if (data10.sha256 !== void 0 && func0.call(data10, "sha256")) {
                                        let data15 = data10.sha256;
                                        const _errs38 = errors;
                                        const _errs39 = errors;
                                        if (errors === _errs39) {
                                          if (typeof data15 === "string") {
                                            if (!pattern0.test(data15)) {
                                              validate28.errors = [{ instancePath: instancePath + "/transform/sha256", schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                                              return false;
                                            }
                                          } else {
                                            validate28.errors = [{ instancePath: instancePath + "/transform/sha256", schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                                            return false;
                                          }
                                        }
                                        var valid6 = _errs38 === errors;
                                      } else {
                                        var valid6 = true;
                                      }
                                    }
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                      var valid0 = _errs26 === errors;
                    } else {
                      var valid0 = true;
                    }
                    if (valid0) {
                      if (data.recovery !== void 0 && func0.call(data, "recovery")) {
                        let data16 = data.recovery;
                        const _errs41 = errors;
                        if (!(data16 === "exact_ccr" || data16 === "none")) {
                          validate28.errors = [{ instancePath: instancePath + "/recovery", schemaPath: "#/properties/recovery/enum", keyword: "enum", params: { allowedValues: schema56.properties.recovery.enum } }];
                          return false;
                        }
                        var valid0 = _errs41 === errors;
                      } else {
                        var valid0 = true;
                      }
                      if (valid0) {
                        if (data.tokenizer !== void 0 && func0.call(data, "tokenizer")) {
                          let data17 = data.tokenizer;
                          const _errs42 = errors;
                          if (!(data17 && typeof data17 == "object" && !Array.isArray(data17)) && data17 !== null) {
                            validate28.errors = [{ instancePath: instancePath + "/tokenizer", schemaPath: "#/properties/tokenizer/type", keyword: "type", params: { type: schema56.properties.tokenizer.type } }];
                            return false;
                          }
                          if (errors === _errs42) {
                            if (data17 && typeof data17 == "object" && !Array.isArray(data17)) {
                              let missing5;
                              if ((data17.id === void 0 || !func0.call(data17, "id")) && (missing5 = "id") || (data17.version === void 0 || !func0.call(data17, "version")) && (missing5 = "version")) {
                                validate28.errors = [{ instancePath: instancePath + "/tokenizer", schemaPath: "#/properties/tokenizer/required", keyword: "required", params: { missingProperty: missing5 } }];
                                return false;
                              } else {
                                const _errs44 = errors;
                                for (const key4 of Object.keys(data17)) {
                                  if (!(key4 === "id" || key4 === "version")) {
                                    validate28.errors = [{ instancePath: instancePath + "/tokenizer", schemaPath: "#/properties/tokenizer/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key4 } }];
                                    return false;
                                    break;
                                  }
                                }
                                if (_errs44 === errors) {
                                  if (data17.id !== void 0 && func0.call(data17, "id")) {
                                    let data18 = data17.id;
                                    const _errs45 = errors;
                                    if (errors === _errs45) {
                                      if (typeof data18 === "string") {
                                        if (data18.length < 1) {
                                          validate28.errors = [{ instancePath: instancePath + "/tokenizer/id", schemaPath: "#/properties/tokenizer/properties/id/minLength", keyword: "minLength", params: { limit: 1 } }];
                                          return false;
                                        }
                                      } else {
                                        validate28.errors = [{ instancePath: instancePath + "/tokenizer/id", schemaPath: "#/properties/tokenizer/properties/id/type", keyword: "type", params: { type: "string" } }];
                                        return false;
                                      }
                                    }
                                    var valid9 = _errs45 === errors;
                                  } else {
                                    var valid9 = true;
                                  }
                                  if (valid9) {
                                    if (data17.version !== void 0 && func0.call(data17, "version")) {
                                      let data19 = data17.version;
                                      const _errs47 = errors;
                                      if (errors === _errs47) {
                                        if (typeof data19 === "string") {
                                          if (data19.length < 1) {
                                            validate28.errors = [{ instancePath: instancePath + "/tokenizer/version", schemaPath: "#/properties/tokenizer/properties/version/minLength", keyword: "minLength", params: { limit: 1 } }];
                                            return false;
                                          }
                                        } else {
                                          validate28.errors = [{ instancePath: instancePath + "/tokenizer/version", schemaPath: "#/properties/tokenizer/properties/version/type", keyword: "type", params: { type: "string" } }];
                                          return false;
                                        }
                                      }
                                      var valid9 = _errs47 === errors;
                                    } else {
                                      var valid9 = true;
                                    }
                                  }
                                }
                              }
                            }
                          }
                          var valid0 = _errs42 === errors;
                        } else {
                          var valid0 = true;
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    } else {
      validate28.errors = [{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" } }];
      return false;
    }
  }
  validate28.errors = vErrors;
  return errors === 0;
}
function validate27(data, { instancePath = "", parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (errors === 0) {
    if (data && typeof data == "object" && !Array.isArray(data)) {
      let missing0;
      if ((data.requested === void 0 || !func0.call(data, "requested")) && (missing0 = "requested") || (data.plan === void 0 || !func0.call(data, "plan")) && (missing0 = "plan")) {
        validate27.errors = [{ instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: missing0 } }];
        return false;
      } else {
        const _errs1 = errors;
        for (const key0 of Object.keys(data)) {
          if (!(key0 === "plan" || key0 === "requested")) {
            validate27.errors = [{ instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 } }];
            return false;
            break;
          }
        }
        if (_errs1 === errors) {
          if (data.plan !== void 0 && func0.call(data, "plan")) {
            const _errs2 = errors;
            if (!validate28(data.plan, { instancePath: instancePath + "/plan", parentData: data, parentDataProperty: "plan", rootData })) {
              vErrors = vErrors === null ? validate28.errors : vErrors.concat(validate28.errors);
              errors = vErrors.length;
            }
            var valid0 = _errs2 === errors;
          } else {
            var valid0 = true;
          }
          if (valid0) {
            if (data.requested !== void 0 && func0.call(data, "requested")) {
              let data1 = data.requested;
              const _errs3 = errors;
              if (errors === _errs3) {
                if (data1 && typeof data1 == "object" && !Array.isArray(data1)) {
                  let missing1;
                  if ((data1.policy === void 0 || !func0.call(data1, "policy")) && (missing1 = "policy")) {
                    validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/required", keyword: "required", params: { missingProperty: missing1 } }];
                    return false;
                  } else {
                    const tag0 = data1.policy;
                    if (typeof tag0 == "string") {
                      if (tag0 === "auto") {
                        const _errs6 = errors;
                        if (errors === _errs6) {
                          if (data1 && typeof data1 == "object" && !Array.isArray(data1)) {
                            let missing2;
                            if ((data1.policy === void 0 || !func0.call(data1, "policy")) && (missing2 = "policy")) {
                              validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/required", keyword: "required", params: { missingProperty: missing2 } }];
                              return false;
                            } else {
                              const _errs8 = errors;
                              for (const key1 of Object.keys(data1)) {
                                if (!(key1 === "policy")) {
                                  validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 } }];
                                  return false;
                                  break;
                                }
                              }
                              if (_errs8 === errors) {
                                if (data1.policy !== void 0 && func0.call(data1, "policy")) {
                                  let data2 = data1.policy;
                                  if (!(data2 === "auto" || data2 === "inline" || data2 === "page" || data2 === "compress" || data2 === "exact_ccr")) {
                                    validate27.errors = [{ instancePath: instancePath + "/requested/policy", schemaPath: "#/properties/requested/oneOf/0/properties/policy/enum", keyword: "enum", params: { allowedValues: schema55.properties.requested.oneOf[0].properties.policy.enum } }];
                                    return false;
                                  }
                                }
                              }
                            }
                          } else {
                            validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/type", keyword: "type", params: { type: "object" } }];
                            return false;
                          }
                        }
                      } else if (tag0 === "inline") {
                        const _errs10 = errors;
                        if (errors === _errs10) {
                          if (data1 && typeof data1 == "object" && !Array.isArray(data1)) {
                            let missing3;
                            if ((data1.policy === void 0 || !func0.call(data1, "policy")) && (missing3 = "policy")) {
                              validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/required", keyword: "required", params: { missingProperty: missing3 } }];
                              return false;
                            } else {
                              const _errs12 = errors;
                              for (const key2 of Object.keys(data1)) {
                                if (!(key2 === "policy")) {
                                  validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key2 } }];
                                  return false;
                                  break;
                                }
                              }
                              if (_errs12 === errors) {
                                if (data1.policy !== void 0 && func0.call(data1, "policy")) {
                                  let data3 = data1.policy;
                                  if (!(data3 === "auto" || data3 === "inline" || data3 === "page" || data3 === "compress" || data3 === "exact_ccr")) {
                                    validate27.errors = [{ instancePath: instancePath + "/requested/policy", schemaPath: "#/properties/requested/oneOf/0/properties/policy/enum", keyword: "enum", params: { allowedValues: schema55.properties.requested.oneOf[0].properties.policy.enum } }];
                                    return false;
                                  }
                                }
                              }
                            }
                          } else {
                            validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/type", keyword: "type", params: { type: "object" } }];
                            return false;
                          }
                        }
                      } else if (tag0 === "page") {
                        const _errs14 = errors;
                        if (errors === _errs14) {
                          if (data1 && typeof data1 == "object" && !Array.isArray(data1)) {
                            let missing4;
                            if ((data1.policy === void 0 || !func0.call(data1, "policy")) && (missing4 = "policy")) {
                              validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/required", keyword: "required", params: { missingProperty: missing4 } }];
                              return false;
                            } else {
                              const _errs16 = errors;
                              for (const key3 of Object.keys(data1)) {
                                if (!(key3 === "policy")) {
                                  validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key3 } }];
                                  return false;
                                  break;
                                }
                              }
                              if (_errs16 === errors) {
                                if (data1.policy !== void 0 && func0.call(data1, "policy")) {
                                  let data4 = data1.policy;
                                  if (!(data4 === "auto" || data4 === "inline" || data4 === "page" || data4 === "compress" || data4 === "exact_ccr")) {
                                    validate27.errors = [{ instancePath: instancePath + "/requested/policy", schemaPath: "#/properties/requested/oneOf/0/properties/policy/enum", keyword: "enum", params: { allowedValues: schema55.properties.requested.oneOf[0].properties.policy.enum } }];
                                    return false;
                                  }
                                }
                              }
                            }
                          } else {
                            validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/type", keyword: "type", params: { type: "object" } }];
                            return false;
                          }
                        }
                      } else if (tag0 === "compress") {
                        const _errs18 = errors;
                        if (errors === _errs18) {
                          if (data1 && typeof data1 == "object" && !Array.isArray(data1)) {
                            let missing5;
                            if ((data1.policy === void 0 || !func0.call(data1, "policy")) && (missing5 = "policy")) {
                              validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/required", keyword: "required", params: { missingProperty: missing5 } }];
                              return false;
                            } else {
                              const _errs20 = errors;
                              for (const key4 of Object.keys(data1)) {
                                if (!(key4 === "policy")) {
                                  validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key4 } }];
                                  return false;
                                  break;
                                }
                              }
                              if (_errs20 === errors) {
                                if (data1.policy !== void 0 && func0.call(data1, "policy")) {
                                  let data5 = data1.policy;
                                  if (!(data5 === "auto" || data5 === "inline" || data5 === "page" || data5 === "compress" || data5 === "exact_ccr")) {
                                    validate27.errors = [{ instancePath: instancePath + "/requested/policy", schemaPath: "#/properties/requested/oneOf/0/properties/policy/enum", keyword: "enum", params: { allowedValues: schema55.properties.requested.oneOf[0].properties.policy.enum } }];
                                    return false;
                                  }
                                }
                              }
                            }
                          } else {
                            validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/type", keyword: "type", params: { type: "object" } }];
                            return false;
                          }
                        }
                      } else if (tag0 === "exact_ccr") {
                        const _errs22 = errors;
                        if (errors === _errs22) {
                          if (data1 && typeof data1 == "object" && !Array.isArray(data1)) {
                            let missing6;
                            if ((data1.policy === void 0 || !func0.call(data1, "policy")) && (missing6 = "policy")) {
                              validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/required", keyword: "required", params: { missingProperty: missing6 } }];
                              return false;
                            } else {
                              const _errs24 = errors;
                              for (const key5 of Object.keys(data1)) {
                                if (!(key5 === "policy")) {
                                  validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key5 } }];
                                  return false;
                                  break;
                                }
                              }
                              if (_errs24 === errors) {
                                if (data1.policy !== void 0 && func0.call(data1, "policy")) {
                                  let data6 = data1.policy;
                                  if (!(data6 === "auto" || data6 === "inline" || data6 === "page" || data6 === "compress" || data6 === "exact_ccr")) {
                                    validate27.errors = [{ instancePath: instancePath + "/requested/policy", schemaPath: "#/properties/requested/oneOf/0/properties/policy/enum", keyword: "enum", params: { allowedValues: schema55.properties.requested.oneOf[0].properties.policy.enum } }];
                                    return false;
                                  }
                                }
                              }
                            }
                          } else {
                            validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/0/type", keyword: "type", params: { type: "object" } }];
                            return false;
                          }
                        }
                      } else if (tag0 === "artifact") {
                        const _errs26 = errors;
                        if (errors === _errs26) {
                          if (data1 && typeof data1 == "object" && !Array.isArray(data1)) {
                            let missing7;
                            if ((data1.policy === void 0 || !func0.call(data1, "policy")) && (missing7 = "policy") || (data1.artifact === void 0 || !func0.call(data1, "artifact")) && (missing7 = "artifact")) {
                              validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/1/required", keyword: "required", params: { missingProperty: missing7 } }];
                              return false;
                            } else {
                              const _errs28 = errors;
                              for (const key6 of Object.keys(data1)) {
                                if (!(key6 === "policy" || key6 === "artifact")) {
                                  validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/1/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key6 } }];
                                  return false;
                                  break;
                                }
                              }
                              if (_errs28 === errors) {
                                if (data1.policy !== void 0 && func0.call(data1, "policy")) {
                                  const _errs29 = errors;
                                  if ("artifact" !== data1.policy) {
                                    validate27.errors = [{ instancePath: instancePath + "/requested/policy", schemaPath: "#/properties/requested/oneOf/1/properties/policy/const", keyword: "const", params: { allowedValue: "artifact" } }];
                                    return false;
                                  }
                                  var valid13 = _errs29 === errors;
                                } else {
                                  var valid13 = true;
                                }
                                if (valid13) {
                                  if (data1.artifact !== void 0 && func0.call(data1, "artifact")) {
                                    let data8 = data1.artifact;
                                    const _errs30 = errors;
                                    if (errors === _errs30) {
                                      if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                                        let missing8;
                                        if ((data8.strategy === void 0 || !func0.call(data8, "strategy")) && (missing8 = "strategy") || (data8.maxInlineTokens === void 0 || !func0.call(data8, "maxInlineTokens")) && (missing8 = "maxInlineTokens") || (data8.recovery === void 0 || !func0.call(data8, "recovery")) && (missing8 = "recovery")) {
                                          validate27.errors = [{ instancePath: instancePath + "/requested/artifact", schemaPath: "#/properties/requested/oneOf/1/properties/artifact/required", keyword: "required", params: { missingProperty: missing8 } }];
                                          return false;
                                        } else {
                                          const _errs32 = errors;
                                          for (const key7 of Object.keys(data8)) {
                                            if (!(key7 === "strategy" || key7 === "maxInlineTokens" || key7 === "recovery")) {
                                              validate27.errors = [{ instancePath: instancePath + "/requested/artifact", schemaPath: "#/properties/requested/oneOf/1/properties/artifact/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key7 } }];
                                              return false;
                                              break;
                                            }
                                          }
                                          if (_errs32 === errors) {
                                            if (data8.strategy !== void 0 && func0.call(data8, "strategy")) {
                                              let data9 = data8.strategy;
                                              const _errs33 = errors;
                                              if (!(data9 === "page" || data9 === "compress" || data9 === "exact_ccr")) {
                                                validate27.errors = [{ instancePath: instancePath + "/requested/artifact/strategy", schemaPath: "#/properties/requested/oneOf/1/properties/artifact/properties/strategy/enum", keyword: "enum", params: { allowedValues: schema55.properties.requested.oneOf[1].properties.artifact.properties.strategy.enum } }];
                                                return false;
                                              }
                                              var valid14 = _errs33 === errors;
                                            } else {
                                              var valid14 = true;
                                            }
                                            if (valid14) {
                                              if (data8.maxInlineTokens !== void 0 && func0.call(data8, "maxInlineTokens")) {
                                                let data10 = data8.maxInlineTokens;
                                                const _errs34 = errors;
                                                if (!(typeof data10 == "number" && (!(data10 % 1) && !isNaN(data10)) && isFinite(data10))) {
                                                  validate27.errors = [{ instancePath: instancePath + "/requested/artifact/maxInlineTokens", schemaPath: "#/properties/requested/oneOf/1/properties/artifact/properties/maxInlineTokens/type", keyword: "type", params: { type: "integer" } }];
                                                  return false;
                                                }
                                                if (errors === _errs34) {
                                                  if (typeof data10 == "number" && isFinite(data10)) {
                                                    if (data10 < 1 || isNaN(data10)) {
                                                      validate27.errors = [{ instancePath: instancePath + "/requested/artifact/maxInlineTokens", schemaPath: "#/properties/requested/oneOf/1/properties/artifact/properties/maxInlineTokens/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 } }];
                                                      return false;
                                                    }
                                                  }
                                                }
                                                var valid14 = _errs34 === errors;
                                              } else {
                                                var valid14 = true;
                                              }
                                              if (valid14) {
                                                if (data8.recovery !== void 0 && func0.call(data8, "recovery")) {
                                                  let data11 = data8.recovery;
                                                  const _errs36 = errors;
                                                  if (!(data11 === "exact_ccr" || data11 === "none")) {
                                                    validate27.errors = [{ instancePath: instancePath + "/requested/artifact/recovery", schemaPath: "#/properties/requested/oneOf/1/properties/artifact/properties/recovery/enum", keyword: "enum", params: { allowedValues: schema55.properties.requested.oneOf[1].properties.artifact.properties.recovery.enum } }];
                                                    return false;
                                                  }
                                                  var valid14 = _errs36 === errors;
                                                } else {
                                                  var valid14 = true;
                                                }
                                              }
                                            }
                                          }
                                        }
                                      } else {
                                        validate27.errors = [{ instancePath: instancePath + "/requested/artifact", schemaPath: "#/properties/requested/oneOf/1/properties/artifact/type", keyword: "type", params: { type: "object" } }];
                                        return false;
                                      }
                                    }
                                    var valid13 = _errs30 === errors;
                                  } else {
                                    var valid13 = true;
                                  }
                                }
                              }
                            }
                          } else {
                            validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/oneOf/1/type", keyword: "type", params: { type: "object" } }];
                            return false;
                          }
                        }
                      } else {
                        validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/discriminator", keyword: "discriminator", params: { error: "mapping", tag: "policy", tagValue: tag0 } }];
                        return false;
                      }
                    } else {
                      validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/discriminator", keyword: "discriminator", params: { error: "tag", tag: "policy", tagValue: tag0 } }];
                      return false;
                    }
                  }
                } else {
                  validate27.errors = [{ instancePath: instancePath + "/requested", schemaPath: "#/properties/requested/type", keyword: "type", params: { type: "object" } }];
                  return false;
                }
              }
              var valid0 = _errs3 === errors;
            } else {
              var valid0 = true;
            }
          }
        }
      }
    } else {
      validate27.errors = [{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" } }];
      return false;
    }
  }
  validate27.errors = vErrors;
  return errors === 0;
}
function validate32(data, { instancePath = "", parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (errors === 0) {
    if (data && typeof data == "object" && !Array.isArray(data)) {
      let missing0;
      if ((data.module === void 0 || !func0.call(data, "module")) && (missing0 = "module") || (data.export === void 0 || !func0.call(data, "export")) && (missing0 = "export") || (data.description === void 0 || !func0.call(data, "description")) && (missing0 = "description") || (data.effect === void 0 || !func0.call(data, "effect")) && (missing0 = "effect") || (data.speculable === void 0 || !func0.call(data, "speculable")) && (missing0 = "speculable") || (data.retryable === void 0 || !func0.call(data, "retryable")) && (missing0 = "retryable") || (data.timeoutMs === void 0 || !func0.call(data, "timeoutMs")) && (missing0 = "timeoutMs") || (data.allowRepeat === void 0 || !func0.call(data, "allowRepeat")) && (missing0 = "allowRepeat") || (data.sandbox === void 0 || !func0.call(data, "sandbox")) && (missing0 = "sandbox") || (data.nestedTools === void 0 || !func0.call(data, "nestedTools")) && (missing0 = "nestedTools") || (data.source === void 0 || !func0.call(data, "source")) && (missing0 = "source") || (data.input === void 0 || !func0.call(data, "input")) && (missing0 = "input") || (data.output === void 0 || !func0.call(data, "output")) && (missing0 = "output") || (data.result === void 0 || !func0.call(data, "result")) && (missing0 = "result")) {
        validate32.errors = [{ instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: missing0 } }];
        return false;
      } else {
        const _errs1 = errors;
        for (const key0 of Object.keys(data)) {
          if (!func0.call(schema40.properties, key0)) {
            validate32.errors = [{ instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 } }];
            return false;
            break;
          }
        }
        if (_errs1 === errors) {
          if (data.module !== void 0 && func0.call(data, "module")) {
            let data0 = data.module;
            const _errs2 = errors;
            const _errs3 = errors;
            if (errors === _errs3) {
              if (typeof data0 === "string") {
                if (data0.length < 1) {
                  validate32.errors = [{ instancePath: instancePath + "/module", schemaPath: "#/definitions/relativePath/minLength", keyword: "minLength", params: { limit: 1 } }];
                  return false;
                } else {
                  if (!pattern1.test(data0)) {
                    validate32.errors = [{ instancePath: instancePath + "/module", schemaPath: "#/definitions/relativePath/pattern", keyword: "pattern", params: { pattern: "^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$" } }];
                    return false;
                  }
                }
              } else {
                validate32.errors = [{ instancePath: instancePath + "/module", schemaPath: "#/definitions/relativePath/type", keyword: "type", params: { type: "string" } }];
                return false;
              }
            }
            var valid0 = _errs2 === errors;
          } else {
            var valid0 = true;
          }
          if (valid0) {
            if (data.export !== void 0 && func0.call(data, "export")) {
              let data1 = data.export;
              const _errs5 = errors;
              if (errors === _errs5) {
                if (typeof data1 === "string") {
                  if (data1.length < 1) {
                    validate32.errors = [{ instancePath: instancePath + "/export", schemaPath: "#/properties/export/minLength", keyword: "minLength", params: { limit: 1 } }];
                    return false;
                  }
                } else {
                  validate32.errors = [{ instancePath: instancePath + "/export", schemaPath: "#/properties/export/type", keyword: "type", params: { type: "string" } }];
                  return false;
                }
              }
              var valid0 = _errs5 === errors;
            } else {
              var valid0 = true;
            }
            if (valid0) {
              if (data.description !== void 0 && func0.call(data, "description")) {
                let data2 = data.description;
                const _errs7 = errors;
                if (errors === _errs7) {
                  if (typeof data2 === "string") {
                    if (data2.length < 1) {
                      validate32.errors = [{ instancePath: instancePath + "/description", schemaPath: "#/properties/description/minLength", keyword: "minLength", params: { limit: 1 } }];
                      return false;
                    }
                  } else {
                    validate32.errors = [{ instancePath: instancePath + "/description", schemaPath: "#/properties/description/type", keyword: "type", params: { type: "string" } }];
                    return false;
                  }
                }
                var valid0 = _errs7 === errors;
              } else {
                var valid0 = true;
              }
              if (valid0) {
                if (data.effect !== void 0 && func0.call(data, "effect")) {
                  let data3 = data.effect;
                  const _errs9 = errors;
                  if (!(data3 === "read" || data3 === "write" || data3 === "idempotent" || data3 === "external")) {
                    validate32.errors = [{ instancePath: instancePath + "/effect", schemaPath: "#/properties/effect/enum", keyword: "enum", params: { allowedValues: schema40.properties.effect.enum } }];
                    return false;
                  }
                  var valid0 = _errs9 === errors;
                } else {
                  var valid0 = true;
                }
                if (valid0) {
                  if (data.speculable !== void 0 && func0.call(data, "speculable")) {
                    const _errs10 = errors;
                    if (typeof data.speculable !== "boolean") {
                      validate32.errors = [{ instancePath: instancePath + "/speculable", schemaPath: "#/properties/speculable/type", keyword: "type", params: { type: "boolean" } }];
                      return false;
                    }
                    var valid0 = _errs10 === errors;
                  } else {
                    var valid0 = true;
                  }
                  if (valid0) {
                    if (data.retryable !== void 0 && func0.call(data, "retryable")) {
                      const _errs12 = errors;
                      if (typeof data.retryable !== "boolean") {
                        validate32.errors = [{ instancePath: instancePath + "/retryable", schemaPath: "#/properties/retryable/type", keyword: "type", params: { type: "boolean" } }];
                        return false;
                      }
                      var valid0 = _errs12 === errors;
                    } else {
                      var valid0 = true;
                    }
                    if (valid0) {
                      if (data.timeoutMs !== void 0 && func0.call(data, "timeoutMs")) {
                        let data6 = data.timeoutMs;
                        const _errs14 = errors;
                        if (!(typeof data6 == "number" && (!(data6 % 1) && !isNaN(data6)) && isFinite(data6))) {
                          validate32.errors = [{ instancePath: instancePath + "/timeoutMs", schemaPath: "#/properties/timeoutMs/type", keyword: "type", params: { type: "integer" } }];
                          return false;
                        }
                        if (errors === _errs14) {
                          if (typeof data6 == "number" && isFinite(data6)) {
                            if (data6 > 2147483647 || isNaN(data6)) {
                              validate32.errors = [{ instancePath: instancePath + "/timeoutMs", schemaPath: "#/properties/timeoutMs/maximum", keyword: "maximum", params: { comparison: "<=", limit: 2147483647 } }];
                              return false;
                            } else {
                              if (data6 < 1 || isNaN(data6)) {
                                validate32.errors = [{ instancePath: instancePath + "/timeoutMs", schemaPath: "#/properties/timeoutMs/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 } }];
                                return false;
                              }
                            }
                          }
                        }
                        var valid0 = _errs14 === errors;
                      } else {
                        var valid0 = true;
                      }
                      if (valid0) {
                        if (data.allowRepeat !== void 0 && func0.call(data, "allowRepeat")) {
                          const _errs16 = errors;
                          if (typeof data.allowRepeat !== "boolean") {
                            validate32.errors = [{ instancePath: instancePath + "/allowRepeat", schemaPath: "#/properties/allowRepeat/type", keyword: "type", params: { type: "boolean" } }];
                            return false;
                          }
                          var valid0 = _errs16 === errors;
                        } else {
                          var valid0 = true;
                        }
                        if (valid0) {
                          if (data.sandbox !== void 0 && func0.call(data, "sandbox")) {
                            let data8 = data.sandbox;
                            const _errs18 = errors;
                            if (errors === _errs18) {
                              if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                                let missing1;
                                if ((data8.mode === void 0 || !func0.call(data8, "mode")) && (missing1 = "mode") || (data8.network === void 0 || !func0.call(data8, "network")) && (missing1 = "network") || (data8.env === void 0 || !func0.call(data8, "env")) && (missing1 = "env") || (data8.egress === void 0 || !func0.call(data8, "egress")) && (missing1 = "egress") || (data8.secrets === void 0 || !func0.call(data8, "secrets")) && (missing1 = "secrets") || (data8.fs === void 0 || !func0.call(data8, "fs")) && (missing1 = "fs") || (data8.addons === void 0 || !func0.call(data8, "addons")) && (missing1 = "addons")) {
                                  validate32.errors = [{ instancePath: instancePath + "/sandbox", schemaPath: "#/properties/sandbox/required", keyword: "required", params: { missingProperty: missing1 } }];
                                  return false;
                                } else {
                                  const _errs20 = errors;
                                  for (const key1 of Object.keys(data8)) {
                                    if (!(key1 === "mode" || key1 === "network" || key1 === "env" || key1 === "egress" || key1 === "secrets" || key1 === "fs" || key1 === "addons")) {
                                      validate32.errors = [{ instancePath: instancePath + "/sandbox", schemaPath: "#/properties/sandbox/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 } }];
                                      return false;
                                      break;
                                    }
                                  }
                                  if (_errs20 === errors) {
                                    if (data8.mode !== void 0 && func0.call(data8, "mode")) {
                                      let data9 = data8.mode;
                                      const _errs21 = errors;
                                      if (!(data9 === "required" || data9 === "none")) {
                                        validate32.errors = [{ instancePath: instancePath + "/sandbox/mode", schemaPath: "#/properties/sandbox/properties/mode/enum", keyword: "enum", params: { allowedValues: schema40.properties.sandbox.properties.mode.enum } }];
                                        return false;
                                      }
                                      var valid2 = _errs21 === errors;
                                    } else {
                                      var valid2 = true;
                                    }
                                    if (valid2) {
                                      if (data8.network !== void 0 && func0.call(data8, "network")) {
                                        const _errs22 = errors;
                                        if (false !== data8.network) {
                                          validate32.errors = [{ instancePath: instancePath + "/sandbox/network", schemaPath: "#/properties/sandbox/properties/network/const", keyword: "const", params: { allowedValue: false } }];
                                          return false;
                                        }
                                        var valid2 = _errs22 === errors;
                                      } else {
                                        var valid2 = true;
                                      }
                                      if (valid2) {
                                        if (data8.env !== void 0 && func0.call(data8, "env")) {
                                          let data11 = data8.env;
                                          const _errs23 = errors;
                                          if (errors === _errs23) {
                                            if (Array.isArray(data11)) {
                                              var valid3 = true;
                                              const len0 = data11.length;
                                              for (let i0 = 0; i0 < len0; i0++) {
                                                let data12 = data11[i0];
                                                const _errs25 = errors;
                                                if (errors === _errs25) {
                                                  if (typeof data12 === "string") {
                                                    if (!pattern28.test(data12)) {
                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/env/" + i0, schemaPath: "#/properties/sandbox/properties/env/items/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z_][A-Za-z0-9_]*$" } }];
                                                      return false;
                                                    }
                                                  } else {
                                                    validate32.errors = [{ instancePath: instancePath + "/sandbox/env/" + i0, schemaPath: "#/properties/sandbox/properties/env/items/type", keyword: "type", params: { type: "string" } }];
                                                    return false;
                                                  }
                                                }
                                                var valid3 = _errs25 === errors;
                                                if (!valid3) {
                                                  break;
                                                }
                                              }
                                              if (valid3) {
                                                let i1 = data11.length;
                                                let j0;
                                                if (i1 > 1) {
                                                  const indices0 = {};
                                                  for (; i1--; ) {
                                                    let item0 = data11[i1];
                                                    if (typeof item0 !== "string") {
                                                      continue;
                                                    }
                                                    if (typeof indices0[item0] == "number") {
                                                      j0 = indices0[item0];
                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/env", schemaPath: "#/properties/sandbox/properties/env/uniqueItems", keyword: "uniqueItems", params: { i: i1, j: j0 } }];
                                                      return false;
                                                      break;
                                                    }
                                                    indices0[item0] = i1;
                                                  }
                                                }
                                              }
                                            } else {
                                              validate32.errors = [{ instancePath: instancePath + "/sandbox/env", schemaPath: "#/properties/sandbox/properties/env/type", keyword: "type", params: { type: "array" } }];
                                              return false;
                                            }
                                          }
                                          var valid2 = _errs23 === errors;
                                        } else {
                                          var valid2 = true;
                                        }
                                        if (valid2) {
                                          if (data8.egress !== void 0 && func0.call(data8, "egress")) {
                                            let data13 = data8.egress;
                                            const _errs27 = errors;
                                            if (errors === _errs27) {
                                              if (Array.isArray(data13)) {
                                                var valid5 = true;
                                                const len1 = data13.length;
                                                for (let i2 = 0; i2 < len1; i2++) {
                                                  let data14 = data13[i2];
                                                  const _errs29 = errors;
                                                  const _errs30 = errors;
                                                  if (errors === _errs30) {
                                                    if (typeof data14 === "string") {
                                                      if (!pattern29.test(data14)) {
                                                        validate32.errors = [{ instancePath: instancePath + "/sandbox/egress/" + i2, schemaPath: "#/definitions/egressEntry/pattern", keyword: "pattern", params: { pattern: "^(\\*\\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[1-9][0-9]{0,4})?$" } }];
                                                        return false;
                                                      }
                                                    } else {
                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/egress/" + i2, schemaPath: "#/definitions/egressEntry/type", keyword: "type", params: { type: "string" } }];
                                                      return false;
                                                    }
                                                  }
                                                  var valid5 = _errs29 === errors;
                                                  if (!valid5) {
                                                    break;
                                                  }
                                                }
                                                if (valid5) {
                                                  let i3 = data13.length;
                                                  let j1;
                                                  if (i3 > 1) {
                                                    outer0:
                                                      for (; i3--; ) {
                                                        for (j1 = i3; j1--; ) {
                                                          if (func32(data13[i3], data13[j1])) {
                                                            validate32.errors = [{ instancePath: instancePath + "/sandbox/egress", schemaPath: "#/properties/sandbox/properties/egress/uniqueItems", keyword: "uniqueItems", params: { i: i3, j: j1 } }];
                                                            return false;
                                                            break outer0;
                                                          }
                                                        }
                                                      }
                                                  }
                                                }
                                              } else {
                                                validate32.errors = [{ instancePath: instancePath + "/sandbox/egress", schemaPath: "#/properties/sandbox/properties/egress/type", keyword: "type", params: { type: "array" } }];
                                                return false;
                                              }
                                            }
                                            var valid2 = _errs27 === errors;
                                          } else {
                                            var valid2 = true;
                                          }
                                          if (valid2) {
                                            if (data8.secrets !== void 0 && func0.call(data8, "secrets")) {
                                              let data15 = data8.secrets;
                                              const _errs32 = errors;
                                              if (errors === _errs32) {
                                                if (data15 && typeof data15 == "object" && !Array.isArray(data15)) {
                                                  for (const key2 of Object.keys(data15)) {
                                                    const _errs34 = errors;
                                                    if (typeof key2 === "string") {
                                                      if (!pattern28.test(key2)) {
                                                        const err0 = { instancePath: instancePath + "/sandbox/secrets", schemaPath: "#/properties/sandbox/properties/secrets/propertyNames/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }, propertyName: key2 };
                                                        if (vErrors === null) {
                                                          vErrors = [err0];
                                                        } else {
                                                          vErrors.push(err0);
                                                        }
                                                        errors++;
                                                      }
                                                    }
                                                    var valid8 = _errs34 === errors;
                                                    if (!valid8) {
                                                      const err1 = { instancePath: instancePath + "/sandbox/secrets", schemaPath: "#/properties/sandbox/properties/secrets/propertyNames", keyword: "propertyNames", params: { propertyName: key2 } };
                                                      if (vErrors === null) {
                                                        vErrors = [err1];
                                                      } else {
                                                        vErrors.push(err1);
                                                      }
                                                      errors++;
                                                      validate32.errors = vErrors;
                                                      return false;
                                                      break;
                                                    }
                                                  }
                                                  if (valid8) {
                                                    for (const key3 of Object.keys(data15)) {
                                                      let data16 = data15[key3];
                                                      const _errs36 = errors;
                                                      if (errors === _errs36) {
                                                        if (data16 && typeof data16 == "object" && !Array.isArray(data16)) {
                                                          let missing2;
                                                          if ((data16.format === void 0 || !func0.call(data16, "format")) && (missing2 = "format") || (data16.header === void 0 || !func0.call(data16, "header")) && (missing2 = "header") || (data16.hosts === void 0 || !func0.call(data16, "hosts")) && (missing2 = "hosts")) {
                                                            validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/required", keyword: "required", params: { missingProperty: missing2 } }];
                                                            return false;
                                                          } else {
                                                            const _errs38 = errors;
                                                            for (const key4 of Object.keys(data16)) {
                                                              if (!(key4 === "format" || key4 === "header" || key4 === "hosts")) {
                                                                validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key4 } }];
                                                                return false;
                                                                break;
                                                              }
                                                            }
                                                            if (_errs38 === errors) {
                                                              if (data16.format !== void 0 && func0.call(data16, "format")) {
                                                                let data17 = data16.format;
                                                                const _errs39 = errors;
                                                                if (errors === _errs39) {
                                                                  if (typeof data17 === "string") {
                                                                    if (!pattern31.test(data17)) {
                                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1") + "/format", schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/properties/format/pattern", keyword: "pattern", params: { pattern: "\\{\\}" } }];
                                                                      return false;
                                                                    }
                                                                  } else {
                                                                    validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1") + "/format", schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/properties/format/type", keyword: "type", params: { type: "string" } }];
                                                                    return false;
                                                                  }
                                                                }
                                                                var valid10 = _errs39 === errors;
                                                              } else {
                                                                var valid10 = true;
                                                              }
                                                              if (valid10) {
                                                                if (data16.header !== void 0 && func0.call(data16, "header")) {
                                                                  let data18 = data16.header;
                                                                  const _errs41 = errors;
                                                                  if (errors === _errs41) {
                                                                    if (typeof data18 === "string") {
                                                                      if (!pattern32.test(data18)) {
                                                                        validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1") + "/header", schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/properties/header/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9!#$%&'*+.^_`|~-]+$" } }];
                                                                        return false;
                                                                      }
                                                                    } else {
                                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1") + "/header", schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/properties/header/type", keyword: "type", params: { type: "string" } }];
                                                                      return false;
                                                                    }
                                                                  }
                                                                  var valid10 = _errs41 === errors;
                                                                } else {
                                                                  var valid10 = true;
                                                                }
                                                                if (valid10) {
                                                                  if (data16.hosts !== void 0 && func0.call(data16, "hosts")) {
                                                                    let data19 = data16.hosts;
                                                                    const _errs43 = errors;
                                                                    if (errors === _errs43) {
                                                                      if (Array.isArray(data19)) {
                                                                        if (data19.length < 1) {
                                                                          validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1") + "/hosts", schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/properties/hosts/minItems", keyword: "minItems", params: { limit: 1 } }];
                                                                          return false;
                                                                        } else {
                                                                          var valid11 = true;
                                                                          const len2 = data19.length;
                                                                          for (let i4 = 0; i4 < len2; i4++) {
                                                                            let data20 = data19[i4];
                                                                            const _errs45 = errors;
                                                                            const _errs46 = errors;
                                                                            if (errors === _errs46) {
                                                                              if (typeof data20 === "string") {
                                                                                if (!pattern29.test(data20)) {
                                                                                  validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1") + "/hosts/" + i4, schemaPath: "#/definitions/egressEntry/pattern", keyword: "pattern", params: { pattern: "^(\\*\\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[1-9][0-9]{0,4})?$" } }];
                                                                                  return false;
                                                                                }
                                                                              } else {
                                                                                validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1") + "/hosts/" + i4, schemaPath: "#/definitions/egressEntry/type", keyword: "type", params: { type: "string" } }];
                                                                                return false;
                                                                              }
                                                                            }
                                                                            var valid11 = _errs45 === errors;
                                                                            if (!valid11) {
                                                                              break;
                                                                            }
                                                                          }
                                                                          if (valid11) {
                                                                            let i5 = data19.length;
                                                                            let j2;
                                                                            if (i5 > 1) {
                                                                              outer1:
                                                                                for (; i5--; ) {
                                                                                  for (j2 = i5; j2--; ) {
                                                                                    if (func32(data19[i5], data19[j2])) {
                                                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1") + "/hosts", schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/properties/hosts/uniqueItems", keyword: "uniqueItems", params: { i: i5, j: j2 } }];
                                                                                      return false;
                                                                                      break outer1;
                                                                                    }
                                                                                  }
                                                                                }
                                                                            }
                                                                          }
                                                                        }
                                                                      } else {
                                                                        validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1") + "/hosts", schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/properties/hosts/type", keyword: "type", params: { type: "array" } }];
                                                                        return false;
                                                                      }
                                                                    }
                                                                    var valid10 = _errs43 === errors;
                                                                  } else {
                                                                    var valid10 = true;
                                                                  }
                                                                }
                                                              }
                                                            }
                                                          }
                                                        } else {
                                                          validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/properties/sandbox/properties/secrets/additionalProperties/type", keyword: "type", params: { type: "object" } }];
                                                          return false;
                                                        }
                                                      }
                                                      var valid9 = _errs36 === errors;
                                                      if (!valid9) {
                                                        break;
                                                      }
                                                    }
                                                  }
                                                } else {
                                                  validate32.errors = [{ instancePath: instancePath + "/sandbox/secrets", schemaPath: "#/properties/sandbox/properties/secrets/type", keyword: "type", params: { type: "object" } }];
                                                  return false;
                                                }
                                              }
                                              var valid2 = _errs32 === errors;
                                            } else {
                                              var valid2 = true;
                                            }
                                            if (valid2) {
                                              if (data8.fs !== void 0 && func0.call(data8, "fs")) {
                                                let data21 = data8.fs;
                                                const _errs48 = errors;
                                                if (!(data21 && typeof data21 == "object" && !Array.isArray(data21)) && data21 !== null) {
                                                  validate32.errors = [{ instancePath: instancePath + "/sandbox/fs", schemaPath: "#/properties/sandbox/properties/fs/type", keyword: "type", params: { type: schema40.properties.sandbox.properties.fs.type } }];
                                                  return false;
                                                }
                                                if (errors === _errs48) {
                                                  if (data21 && typeof data21 == "object" && !Array.isArray(data21)) {
                                                    let missing3;
                                                    if ((data21.read === void 0 || !func0.call(data21, "read")) && (missing3 = "read") || (data21.write === void 0 || !func0.call(data21, "write")) && (missing3 = "write")) {
                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/fs", schemaPath: "#/properties/sandbox/properties/fs/required", keyword: "required", params: { missingProperty: missing3 } }];
                                                      return false;
                                                    } else {
                                                      const _errs50 = errors;
                                                      for (const key5 of Object.keys(data21)) {
                                                        if (!(key5 === "read" || key5 === "write")) {
                                                          validate32.errors = [{ instancePath: instancePath + "/sandbox/fs", schemaPath: "#/properties/sandbox/properties/fs/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key5 } }];
                                                          return false;
                                                          break;
                                                        }
                                                      }
                                                      if (_errs50 === errors) {
                                                        if (data21.read !== void 0 && func0.call(data21, "read")) {
                                                          let data22 = data21.read;
                                                          const _errs51 = errors;
                                                          const _errs52 = errors;
                                                          if (errors === _errs52) {
                                                            if (Array.isArray(data22)) {
                                                              var valid16 = true;
                                                              const len3 = data22.length;
                                                              for (let i6 = 0; i6 < len3; i6++) {
                                                                let data23 = data22[i6];
                                                                const _errs54 = errors;
                                                                const _errs56 = errors;
                                                                const _errs57 = errors;
                                                                if (typeof data23 === "string") {
                                                                  if (!pattern34.test(data23)) {
                                                                    const err2 = {};
                                                                    if (vErrors === null) {
                                                                      vErrors = [err2];
                                                                    } else {
                                                                      vErrors.push(err2);
                                                                    }
                                                                    errors++;
                                                                  }
                                                                }
                                                                var valid17 = _errs57 === errors;
                                                                if (valid17) {
                                                                  validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/read/" + i6, schemaPath: "#/definitions/fsScopes/items/not", keyword: "not", params: {} }];
                                                                  return false;
                                                                } else {
                                                                  errors = _errs56;
                                                                  if (vErrors !== null) {
                                                                    if (_errs56) {
                                                                      vErrors.length = _errs56;
                                                                    } else {
                                                                      vErrors = null;
                                                                    }
                                                                  }
                                                                }
                                                                if (errors === _errs54) {
                                                                  if (typeof data23 === "string") {
                                                                    if (data23.length > 512) {
                                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/read/" + i6, schemaPath: "#/definitions/fsScopes/items/maxLength", keyword: "maxLength", params: { limit: 512 } }];
                                                                      return false;
                                                                    } else {
                                                                      if (data23.length < 1) {
                                                                        validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/read/" + i6, schemaPath: "#/definitions/fsScopes/items/minLength", keyword: "minLength", params: { limit: 1 } }];
                                                                        return false;
                                                                      } else {
                                                                        if (!pattern35.test(data23)) {
                                                                          validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/read/" + i6, schemaPath: "#/definitions/fsScopes/items/pattern", keyword: "pattern", params: { pattern: "^(?:\\$[A-Z][A-Z0-9_]{0,63}(?:/[^/\\\\,\\u0000-\\u001f]+)*|\\.|[^/$~\\\\,\\u0000-\\u001f][^\\\\,\\u0000-\\u001f]*)$" } }];
                                                                          return false;
                                                                        }
                                                                      }
                                                                    }
                                                                  } else {
                                                                    validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/read/" + i6, schemaPath: "#/definitions/fsScopes/items/type", keyword: "type", params: { type: "string" } }];
                                                                    return false;
                                                                  }
                                                                }
                                                                var valid16 = _errs54 === errors;
                                                                if (!valid16) {
                                                                  break;
                                                                }
                                                              }
                                                              if (valid16) {
                                                                let i7 = data22.length;
                                                                let j3;
                                                                if (i7 > 1) {
                                                                  const indices1 = {};
                                                                  for (; i7--; ) {
                                                                    let item1 = data22[i7];
                                                                    if (typeof item1 !== "string") {
                                                                      continue;
                                                                    }
                                                                    if (typeof indices1[item1] == "number") {
                                                                      j3 = indices1[item1];
                                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/read", schemaPath: "#/definitions/fsScopes/uniqueItems", keyword: "uniqueItems", params: { i: i7, j: j3 } }];
                                                                      return false;
                                                                      break;
                                                                    }
                                                                    indices1[item1] = i7;
                                                                  }
                                                                }
                                                              }
                                                            } else {
                                                              validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/read", schemaPath: "#/definitions/fsScopes/type", keyword: "type", params: { type: "array" } }];
                                                              return false;
                                                            }
                                                          }
                                                          var valid14 = _errs51 === errors;
                                                        } else {
                                                          var valid14 = true;
                                                        }
                                                        if (valid14) {
                                                          if (data21.write !== void 0 && func0.call(data21, "write")) {
                                                            let data24 = data21.write;
                                                            const _errs58 = errors;
                                                            const _errs59 = errors;
                                                            if (errors === _errs59) {
                                                              if (Array.isArray(data24)) {
                                                                var valid20 = true;
                                                                const len4 = data24.length;
                                                                for (let i8 = 0; i8 < len4; i8++) {
                                                                  let data25 = data24[i8];
                                                                  const _errs61 = errors;
                                                                  const _errs63 = errors;
                                                                  const _errs64 = errors;
                                                                  if (typeof data25 === "string") {
                                                                    if (!pattern34.test(data25)) {
                                                                      const err3 = {};
                                                                      if (vErrors === null) {
                                                                        vErrors = [err3];
                                                                      } else {
                                                                        vErrors.push(err3);
                                                                      }
                                                                      errors++;
                                                                    }
                                                                  }
                                                                  var valid21 = _errs64 === errors;
                                                                  if (valid21) {
                                                                    validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/write/" + i8, schemaPath: "#/definitions/fsScopes/items/not", keyword: "not", params: {} }];
                                                                    return false;
                                                                  } else {
                                                                    errors = _errs63;
                                                                    if (vErrors !== null) {
                                                                      if (_errs63) {
                                                                        vErrors.length = _errs63;
                                                                      } else {
                                                                        vErrors = null;
                                                                      }
                                                                    }
                                                                  }
                                                                  if (errors === _errs61) {
                                                                    if (typeof data25 === "string") {
                                                                      if (data25.length > 512) {
                                                                        validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/write/" + i8, schemaPath: "#/definitions/fsScopes/items/maxLength", keyword: "maxLength", params: { limit: 512 } }];
                                                                        return false;
                                                                      } else {
                                                                        if (data25.length < 1) {
                                                                          validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/write/" + i8, schemaPath: "#/definitions/fsScopes/items/minLength", keyword: "minLength", params: { limit: 1 } }];
                                                                          return false;
                                                                        } else {
                                                                          if (!pattern35.test(data25)) {
                                                                            validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/write/" + i8, schemaPath: "#/definitions/fsScopes/items/pattern", keyword: "pattern", params: { pattern: "^(?:\\$[A-Z][A-Z0-9_]{0,63}(?:/[^/\\\\,\\u0000-\\u001f]+)*|\\.|[^/$~\\\\,\\u0000-\\u001f][^\\\\,\\u0000-\\u001f]*)$" } }];
                                                                            return false;
                                                                          }
                                                                        }
                                                                      }
                                                                    } else {
                                                                      validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/write/" + i8, schemaPath: "#/definitions/fsScopes/items/type", keyword: "type", params: { type: "string" } }];
                                                                      return false;
                                                                    }
                                                                  }
                                                                  var valid20 = _errs61 === errors;
                                                                  if (!valid20) {
                                                                    break;
                                                                  }
                                                                }
                                                                if (valid20) {
                                                                  let i9 = data24.length;
                                                                  let j4;
                                                                  if (i9 > 1) {
                                                                    const indices2 = {};
                                                                    for (; i9--; ) {
                                                                      let item2 = data24[i9];
                                                                      if (typeof item2 !== "string") {
                                                                        continue;
                                                                      }
                                                                      if (typeof indices2[item2] == "number") {
                                                                        j4 = indices2[item2];
                                                                        validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/write", schemaPath: "#/definitions/fsScopes/uniqueItems", keyword: "uniqueItems", params: { i: i9, j: j4 } }];
                                                                        return false;
                                                                        break;
                                                                      }
                                                                      indices2[item2] = i9;
                                                                    }
                                                                  }
                                                                }
                                                              } else {
                                                                validate32.errors = [{ instancePath: instancePath + "/sandbox/fs/write", schemaPath: "#/definitions/fsScopes/type", keyword: "type", params: { type: "array" } }];
                                                                return false;
                                                              }
                                                            }
                                                            var valid14 = _errs58 === errors;
                                                          } else {
                                                            var valid14 = true;
                                                          }
                                                        }
                                                      }
                                                    }
                                                  }
                                                }
                                                var valid2 = _errs48 === errors;
                                              } else {
                                                var valid2 = true;
                                              }
                                              if (valid2) {
                                                if (data8.addons !== void 0 && func0.call(data8, "addons")) {
                                                  const _errs65 = errors;
                                                  if (typeof data8.addons !== "boolean") {
                                                    validate32.errors = [{ instancePath: instancePath + "/sandbox/addons", schemaPath: "#/properties/sandbox/properties/addons/type", keyword: "type", params: { type: "boolean" } }];
                                                    return false;
                                                  }
                                                  var valid2 = _errs65 === errors;
                                                } else {
                                                  var valid2 = true;
                                                }
                                              }
                                            }
                                          }
                                        }
                                      }
                                    }
                                  }
                                }
                              } else {
                                validate32.errors = [{ instancePath: instancePath + "/sandbox", schemaPath: "#/properties/sandbox/type", keyword: "type", params: { type: "object" } }];
                                return false;
                              }
                            }
                            var valid0 = _errs18 === errors;
                          } else {
                            var valid0 = true;
                          }
                          if (valid0) {
                            if (data.nestedTools !== void 0 && func0.call(data, "nestedTools")) {
                              const _errs67 = errors;
                              if (!validate18(data.nestedTools, { instancePath: instancePath + "/nestedTools", parentData: data, parentDataProperty: "nestedTools", rootData })) {
                                vErrors = vErrors === null ? validate18.errors : vErrors.concat(validate18.errors);
                                errors = vErrors.length;
                              }
                              var valid0 = _errs67 === errors;
                            } else {
                              var valid0 = true;
                            }
                            if (valid0) {
                              if (data.source !== void 0 && func0.call(data, "source")) {
                                let data28 = data.source;
                                const _errs68 = errors;
                                if (errors === _errs68) {
                                  if (data28 && typeof data28 == "object" && !Array.isArray(data28)) {
                                    let missing4;
                                    if ((data28.bundle === void 0 || !func0.call(data28, "bundle")) && (missing4 = "bundle") || (data28.sha256 === void 0 || !func0.call(data28, "sha256")) && (missing4 = "sha256") || (data28.files === void 0 || !func0.call(data28, "files")) && (missing4 = "files") || (data28.assets === void 0 || !func0.call(data28, "assets")) && (missing4 = "assets") || (data28.externals === void 0 || !func0.call(data28, "externals")) && (missing4 = "externals")) {
                                      validate32.errors = [{ instancePath: instancePath + "/source", schemaPath: "#/properties/source/required", keyword: "required", params: { missingProperty: missing4 } }];
                                      return false;
                                    } else {
                                      const _errs70 = errors;
                                      for (const key6 of Object.keys(data28)) {
                                        if (!(key6 === "bundle" || key6 === "sha256" || key6 === "files" || key6 === "assets" || key6 === "externals")) {
                                          validate32.errors = [{ instancePath: instancePath + "/source", schemaPath: "#/properties/source/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key6 } }];
                                          return false;
                                          break;
                                        }
                                      }
                                      if (_errs70 === errors) {
                                        if (data28.bundle !== void 0 && func0.call(data28, "bundle")) {
                                          let data29 = data28.bundle;
                                          const _errs71 = errors;
                                          const _errs72 = errors;
                                          if (errors === _errs72) {
                                            if (typeof data29 === "string") {
                                              if (data29.length < 1) {
                                                validate32.errors = [{ instancePath: instancePath + "/source/bundle", schemaPath: "#/definitions/relativePath/minLength", keyword: "minLength", params: { limit: 1 } }];
                                                return false;
                                              } else {
                                                if (!pattern1.test(data29)) {
                                                  validate32.errors = [{ instancePath: instancePath + "/source/bundle", schemaPath: "#/definitions/relativePath/pattern", keyword: "pattern", params: { pattern: "^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$" } }];
                                                  return false;
                                                }
                                              }
                                            } else {
                                              validate32.errors = [{ instancePath: instancePath + "/source/bundle", schemaPath: "#/definitions/relativePath/type", keyword: "type", params: { type: "string" } }];
                                              return false;
                                            }
                                          }
                                          var valid23 = _errs71 === errors;
                                        } else {
                                          var valid23 = true;
                                        }
                                        if (valid23) {
                                          if (data28.sha256 !== void 0 && func0.call(data28, "sha256")) {
                                            let data30 = data28.sha256;
                                            const _errs74 = errors;
                                            const _errs75 = errors;
                                            if (errors === _errs75) {
                                              if (typeof data30 === "string") {
                                                if (!pattern0.test(data30)) {
                                                  validate32.errors = [{ instancePath: instancePath + "/source/sha256", schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                                                  return false;
                                                }
                                              } else {
                                                validate32.errors = [{ instancePath: instancePath + "/source/sha256", schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                                                return false;
                                              }
                                            }
                                            var valid23 = _errs74 === errors;
                                          } else {
                                            var valid23 = true;
                                          }
                                          if (valid23) {
                                            if (data28.files !== void 0 && func0.call(data28, "files")) {
                                              let data31 = data28.files;
                                              const _errs77 = errors;
                                              if (errors === _errs77) {
                                                if (data31 && typeof data31 == "object" && !Array.isArray(data31)) {
                                                  if (Object.keys(data31).length < 1) {
                                                    validate32.errors = [{ instancePath: instancePath + "/source/files", schemaPath: "#/properties/source/properties/files/minProperties", keyword: "minProperties", params: { limit: 1 } }];
                                                    return false;
                                                  } else {
                                                    for (const key7 of Object.keys(data31)) {
                                                      let data32 = data31[key7];
                                                      const _errs80 = errors;
                                                      const _errs81 = errors;
                                                      if (errors === _errs81) {
                                                        if (typeof data32 === "string") {
                                                          if (!pattern0.test(data32)) {
                                                            validate32.errors = [{ instancePath: instancePath + "/source/files/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                                                            return false;
                                                          }
                                                        } else {
                                                          validate32.errors = [{ instancePath: instancePath + "/source/files/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"), schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                                                          return false;
                                                        }
                                                      }
                                                      var valid26 = _errs80 === errors;
                                                      if (!valid26) {
                                                        break;
                                                      }
                                                    }
                                                  }
                                                } else {
                                                  validate32.errors = [{ instancePath: instancePath + "/source/files", schemaPath: "#/properties/source/properties/files/type", keyword: "type", params: { type: "object" } }];
                                                  return false;
                                                }
                                              }
                                              var valid23 = _errs77 === errors;
                                            } else {
                                              var valid23 = true;
                                            }
                                            if (valid23) {
                                              if (data28.assets !== void 0 && func0.call(data28, "assets")) {
                                                let data33 = data28.assets;
                                                const _errs83 = errors;
                                                if (errors === _errs83) {
                                                  if (Array.isArray(data33)) {
                                                    var valid28 = true;
                                                    const len5 = data33.length;
                                                    for (let i10 = 0; i10 < len5; i10++) {
                                                      let data34 = data33[i10];
                                                      const _errs85 = errors;
                                                      if (errors === _errs85) {
                                                        if (data34 && typeof data34 == "object" && !Array.isArray(data34)) {
                                                          let missing5;
                                                          if ((data34.path === void 0 || !func0.call(data34, "path")) && (missing5 = "path") || (data34.sha256 === void 0 || !func0.call(data34, "sha256")) && (missing5 = "sha256")) {
                                                            validate32.errors = [{ instancePath: instancePath + "/source/assets/" + i10, schemaPath: "#/properties/source/properties/assets/items/required", keyword: "required", params: { missingProperty: missing5 } }];
                                                            return false;
                                                          } else {
                                                            const _errs87 = errors;
                                                            for (const key8 of Object.keys(data34)) {
                                                              if (!(key8 === "path" || key8 === "sha256")) {
                                                                validate32.errors = [{ instancePath: instancePath + "/source/assets/" + i10, schemaPath: "#/properties/source/properties/assets/items/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key8 } }];
                                                                return false;
                                                                break;
                                                              }
                                                            }
                                                            if (_errs87 === errors) {
                                                              if (data34.path !== void 0 && func0.call(data34, "path")) {
                                                                let data35 = data34.path;
                                                                const _errs88 = errors;
                                                                const _errs89 = errors;
                                                                if (errors === _errs89) {
                                                                  if (typeof data35 === "string") {
                                                                    if (data35.length < 1) {
                                                                      validate32.errors = [{ instancePath: instancePath + "/source/assets/" + i10 + "/path", schemaPath: "#/definitions/relativePath/minLength", keyword: "minLength", params: { limit: 1 } }];
                                                                      return false;
                                                                    } else {
                                                                      if (!pattern1.test(data35)) {
                                                                        validate32.errors = [{ instancePath: instancePath + "/source/assets/" + i10 + "/path", schemaPath: "#/definitions/relativePath/pattern", keyword: "pattern", params: { pattern: "^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$" } }];
                                                                        return false;
                                                                      }
                                                                    }
                                                                  } else {
                                                                    validate32.errors = [{ instancePath: instancePath + "/source/assets/" + i10 + "/path", schemaPath: "#/definitions/relativePath/type", keyword: "type", params: { type: "string" } }];
                                                                    return false;
                                                                  }
                                                                }
                                                                var valid29 = _errs88 === errors;
                                                              } else {
                                                                var valid29 = true;
                                                              }
                                                              if (valid29) {
                                                                if (data34.sha256 !== void 0 && func0.call(data34, "sha256")) {
                                                                  let data36 = data34.sha256;
                                                                  const _errs91 = errors;
                                                                  const _errs92 = errors;
                                                                  if (errors === _errs92) {
                                                                    if (typeof data36 === "string") {
                                                                      if (!pattern0.test(data36)) {
                                                                        validate32.errors = [{ instancePath: instancePath + "/source/assets/" + i10 + "/sha256", schemaPath: "#/definitions/hash/pattern", keyword: "pattern", params: { pattern: "^sha256-[0-9a-f]{64}$" } }];
                                                                        return false;
                                                                      }
                                                                    } else {
                                                                      validate32.errors = [{ instancePath: instancePath + "/source/assets/" + i10 + "/sha256", schemaPath: "#/definitions/hash/type", keyword: "type", params: { type: "string" } }];
                                                                      return false;
                                                                    }
                                                                  }
                                                                  var valid29 = _errs91 === errors;
                                                                } else {
                                                                  var valid29 = true;
                                                                }
                                                              }
                                                            }
                                                          }
                                                        } else {
                                                          validate32.errors = [{ instancePath: instancePath + "/source/assets/" + i10, schemaPath: "#/properties/source/properties/assets/items/type", keyword: "type", params: { type: "object" } }];
                                                          return false;
                                                        }
                                                      }
                                                      var valid28 = _errs85 === errors;
                                                      if (!valid28) {
                                                        break;
                                                      }
                                                    }
                                                  } else {
                                                    validate32.errors = [{ instancePath: instancePath + "/source/assets", schemaPath: "#/properties/source/properties/assets/type", keyword: "type", params: { type: "array" } }];
                                                    return false;
                                                  }
                                                }
                                                var valid23 = _errs83 === errors;
                                              } else {
                                                var valid23 = true;
                                              }
                                              if (valid23) {
                                                if (data28.externals !== void 0 && func0.call(data28, "externals")) {
                                                  let data37 = data28.externals;
                                                  const _errs94 = errors;
                                                  if (errors === _errs94) {
                                                    if (Array.isArray(data37)) {
                                                      var valid32 = true;
                                                      const len6 = data37.length;
                                                      for (let i11 = 0; i11 < len6; i11++) {
                                                        let data38 = data37[i11];
                                                        const _errs96 = errors;
                                                        if (errors === _errs96) {
                                                          if (typeof data38 === "string") {
                                                            if (!pattern10.test(data38)) {
                                                              validate32.errors = [{ instancePath: instancePath + "/source/externals/" + i11, schemaPath: "#/properties/source/properties/externals/items/pattern", keyword: "pattern", params: { pattern: "^(\\.\\./)*([^./][^/]*/)*node_modules/(@[^/.][^/]*/)?[^/.][^/]*(/node_modules/(@[^/.][^/]*/)?[^/.][^/]*)*$" } }];
                                                              return false;
                                                            }
                                                          } else {
                                                            validate32.errors = [{ instancePath: instancePath + "/source/externals/" + i11, schemaPath: "#/properties/source/properties/externals/items/type", keyword: "type", params: { type: "string" } }];
                                                            return false;
                                                          }
                                                        }
                                                        var valid32 = _errs96 === errors;
                                                        if (!valid32) {
                                                          break;
                                                        }
                                                      }
                                                      if (valid32) {
                                                        let i12 = data37.length;
                                                        let j5;
                                                        if (i12 > 1) {
                                                          const indices3 = {};
                                                          for (; i12--; ) {
                                                            let item3 = data37[i12];
                                                            if (typeof item3 !== "string") {
                                                              continue;
                                                            }
                                                            if (typeof indices3[item3] == "number") {
                                                              j5 = indices3[item3];
                                                              validate32.errors = [{ instancePath: instancePath + "/source/externals", schemaPath: "#/properties/source/properties/externals/uniqueItems", keyword: "uniqueItems", params: { i: i12, j: j5 } }];
                                                              return false;
                                                              break;
                                                            }
                                                            indices3[item3] = i12;
                                                          }
                                                        }
                                                      }
                                                    } else {
                                                      validate32.errors = [{ instancePath: instancePath + "/source/externals", schemaPath: "#/properties/source/properties/externals/type", keyword: "type", params: { type: "array" } }];
                                                      return false;
                                                    }
                                                  }
                                                  var valid23 = _errs94 === errors;
                                                } else {
                                                  var valid23 = true;
                                                }
                                              }
                                            }
                                          }
                                        }
                                      }
                                    }
                                  } else {
                                    validate32.errors = [{ instancePath: instancePath + "/source", schemaPath: "#/properties/source/type", keyword: "type", params: { type: "object" } }];
                                    return false;
                                  }
                                }
                                var valid0 = _errs68 === errors;
                              } else {
                                var valid0 = true;
                              }
                              if (valid0) {
                                if (data.input !== void 0 && func0.call(data, "input")) {
                                  const _errs98 = errors;
                                  if (!validate24(data.input, { instancePath: instancePath + "/input", parentData: data, parentDataProperty: "input", rootData })) {
                                    vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
                                    errors = vErrors.length;
                                  }
                                  var valid0 = _errs98 === errors;
                                } else {
                                  var valid0 = true;
                                }
                                if (valid0) {
                                  if (data.output !== void 0 && func0.call(data, "output")) {
                                    const _errs99 = errors;
                                    if (!validate24(data.output, { instancePath: instancePath + "/output", parentData: data, parentDataProperty: "output", rootData })) {
                                      vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
                                      errors = vErrors.length;
                                    }
                                    var valid0 = _errs99 === errors;
                                  } else {
                                    var valid0 = true;
                                  }
                                  if (valid0) {
                                    if (data.result !== void 0 && func0.call(data, "result")) {
                                      const _errs100 = errors;
                                      if (!validate27(data.result, { instancePath: instancePath + "/result", parentData: data, parentDataProperty: "result", rootData })) {
                                        vErrors = vErrors === null ? validate27.errors : vErrors.concat(validate27.errors);
                                        errors = vErrors.length;
                                      }
                                      var valid0 = _errs100 === errors;
                                    } else {
                                      var valid0 = true;
                                    }
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    } else {
      validate32.errors = [{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" } }];
      return false;
    }
  }
  validate32.errors = vErrors;
  return errors === 0;
}
export {
  header,
  tool
};
export const discriminators = {
  "validation": {
    "tag": "kind",
    "values": [
      "precompiled",
      "opaque"
    ]
  },
  "bound": {
    "tag": "kind",
    "values": [
      "bounded",
      "unbounded"
    ]
  },
  "requested": {
    "tag": "policy",
    "values": [
      "auto",
      "inline",
      "page",
      "compress",
      "exact_ccr",
      "artifact"
    ]
  }
};
export const definitions = {"hash":{"type":"string","pattern":"^sha256-[0-9a-f]{64}$"},"name":{"type":"string","pattern":"^[a-zA-Z][a-zA-Z0-9_-]{0,127}$"},"relativePath":{"type":"string","minLength":1,"pattern":"^(?![A-Za-z]:)(?!\\.\\.?(?:/|$))[^/\\\\]+(?:/(?!\\.\\.?(?:/|$))[^/\\\\]+)*$"},"sortedNames":{"type":"array","items":{"$ref":"#/definitions/name"},"uniqueItems":true},"egressEntry":{"type":"string","pattern":"^(\\*\\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[1-9][0-9]{0,4})?$"},"agent":{"type":"object","additionalProperties":false,"required":["module","export","description","tools"],"properties":{"module":{"$ref":"#/definitions/relativePath"},"export":{"type":"string","minLength":1},"description":{"type":["string","null"]},"tools":{"$ref":"#/definitions/sortedNames"}}},"tool":{"type":"object","additionalProperties":false,"required":["module","export","description","effect","speculable","retryable","timeoutMs","allowRepeat","sandbox","nestedTools","source","input","output","result"],"properties":{"module":{"$ref":"#/definitions/relativePath"},"export":{"type":"string","minLength":1},"description":{"type":"string","minLength":1},"effect":{"enum":["read","write","idempotent","external"]},"speculable":{"type":"boolean"},"retryable":{"type":"boolean"},"timeoutMs":{"type":"integer","minimum":1,"maximum":2147483647},"allowRepeat":{"type":"boolean"},"sandbox":{"type":"object","additionalProperties":false,"required":["mode","network","env","egress","secrets","fs","addons"],"properties":{"mode":{"enum":["required","none"]},"network":{"const":false},"env":{"type":"array","items":{"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"uniqueItems":true},"egress":{"type":"array","uniqueItems":true,"items":{"$ref":"#/definitions/egressEntry"}},"secrets":{"type":"object","propertyNames":{"pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"additionalProperties":{"type":"object","additionalProperties":false,"required":["format","header","hosts"],"properties":{"format":{"type":"string","pattern":"\\{\\}"},"header":{"type":"string","pattern":"^[a-z0-9!#$%&'*+.^_`|~-]+$"},"hosts":{"type":"array","minItems":1,"uniqueItems":true,"items":{"$ref":"#/definitions/egressEntry"}}}}},"fs":{"type":["object","null"],"additionalProperties":false,"required":["read","write"],"properties":{"read":{"$ref":"#/definitions/fsScopes"},"write":{"$ref":"#/definitions/fsScopes"}}},"addons":{"type":"boolean"}}},"nestedTools":{"$ref":"#/definitions/sortedNames"},"source":{"type":"object","additionalProperties":false,"required":["bundle","sha256","files","assets","externals"],"properties":{"bundle":{"$ref":"#/definitions/relativePath"},"sha256":{"$ref":"#/definitions/hash"},"files":{"type":"object","minProperties":1,"additionalProperties":{"$ref":"#/definitions/hash"}},"assets":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["path","sha256"],"properties":{"path":{"$ref":"#/definitions/relativePath"},"sha256":{"$ref":"#/definitions/hash"}}}},"externals":{"type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(\\.\\./)*([^./][^/]*/)*node_modules/(@[^/.][^/]*/)?[^/.][^/]*(/node_modules/(@[^/.][^/]*/)?[^/.][^/]*)*$"}}}},"input":{"$ref":"#/definitions/schemaSide"},"output":{"$ref":"#/definitions/schemaSide"},"result":{"$ref":"#/definitions/result"}}},"schemaSide":{"type":["object","null"],"additionalProperties":false,"required":["jsonSchema","sha256","validation"],"properties":{"jsonSchema":{"type":["object","null"]},"sha256":{"oneOf":[{"$ref":"#/definitions/hash"},{"type":"null"}]},"validation":{"type":"object","required":["kind"],"oneOf":[{"type":"object","additionalProperties":false,"required":["kind","module","sha256"],"properties":{"kind":{"const":"precompiled"},"module":{"$ref":"#/definitions/relativePath"},"sha256":{"$ref":"#/definitions/hash"}}},{"type":"object","additionalProperties":false,"required":["kind","vendor","semanticsSHA256"],"properties":{"kind":{"const":"opaque"},"vendor":{"type":"string","minLength":1},"semanticsSHA256":{"type":"string","pattern":"^[0-9a-f]{64}$"}}}],"discriminator":{"propertyName":"kind"}}}},"resultPlan":{"type":"object","additionalProperties":false,"required":["strategy","reason","bound","inlineUpToTokens","pageTokens","transform","recovery","tokenizer"],"properties":{"strategy":{"enum":["inline","page","compress","exact_ccr"]},"reason":{"type":"string","minLength":1},"bound":{"type":"object","required":["kind"],"oneOf":[{"type":"object","additionalProperties":false,"required":["kind","tokens"],"properties":{"kind":{"const":"bounded"},"tokens":{"type":"integer","minimum":0}}},{"type":"object","additionalProperties":false,"required":["kind","path","why"],"properties":{"kind":{"const":"unbounded"},"path":{"type":"string"},"why":{"type":"string","minLength":1}}}],"discriminator":{"propertyName":"kind"}},"inlineUpToTokens":{"type":["integer","null"],"minimum":1},"pageTokens":{"type":["integer","null"],"minimum":64},"transform":{"type":["object","null"],"additionalProperties":false,"required":["id","version","lossless","module","sha256"],"properties":{"id":{"type":"string","pattern":"^[a-z][a-z0-9-]*$"},"version":{"type":"integer","minimum":1},"lossless":{"type":"boolean"},"module":{"$ref":"#/definitions/relativePath"},"sha256":{"$ref":"#/definitions/hash"}}},"recovery":{"enum":["exact_ccr","none"]},"tokenizer":{"type":["object","null"],"additionalProperties":false,"required":["id","version"],"properties":{"id":{"type":"string","minLength":1},"version":{"type":"string","minLength":1}}}}},"result":{"type":"object","additionalProperties":false,"required":["requested","plan"],"properties":{"plan":{"$ref":"#/definitions/resultPlan"},"requested":{"type":"object","required":["policy"],"oneOf":[{"type":"object","additionalProperties":false,"required":["policy"],"properties":{"policy":{"enum":["auto","inline","page","compress","exact_ccr"]}}},{"type":"object","additionalProperties":false,"required":["policy","artifact"],"properties":{"policy":{"const":"artifact"},"artifact":{"type":"object","additionalProperties":false,"required":["strategy","maxInlineTokens","recovery"],"properties":{"strategy":{"enum":["page","compress","exact_ccr"]},"maxInlineTokens":{"type":"integer","minimum":1},"recovery":{"enum":["exact_ccr","none"]}}}}}],"discriminator":{"propertyName":"policy"}}}},"fsScopes":{"type":"array","items":{"type":"string","minLength":1,"maxLength":512,"pattern":"^(?:\\$[A-Z][A-Z0-9_]{0,63}(?:/[^/\\\\,\\u0000-\\u001f]+)*|\\.|[^/$~\\\\,\\u0000-\\u001f][^\\\\,\\u0000-\\u001f]*)$","not":{"pattern":"(?:^|/)\\.\\.(?:/|$)|/\\.(?:/|$)|^\\./|//|/$"}},"uniqueItems":true}};
export const headerSchema = {"type":"object","additionalProperties":false,"required":["lockfileVersion","integrity","buildDir","sdk","agents","externals","osLayerTools","toolHashes"],"properties":{"lockfileVersion":{"const":2},"integrity":{"$ref":"#/definitions/hash"},"buildDir":{"$ref":"#/definitions/relativePath"},"sdk":{"type":["object","null"],"additionalProperties":false,"required":["id","sha256","files","module"],"properties":{"id":{"type":"string","pattern":"^cave@\\S+$"},"sha256":{"$ref":"#/definitions/hash"},"files":{"type":"object","additionalProperties":{"$ref":"#/definitions/hash"}},"module":{"type":"object","additionalProperties":false,"required":["path","sha256"],"properties":{"path":{"$ref":"#/definitions/relativePath"},"sha256":{"$ref":"#/definitions/hash"}}}}},"agents":{"type":"object","propertyNames":{"$ref":"#/definitions/name"},"additionalProperties":{"$ref":"#/definitions/agent"}},"externals":{"type":"object","propertyNames":{"pattern":"^(\\.\\./)*([^./][^/]*/)*node_modules/(@[^/.][^/]*/)?[^/.][^/]*(/node_modules/(@[^/.][^/]*/)?[^/.][^/]*)*$"},"additionalProperties":{"type":"object","additionalProperties":false,"required":["name","version","integrity","optional"],"properties":{"name":{"type":"string","minLength":1},"version":{"type":"string","minLength":1},"integrity":{"type":"string","minLength":1},"optional":{"type":"boolean"}}}},"osLayerTools":{"$ref":"#/definitions/sortedNames"},"toolHashes":{"type":"object","propertyNames":{"$ref":"#/definitions/name"},"additionalProperties":{"$ref":"#/definitions/hash"}}}};
