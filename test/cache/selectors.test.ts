import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fieldSelectorMatcher, InvalidSelectorError, labelSelectorMatcher, parseLabelSelector } from "../../src/cache/index.ts";
import { OperatorRuntimeError } from "../../src/errors.ts";

describe("label selectors in memory", () => {
  it("parses equality, set and existence requirements joined by commas, sorted by key", () => {
    assert.deepEqual(parseLabelSelector("app=web, tier != db,!canary,env in (b, a),team").requirements, [
      { key: "app", operator: "=", values: ["web"] },
      { key: "canary", operator: "!", values: [] },
      { key: "env", operator: "in", values: ["a", "b"] },
      { key: "team", operator: "exists", values: [] },
      { key: "tier", operator: "!=", values: ["db"] },
    ]);
    assert.deepEqual(parseLabelSelector("").requirements, []);
    assert.deepEqual(parseLabelSelector("example.com/role==leader").requirements, [{ key: "example.com/role", operator: "==", values: ["leader"] }]);
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

  it("rejects what it cannot parse with a typed error naming the selector", () => {
    for (const bad of ["app=(web", "app=web,", "=web", "app in web", "a b", "-app=web"]) {
      assert.throws(
        () => labelSelectorMatcher(bad),
        (err: Error) => err instanceof InvalidSelectorError && err instanceof OperatorRuntimeError && err.message.includes(`"${bad}"`),
        bad,
      );
    }
  });
});

describe("field selectors in memory", () => {
  it("supports metadata.name and metadata.namespace with =, == and !=", () => {
    const obj = { metadata: { name: "a,b", namespace: "ns" } };
    assert.equal(fieldSelectorMatcher("metadata.name=a\\,b,metadata.namespace==ns")(obj), true);
    assert.equal(fieldSelectorMatcher("metadata.namespace!=ns")(obj), false);
    assert.equal(fieldSelectorMatcher("metadata.namespace=")({ metadata: { name: "cluster-scoped" } }), true);
    assert.equal(fieldSelectorMatcher("")(obj), true);
  });

  it("rejects other fields with the fix, and bad syntax in the API server's words", () => {
    assert.throws(() => fieldSelectorMatcher("status.phase=Running"), (err: Error) => err instanceof InvalidSelectorError && /not supported by the cache.*Fix:/.test(err.message));
    assert.throws(() => fieldSelectorMatcher("metadata.name"), (err: Error) => err instanceof InvalidSelectorError && /can't understand 'metadata.name'/.test(err.message));
  });
});
