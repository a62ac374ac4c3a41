import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { hashJson } from "../src/contract/hash.js";
import { REPO_ROOT } from "./support/golden.js";

const schema = JSON.parse(readFileSync(join(REPO_ROOT, "docs", "cave.lock.schema.json"), "utf8"));
const validate = new Ajv({ strict: true, allErrors: true }).compile(schema);

const locks = [
  join(REPO_ROOT, "cave.lock.example"),
  ...readdirSync(join(REPO_ROOT, "fixtures")).map((name) => join(REPO_ROOT, "fixtures", name, "expected.lock")),
].filter((file) => existsSync(file));

describe("every produced lock", () => {
  it("there are locks to check", () => expect(locks.length).toBeGreaterThan(1));

  it.each(locks.map((file) => [file.slice(REPO_ROOT.length + 1), file]))("%s validates against docs/cave.lock.schema.json and its integrity", (_, file) => {
    const lock = JSON.parse(readFileSync(file, "utf8"));
    const valid = validate(lock);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(valid).toBe(true);
    const { integrity, ...body } = lock;
    expect(integrity).toBe(hashJson(body));
  });

  it("the schema rejects a lock with an unknown key or a bad hash", () => {
    const lock = JSON.parse(readFileSync(locks[0]!, "utf8"));
    expect(validate({ ...lock, extra: 1 })).toBe(false);
    expect(validate({ ...lock, integrity: "sha256-XYZ" })).toBe(false);
  });
});
