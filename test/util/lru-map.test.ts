import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { LruMap } from "../../src/util/lru-map.ts";

describe("LruMap", () => {
  it("forgets the least recently used entry beyond max; get and set refresh, peek, has and update do not", () => {
    const m = new LruMap<string, number>(3);
    m.set("a", 1).set("b", 2).set("c", 3);
    assert.equal(m.get("a"), 1); // a is now the most recent: b is the oldest
    assert.equal(m.peek("b"), 2);
    assert.equal(m.has("b"), true);
    assert.equal(m.update("b", 20), true);
    m.set("d", 4);
    assert.equal(m.has("b"), false, "b was the least recently used");
    assert.deepEqual(["a", "c", "d"].map((k) => m.peek(k)), [1, 3, 4]);
    assert.equal(m.size, 3);
    m.set("c", 30); // refreshes c: a is now the oldest
    m.set("e", 5);
    assert.equal(m.has("a"), false);
    assert.equal(m.update("zz", 1), false, "update never adds");
    assert.equal(m.delete("c"), true);
    assert.equal(m.size, 2);
  });

  it("rejects a max that is not a positive integer", () => {
    for (const max of [0, -1, 1.5, Number.NaN]) assert.throws(() => new LruMap(max), RangeError);
  });
});
