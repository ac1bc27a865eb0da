import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { load } from "js-yaml";
import { yamlAliasProblem } from "../../src/testing/yaml-aliases.ts";

describe("yamlAliasProblem", () => {
  it("finds a billion-laughs bomb within its first few thousand expanded nodes", () => {
    const lines = [`l0: &l0 [${Array(10).fill("lol").join(",")}]`];
    for (let i = 1; i < 9; i++) lines.push(`l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(",")}]`);
    const why = yamlAliasProblem(load(lines.join("\n")));
    const m = /^yaml: document contains excessive aliasing \((\d+) nodes expanded, (\d+) of them from aliases\)$/.exec(why ?? "");
    assert.ok(m, `got ${why}`);
    assert.ok(Number(m[1]) < 10_000, `stopped counting at ${m[1]} nodes, not at the 10^9 of the whole expansion`);
  });

  it("finds an alias inside its own anchor, in sequences and mappings", () => {
    assert.equal(yamlAliasProblem(load("a: &a [1, *a]")), "yaml: an anchor's value contains an alias to itself");
    assert.equal(yamlAliasProblem(load("a: &a {b: {c: *a}}")), "yaml: an anchor's value contains an alias to itself");
  });

  it("accepts documents without aliases, with shared blocks, and with a shared block reused widely", () => {
    assert.equal(yamlAliasProblem(load("a: [1, 2, {b: c}]")), undefined);
    assert.equal(yamlAliasProblem(load("x: &x {a: 1}\ny: *x\nz: [*x, *x]")), undefined);
    const block = Array.from({ length: 20 }, (_, i) => `k${i}: ${i}`).join(", ");
    const uses = Array.from({ length: 50 }, (_, i) => `u${i}: *b`).join("\n");
    assert.equal(yamlAliasProblem(load(`b: &b {${block}}\n${uses}`)), undefined, "95 % from aliases is under the 99 % allowance");
  });

  it("refuses a shared block reused so widely that 99 % of the document comes from it", () => {
    const block = Array.from({ length: 200 }, (_, i) => `k${i}: ${i}`).join(", ");
    const uses = Array.from({ length: 200 }, (_, i) => `u${i}: *b`).join("\n");
    assert.match(yamlAliasProblem(load(`b: &b {${block}}\n${uses}`)) ?? "", /excessive aliasing/);
  });

  it("passes scalars and values without objects", () => {
    assert.equal(yamlAliasProblem(load("a: &s text\nb: *s")), undefined);
    assert.equal(yamlAliasProblem(42), undefined);
    assert.equal(yamlAliasProblem(null), undefined);
  });
});
