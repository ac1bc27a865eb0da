import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { canonicalJson, hashObject, shortHash } from "../../src/hash/index.ts";

/** A fixed input whose canonical form and hash are pinned below (checked with `sha256sum`). */
const fixed = {
  kind: "ConfigMap",
  apiVersion: "v1",
  metadata: { name: "app-config", labels: { tier: "web", app: "demo" } },
  data: { "app.properties": "level=info\nport=8080\n", "ünïcode": "✓ 😀" },
  list: [3, 1.5, -0, true, null, "x"],
};
const fixedJson =
  '{"apiVersion":"v1","data":{"app.properties":"level=info\\nport=8080\\n","ünïcode":"✓ 😀"},"kind":"ConfigMap",' +
  '"list":[3,1.5,0,true,null,"x"],"metadata":{"labels":{"app":"demo","tier":"web"},"name":"app-config"}}';
const fixedHash = "b3590ceb1d0f4aa755e80e9d325f734e16951ac0dfbb7111a74753867db2aafd";

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, 1, { z: 0, y: 1 }], c: "x" } }), '{"a":{"c":"x","d":[2,1,{"y":1,"z":0}]},"b":1}');
  });

  it("writes a fixed input exactly as pinned", () => {
    assert.equal(canonicalJson(fixed), fixedJson);
  });

  it("drops undefined members and writes undefined array items as null", () => {
    assert.equal(canonicalJson({ a: 1, b: undefined, c: [undefined, 2] }), '{"a":1,"c":[null,2]}');
  });

  it("orders array-index-like keys by code units, like every other key", () => {
    assert.equal(canonicalJson({ b: 1, 10: "ten", 2: "two", "1.conf": 0 }), '{"1.conf":0,"10":"ten","2":"two","b":1}');
  });

  it("keeps a __proto__ key as an ordinary member", () => {
    const parsed: unknown = JSON.parse('{"z":1,"__proto__":{"x":1}}');
    assert.equal(canonicalJson(parsed), '{"__proto__":{"x":1},"z":1}');
  });

  it("serialises objects with toJSON through it, as JSON.stringify does", () => {
    assert.equal(canonicalJson({ at: new Date(0), n: 1 }), '{"at":"1970-01-01T00:00:00.000Z","n":1}');
  });

  it("gives the same output on the fast and the slow path", () => {
    const plain = { b: [1, { d: "x", c: null }], a: "2020-01-01T00:00:00.000Z" };
    const withDate = { b: [1, { d: "x", c: null }], a: new Date("2020-01-01T00:00:00.000Z") };
    assert.equal(canonicalJson(withDate), canonicalJson(plain));
  });

  it("handles nesting deeper than the fast path allows", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 300; i++) deep = { [`k${i % 3}`]: deep, a: i };
    assert.equal(canonicalJson(deep), JSON.stringify(JSON.parse(canonicalJson(deep))));
    assert.ok(canonicalJson(deep).startsWith('{"a":299,"k2":{"a":298,'));
  });

  it("rejects values JSON cannot represent, naming where they are", () => {
    assert.throws(() => canonicalJson(undefined), TypeError);
    assert.throws(() => canonicalJson({ a: [1, { f: () => 1 }] }), /at \$\.a\[1\]\.f: a function/);
    assert.throws(() => canonicalJson({ n: Number.NaN }), /at \$\.n: NaN is not a JSON number/);
    assert.throws(() => canonicalJson({ big: 1n }), /a bigint/);
    assert.throws(() => canonicalJson({ m: new Map() }), /a Map/);
    assert.throws(() => canonicalJson({ s: Symbol("s") }), /a symbol/);
  });

  it("rejects cycles but accepts an object referenced twice", () => {
    const cyclic: Record<string, unknown> = { a: {} };
    (cyclic.a as Record<string, unknown>).self = cyclic;
    assert.throws(() => canonicalJson(cyclic), /at \$\.a\.self: a cycle/);
    const labels = { app: "web" };
    assert.equal(canonicalJson({ x: labels, y: labels }), '{"x":{"app":"web"},"y":{"app":"web"}}');
  });
});

describe("hashObject", () => {
  it("is the SHA-256 hex of the canonical JSON, pinned for a fixed input", () => {
    assert.equal(hashObject(fixed), fixedHash);
  });

  it("is equal for inputs that differ only in key order at any depth", () => {
    const a = { metadata: { name: "x", labels: { a: "1", b: "2" } }, spec: { replicas: 2, ports: [{ port: 80, name: "http" }] } };
    const b = { spec: { ports: [{ name: "http", port: 80 }], replicas: 2 }, metadata: { labels: { b: "2", a: "1" }, name: "x" } };
    assert.equal(hashObject(a), hashObject(b));
  });

  it("is equal whether a member is undefined or absent", () => {
    assert.equal(hashObject({ a: 1, b: undefined }), hashObject({ a: 1 }));
  });

  it("changes when any value changes, including array order and types", () => {
    const base = { a: { b: [1, 2] }, c: "1" };
    const seen = new Set([hashObject(base)]);
    for (const changed of [{ a: { b: [2, 1] }, c: "1" }, { a: { b: [1, 2] }, c: 1 }, { a: { b: [1, 2, 3] }, c: "1" }, { a: { b: [1, 2] }, c: "2" }, { a: { b: [1, 2] } }]) {
      const h = hashObject(changed);
      assert.ok(!seen.has(h), `hash of ${JSON.stringify(changed)} collides`);
      seen.add(h);
    }
  });

  it("is 64 lowercase hex characters", () => {
    assert.match(hashObject({}), /^[0-9a-f]{64}$/);
  });
});

describe("shortHash", () => {
  it("is a prefix of hashObject, 10 characters by default", () => {
    assert.equal(shortHash(fixed), fixedHash.slice(0, 10));
    assert.equal(shortHash(fixed, 16), fixedHash.slice(0, 16));
    assert.equal(shortHash(fixed, 64), fixedHash);
  });

  it("rejects lengths outside 1–64", () => {
    for (const length of [0, 65, 1.5, -1]) assert.throws(() => shortHash(fixed, length), RangeError);
  });
});
