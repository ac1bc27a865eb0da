import { test } from "node:test";
import assert from "node:assert/strict";
import { parseQuantity } from "../../src/util/quantity.ts";
import { parseQuantity as fromStorage } from "../../builders/storage.ts";

test("binary suffixes are powers of 1024", () => {
  assert.equal(parseQuantity("1Ki"), 1024);
  assert.equal(parseQuantity("10Gi"), 10 * 2 ** 30);
  assert.equal(parseQuantity("1.5Mi"), 1.5 * 2 ** 20);
  assert.equal(parseQuantity("2Ti"), 2 * 2 ** 40);
  assert.equal(parseQuantity("1Pi"), 2 ** 50);
  assert.equal(parseQuantity("1Ei"), 2 ** 60);
});

test("decimal suffixes are powers of 1000 and m is a thousandth", () => {
  assert.equal(parseQuantity("1k"), 1000);
  assert.equal(parseQuantity("500M"), 500e6);
  assert.equal(parseQuantity("2G"), 2e9);
  assert.equal(parseQuantity("1T"), 1e12);
  assert.equal(parseQuantity("1P"), 1e15);
  assert.equal(parseQuantity("1E"), 1e18);
  assert.equal(parseQuantity("250m"), 0.25);
});

test("plain numbers, decimals and exponent forms parse", () => {
  assert.equal(parseQuantity("100"), 100);
  assert.equal(parseQuantity("0.5"), 0.5);
  assert.equal(parseQuantity(".5"), 0.5);
  assert.equal(parseQuantity("1e3"), 1000);
  assert.equal(parseQuantity("5E-2"), 0.05);
  assert.equal(parseQuantity("+2"), 2);
  assert.equal(parseQuantity("-1Gi"), -(2 ** 30));
  assert.equal(parseQuantity(1024), 1024);
});

test("text that is not a quantity gives undefined", () => {
  for (const bad of ["", "Gi", "10 Gi", "10GB", "10gi", "1.2.3", "ten", "1e", "0x10", "10Ki2"]) {
    assert.equal(parseQuantity(bad), undefined, bad);
  }
  assert.equal(parseQuantity(Number.NaN), undefined);
});

test("storage.ts re-exports the same parser", () => {
  assert.equal(fromStorage, parseQuantity);
});
