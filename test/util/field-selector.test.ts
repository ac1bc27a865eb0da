import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { escapeFieldValue, parseFieldSelector } from "../../src/util/field-selector.ts";
import { assertInvalidSelector } from "./assert-invalid-selector.ts";

const assertInvalid = (fn: () => unknown, problem: RegExp | string) => assertInvalidSelector("field", fn, problem);

describe("parseFieldSelector", () => {
  it("an empty selector, or one of only commas, selects everything", () => {
    for (const text of ["", ",", ",,"]) {
      const sel = parseFieldSelector(text);
      assert.equal(sel.isEmpty, true, text);
      assert.equal(sel.matches({}), true, text);
    }
  });

  it("=, == and != are parsed into requirements", () => {
    assert.deepEqual(parseFieldSelector("a=1,b==2,c!=3").requirements, [
      { field: "a", operator: "=", value: "1" },
      { field: "b", operator: "==", value: "2" },
      { field: "c", operator: "!=", value: "3" },
    ]);
  });

  it("= and == select equal values, != selects different ones", () => {
    assert.equal(parseFieldSelector("a=1").matches({ a: "1" }), true);
    assert.equal(parseFieldSelector("a==1").matches({ a: "1" }), true);
    assert.equal(parseFieldSelector("a=1").matches({ a: "2" }), false);
    assert.equal(parseFieldSelector("a!=1").matches({ a: "2" }), true);
    assert.equal(parseFieldSelector("a!=1").matches({ a: "1" }), false);
  });

  it("a missing field compares as the empty string", () => {
    assert.equal(parseFieldSelector("a=").matches({}), true);
    assert.equal(parseFieldSelector("a!=").matches({}), false);
    assert.equal(parseFieldSelector("a!=x").matches({}), true);
    assert.equal(parseFieldSelector("a=x").matches({}), false);
  });

  it("commas AND the terms and empty terms are skipped", () => {
    const sel = parseFieldSelector("a=1,,b!=2,");
    assert.equal(sel.requirements.length, 2);
    assert.equal(sel.matches({ a: "1", b: "3" }), true);
    assert.equal(sel.matches({ a: "1", b: "2" }), false);
  });

  it("escaped commas, equals signs and backslashes are part of the value", () => {
    const sel = parseFieldSelector(String.raw`a=x\,y\=z\\w,b=2`);
    assert.deepEqual(sel.requirements[0], { field: "a", operator: "=", value: String.raw`x,y=z\w` });
    assert.equal(sel.matches({ a: String.raw`x,y=z\w`, b: "2" }), true);
    assert.equal(sel.toString(), String.raw`a=x\,y\=z\\w,b=2`);
    assert.equal(escapeFieldValue(String.raw`a,b=c\d`), String.raw`a\,b\=c\\d`);
  });

  it("the first operator splits the term, so != wins over = and a value may start with !", () => {
    assert.deepEqual(parseFieldSelector("a!=b").requirements[0], { field: "a", operator: "!=", value: "b" });
    assert.deepEqual(parseFieldSelector("a=!b").requirements[0], { field: "a", operator: "=", value: "!b" });
  });

  it("a term without an operator is refused", () => {
    assertInvalid(() => parseFieldSelector("a=1,b"), "invalid selector: 'a=1,b'; can't understand 'b'");
    assertInvalid(() => parseFieldSelector("metadata.name"), /can't understand 'metadata.name'/);
  });

  it("an unknown or dangling escape is refused", () => {
    assertInvalid(() => parseFieldSelector(String.raw`a=b\n`), String.raw`invalid field selector: invalid escape sequence: \n`);
    assertInvalid(() => parseFieldSelector("a=b\\"), "invalid field selector: invalid escape sequence: \\");
  });

  it("an unescaped = in a value is refused", () => {
    assertInvalid(() => parseFieldSelector("a=b=c"), "invalid field selector: unescaped character in value: =");
    assertInvalid(() => parseFieldSelector("a==b==c"), /unescaped character in value: =/);
  });
});
