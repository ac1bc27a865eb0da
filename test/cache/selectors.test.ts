import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fieldSelectorMatcher, labelSelectorMatcher, parseLabelSelector } from "../../src/cache/index.ts";
import { OperatorRuntimeError } from "../../src/errors.ts";

describe("label selectors in memory", () => {
  it("parses equality, set and existence requirements joined by commas", () => {
    assert.deepEqual(parseLabelSelector("app=web, tier != db,!canary,env in (a, b),team"), [
      { key: "app", op: "=", value: "web" },
      { key: "tier", op: "!=", value: "db" },
      { key: "canary", op: "!exists" },
      { key: "env", op: "in", values: ["a", "b"] },
      { key: "team", op: "exists" },
    ]);
    assert.deepEqual(parseLabelSelector(""), []);
    assert.deepEqual(parseLabelSelector("example.com/role==leader"), [{ key: "example.com/role", op: "=", value: "leader" }]);
  });

  it("matches like the API server: != and notin also match objects without the key", () => {
    const m = (sel: string, labels?: Record<string, string>) => labelSelectorMatcher(sel)(labels);
    assert.equal(m("app=web", { app: "web" }), true);
    assert.equal(m("app=web", { app: "db" }), false);
    assert.equal(m("app!=web", {}), true);
    assert.equal(m("app notin (web,db)", undefined), true);
    assert.equal(m("app in (web,db)", { app: "db" }), true);
    assert.equal(m("app,!canary", { app: "x", canary: "" }), false);
    assert.equal(m("replicas>2", { replicas: "3" }), true);
    assert.equal(m("replicas<2", { replicas: "x" }), false);
    assert.equal(m("", undefined), true);
  });

  it("rejects what it cannot parse with an error naming the part", () => {
    for (const bad of ["app=(web", "app=web,", "=web", "app in web", "a b"]) {
      assert.throws(() => parseLabelSelector(bad), (err: Error) => err instanceof OperatorRuntimeError && err.message.includes(`"${bad}"`), bad);
    }
  });
});

describe("field selectors in memory", () => {
  it("supports metadata.name and metadata.namespace with =, == and !=", () => {
    const obj = { metadata: { name: "a,b", namespace: "ns" } };
    assert.equal(fieldSelectorMatcher("metadata.name=a\\,b,metadata.namespace==ns")(obj), true);
    assert.equal(fieldSelectorMatcher("metadata.namespace!=ns")(obj), false);
    assert.equal(fieldSelectorMatcher("")(obj), true);
  });

  it("rejects other fields with the fix", () => {
    assert.throws(() => fieldSelectorMatcher("status.phase=Running"), /not supported by the cache.*Fix:/);
    assert.throws(() => fieldSelectorMatcher("metadata.name"), /cannot parse/);
  });
});
