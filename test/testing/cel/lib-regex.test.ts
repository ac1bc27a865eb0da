/**
 * The regex library's matcher (src/testing/cel/lib-regex.ts): match positions as Go's `regexp`
 * (RE2) finds them — leftmost-first, Perl's preference order, RE2's treatment of empty loop
 * iterations and of `(?U)` — and in linear time, so the patterns that make a backtracking engine
 * exponential answer at once. The Go cases are `regexp`'s own find tests (find_test.go), with
 * their byte offsets written as the matched strings.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isCelError, isCelList, run } from "@bufbuild/cel";
import { findAll } from "../../../src/testing/cel/lib-regex.ts";
import { KUBERNETES_CEL_FUNCS } from "../../../src/testing/cel/library.ts";

type Case = readonly [pattern: string, text: string, n: number, expected: readonly string[]];

const GO_FIND_TESTS: readonly Case[] = [
  ["", "", -1, [""]],
  ["^abcdefg", "abcdefg", -1, ["abcdefg"]],
  ["a+", "baaab", -1, ["aaa"]],
  ["a", "bababaab", -1, ["a", "a", "a", "a"]],
  ["a", "bababaab", 0, []],
  ["a", "bababaab", 2, ["a", "a"]],
  ["a", "bababaab", 5, ["a", "a", "a", "a"]],
  ["abcd..", "abcdef", -1, ["abcdef"]],
  ["x", "y", -1, []],
  [".*", "abcdef", -1, ["abcdef"]],
  ["^", "abcde", -1, [""]],
  ["$", "abcde", -1, [""]],
  ["^abcd$", "abcde", -1, []],
  ["a*", "baaab", -1, ["", "aaa", ""]],
  ["[^a-z]+", "ab1234cd", -1, ["1234"]],
  ["[a\\-\\]z]+", "az]-bcz", -1, ["az]-", "z"]],
  ["[^\\n]+", "abcd\n", -1, ["abcd"]],
  ["[日本語]+", "日本語日本語", -1, ["日本語日本語"]],
  ["日本語+", "日本語語語語", -1, ["日本語語語語"]],
  ["(.)(.)", "日a", -1, ["日a"]],
  ["((a|b|c)*(d))", "abcd", -1, ["abcd"]],
  ["a*(|(b))c*", "aacc", -1, ["aacc"]],
  ["(.*).*", "ab", -1, ["ab"]],
  ["/$", "/abc/", -1, ["/"]],
  ["/$", "/abc", -1, []],
  [".(.)", "abcd", -1, ["ab", "cd"]],
  ["ab*", "abbaab", -1, ["abb", "a", "ab"]],
  ["ab$", "cab", -1, ["ab"]],
  ["axxb$", "axxcb", -1, []],
  ["da(.)a$", "daXY data", -1, ["data"]],
  ["zx+", "zzx", -1, ["zx"]],
  ["(aa)*$", "a", -1, [""]],
  ["(?:.|(?:.a))", "", -1, []],
  ["(?:A(?:A|a))", "Aa", -1, ["Aa"]],
  ["(?:A|(?:A|a))", "a", -1, ["a"]],
  ["(a){0}", "", -1, [""]],
  ["(?-s)(?:(?:^).)", "\n", -1, []],
  ["(?s)(?:(?:^).)", "\n", -1, ["\n"]],
  ["\\b", "x y", -1, ["", "", "", ""]],
  ["\\b", "xx yy", -1, ["", "", "", ""]],
  ["\\B", "x", -1, []],
  ["\\B", "xx yy", -1, ["", ""]],
  ["(|a)*", "aa", -1, ["", "", ""]],
  ["0A|0[aA]", "0a", -1, ["0a"]],
  ["[a-c]*", "日", -1, ["", ""]],
  ["[^日]", "abc日def", -1, ["a", "b", "c", "d", "e", "f"]],
  ["[^\\S\\s]", "abcd", -1, []],
  ["(?i)\\W", "k", -1, []],
  ["\\`", "`", -1, ["`"]],
];

/** Where RE2 and a backtracking (JavaScript / Perl) engine answer differently: RE2's answer. */
const RE2_SEMANTICS: readonly Case[] = [
  ["a|ab", "ab", -1, ["a"]],
  ["(a|ab)(c|bcd)(d*)", "abcd", -1, ["abcd"]],
  ["(?U)a+", "aaab", -1, ["a", "a", "a"]],
  ["(?U)a+?", "baaac", -1, ["aaa"]],
  ["(?U)(?-U:a+)b*", "aabb", -1, ["aa"]],
  ["(|a)+", "ab", -1, ["", "", ""]],
  ["(?i)k", "\u212a k K", -1, ["\u212a", "k", "K"]],
  ["\\pL+?", "λx", -1, ["λ", "x"]],
  ["[😀-😂]+|.", "😀😁a", -1, ["😀😁", "a"]],
  ["(?m)^\\w+$", "ab\ncd\n", -1, ["ab", "cd"]],
  ["\\Aa|b\\z", "aab", -1, ["a", "b"]],
];

function table(name: string, cases: readonly Case[]): void {
  describe(name, () => {
    for (const [pattern, text, n, expected] of cases) {
      it(`findAll(${JSON.stringify(text)}, ${JSON.stringify(pattern)}, ${n})`, () => {
        assert.deepEqual(findAll(text, pattern, n), expected);
      });
    }
  });
}

table("findAll answers Go's regexp find tests", GO_FIND_TESTS);
table("findAll follows RE2, not a backtracking engine", RE2_SEMANTICS);

describe("patterns that backtrack exponentially in JavaScript run in linear time", () => {
  const stuck = `${"a".repeat(64)}!`;
  for (const pattern of ["^(a+)+$", "(a+)+b", "(a*)*b", "^(a|a?)+$", "(?:a+a+)+$"]) {
    it(`finds no match of ${pattern} in 64 a's and a '!'`, () => {
      assert.deepEqual(findAll(stuck, pattern, -1), []);
    });
  }

  it("still finds the match when there is one", () => {
    assert.deepEqual(findAll("a".repeat(64), "^(a+)+$", -1), ["a".repeat(64)]);
    assert.deepEqual(findAll(`${"a".repeat(64)}b`, "(a+)+b", -1), [`${"a".repeat(64)}b`]);
  });

  it("through CEL: find, findAll and matches (which @bufbuild/cel runs on RE2)", () => {
    const funcs = [...KUBERNETES_CEL_FUNCS];
    const s = stuck;
    assert.equal(run("s.find('^(a+)+$')", { s }, { funcs }), "");
    const all = run("s.findAll('(a+)+b')", { s }, { funcs });
    assert.ok(isCelList(all) && all.size === 0, String(all));
    assert.equal(run("s.matches('^(a+)+$')", { s }, { funcs }), false);
    assert.equal(run("s.find('^(a+)+!$')", { s }, { funcs }), s);
  });
});

describe("invalid patterns", () => {
  it("fail with Go's parse error, through CEL too", () => {
    assert.throws(() => findAll("abc", "a(", -1), { message: "error parsing regexp: missing closing ): `a(`" });
    assert.throws(() => findAll("abc", "a**", -1), { message: "error parsing regexp: invalid nested repetition operator: `**`" });
    const r = run("'abc'.find('[a')", {}, { funcs: [...KUBERNETES_CEL_FUNCS] });
    assert.ok(isCelError(r) && /^error parsing regexp: missing closing \]: `\[a`$/.test(r.message), String(r));
  });
});
