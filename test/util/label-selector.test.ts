import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  labelKeyProblems,
  labelSelectorFromObject,
  labelSelectorObjectToString,
  labelValueProblems,
  matchLabelSelectorObject,
  parseLabelSelector,
} from "../../src/util/label-selector.ts";
import { assertInvalidSelector } from "./assert-invalid-selector.ts";

const assertInvalid = (fn: () => unknown, problem: RegExp | string) => assertInvalidSelector("label", fn, problem);

const select = (text: string, labels: Record<string, string> | undefined) => parseLabelSelector(text).matches(labels);

describe("parseLabelSelector", () => {
  it("an empty or blank selector selects everything, including objects without labels", () => {
    for (const text of ["", "   ", "\t\n"]) {
      const sel = parseLabelSelector(text);
      assert.equal(sel.isEmpty, true);
      assert.deepEqual(sel.requirements, []);
      assert.equal(sel.matches(undefined), true);
      assert.equal(sel.matches({ a: "b" }), true);
      assert.equal(sel.toString(), "");
    }
  });

  it("k=v and k==v select objects whose label has exactly that value", () => {
    for (const text of ["app=web", "app==web", " app = web "]) {
      assert.equal(select(text, { app: "web" }), true, text);
      assert.equal(select(text, { app: "db" }), false, text);
      assert.equal(select(text, {}), false, text);
      assert.equal(select(text, undefined), false, text);
    }
    assert.deepEqual(parseLabelSelector("app==web").requirements, [{ key: "app", operator: "==", values: ["web"] }]);
  });

  it("k= with no value selects objects whose label is the empty string", () => {
    assert.equal(select("app=", { app: "" }), true);
    assert.equal(select("app=", { app: "x" }), false);
    assert.equal(select("app=,b", { app: "", b: "1" }), true);
  });

  it("k!=v also selects objects without the key", () => {
    assert.equal(select("env!=prod", { env: "dev" }), true);
    assert.equal(select("env!=prod", {}), true);
    assert.equal(select("env!=prod", undefined), true);
    assert.equal(select("env!=prod", { env: "prod" }), false);
  });

  it("k in (a,b) selects objects whose label is one of the values", () => {
    const sel = parseLabelSelector("tier in (front, back)");
    assert.deepEqual(sel.requirements, [{ key: "tier", operator: "in", values: ["back", "front"] }]);
    assert.equal(sel.matches({ tier: "front" }), true);
    assert.equal(sel.matches({ tier: "back" }), true);
    assert.equal(sel.matches({ tier: "middle" }), false);
    assert.equal(sel.matches({}), false);
  });

  it("k notin (a,b) selects other values and objects without the key", () => {
    const sel = parseLabelSelector("tier notin (front,back)");
    assert.equal(sel.matches({ tier: "middle" }), true);
    assert.equal(sel.matches({}), true);
    assert.equal(sel.matches({ tier: "front" }), false);
  });

  it("empty slots inside parentheses stand for the empty value", () => {
    assert.deepEqual(parseLabelSelector("k in ()").requirements[0]!.values, [""]);
    assert.deepEqual(parseLabelSelector("k in (,a)").requirements[0]!.values, ["", "a"]);
    assert.deepEqual(parseLabelSelector("k in (a,)").requirements[0]!.values, ["", "a"]);
    assert.deepEqual(parseLabelSelector("k in (a,,b)").requirements[0]!.values, ["", "a", "b"]);
    assert.equal(select("k in ()", { k: "" }), true);
    assert.equal(select("k in ()", {}), false);
  });

  it("in and notin are ordinary words as keys and values", () => {
    assert.equal(select("in=notin", { in: "notin" }), true);
    assert.equal(select("k in (in,notin)", { k: "notin" }), true);
  });

  it("a bare key requires the key and !key forbids it", () => {
    assert.equal(select("app", { app: "" }), true);
    assert.equal(select("app", {}), false);
    assert.equal(select("!app", {}), true);
    assert.equal(select("! app", { app: "x" }), false);
    assert.deepEqual(parseLabelSelector("!app").requirements, [{ key: "app", operator: "!", values: [] }]);
  });

  it("k>n and k<n compare integers and never select non-integer or missing labels", () => {
    assert.equal(select("size>5", { size: "6" }), true);
    assert.equal(select("size>5", { size: "5" }), false);
    assert.equal(select("size<5", { size: "4" }), true);
    assert.equal(select("size<5", { size: "10" }), false);
    assert.equal(select("size>5", { size: "big" }), false);
    assert.equal(select("size>5", {}), false);
    assert.equal(select("size<5", {}), false);
    assert.equal(select("size>9223372036854775806", { size: "9223372036854775807" }), true);
    assert.equal(select("size>1", { size: "99999999999999999999" }), false);
  });

  it("commas AND the requirements together", () => {
    const text = "app=web, env!=prod, tier in (front), !legacy, size>2";
    assert.equal(select(text, { app: "web", tier: "front", size: "3" }), true);
    assert.equal(select(text, { app: "web", tier: "front", size: "3", legacy: "y" }), false);
    assert.equal(select(text, { app: "web", tier: "front", size: "1" }), false);
  });

  it("requirements come out sorted by key and print in canonical form", () => {
    const sel = parseLabelSelector("z in (b,a,b),a==1,!m,k,n!=2,g>3,h<4,b=");
    assert.deepEqual(sel.requirements.map((r) => r.key), ["a", "b", "g", "h", "k", "m", "n", "z"]);
    assert.equal(sel.toString(), "a==1,b=,g>3,h<4,k,!m,n!=2,z in (a,b)");
  });

  it("prefixed keys with a DNS subdomain are accepted", () => {
    assert.equal(select("app.kubernetes.io/name=web", { "app.kubernetes.io/name": "web" }), true);
  });

  it("bad syntax is refused in the apiserver's wording", () => {
    assertInvalid(() => parseLabelSelector("a=b,"), "found '', expected: identifier after ','");
    assertInvalid(() => parseLabelSelector("a=b,,c"), "found ',', expected: identifier after ','");
    assertInvalid(() => parseLabelSelector(",a"), "found ',', expected: !, identifier, or 'end of string'");
    assertInvalid(() => parseLabelSelector("a=b c"), "found 'c', expected: ',' or 'end of string'");
    assertInvalid(() => parseLabelSelector("!a=b"), "found '=', expected: ',' or 'end of string'");
    assertInvalid(() => parseLabelSelector("!"), "unable to parse requirement: found '', expected: identifier");
    assertInvalid(() => parseLabelSelector("a b"), "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  });

  it("malformed value lists are refused", () => {
    assertInvalid(() => parseLabelSelector("a in b"), "unable to parse requirement: found 'b' expected: '('");
    assertInvalid(() => parseLabelSelector("a in ("), "unable to parse requirement: found '', expected: ',', ')' or identifier");
    assertInvalid(() => parseLabelSelector("a in (b"), "unable to parse requirement: found '', expected: ',' or ')'");
    assertInvalid(() => parseLabelSelector("a in (b c)"), "unable to parse requirement: found 'c', expected: ',' or ')'");
    assertInvalid(() => parseLabelSelector("a in (b,=)"), "unable to parse requirement: found '=', expected: ',', or identifier");
    assertInvalid(() => parseLabelSelector("a notin"), "unable to parse requirement: found '' expected: '('");
    assertInvalid(() => parseLabelSelector("a=(b)"), "unable to parse requirement: found '(', expected: identifier");
  });

  it("non-integer bounds for > and < are refused", () => {
    assertInvalid(
      () => parseLabelSelector("a>b"),
      `unable to parse requirement: values[0]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    assertInvalid(() => parseLabelSelector("a<"), /values\[0\]: Invalid value: "": .*must be an integer/);
    assertInvalid(() => parseLabelSelector("a<1.5"), /must be an integer/);
  });

  it("invalid label keys are refused", () => {
    assertInvalid(() => parseLabelSelector("-a=b"), /^unable to parse requirement: Invalid value: "-a": name part must consist of/);
    assertInvalid(() => parseLabelSelector(`${"k".repeat(64)}=b`), /name part must be no more than 63 characters/);
    assertInvalid(() => parseLabelSelector("/a"), /prefix part must be non-empty/);
    assertInvalid(() => parseLabelSelector("Example.com/a"), /prefix part a lowercase RFC 1123 subdomain/);
    assertInvalid(() => parseLabelSelector(`${"p".repeat(254)}/a`), /prefix part must be no more than 253 characters/);
    assertInvalid(() => parseLabelSelector("a/b/c"), /a qualified name must consist of/);
    assertInvalid(() => parseLabelSelector("example.com/"), /name part must be non-empty/);
  });

  it("invalid label values are refused", () => {
    assertInvalid(() => parseLabelSelector("a=-b"), /^unable to parse requirement: values\[0\]\[a\]: Invalid value: "-b": a valid label must be/);
    assertInvalid(() => parseLabelSelector(`a=${"v".repeat(64)}`), /must be no more than 63 characters/);
    assertInvalid(() => parseLabelSelector("a in (ok,b@d)"), /Invalid value: "b@d"/);
  });
});

describe("label key and value checks", () => {
  it("accept the documented shapes", () => {
    assert.deepEqual(labelKeyProblems("a"), []);
    assert.deepEqual(labelKeyProblems("A_b.c-D"), []);
    assert.deepEqual(labelKeyProblems(`${"a".repeat(253)}/${"b".repeat(63)}`), []);
    assert.deepEqual(labelValueProblems(""), []);
    assert.deepEqual(labelValueProblems("v1.2_3-x"), []);
  });

  it("report every problem found", () => {
    assert.equal(labelKeyProblems("").length, 2);
    assert.equal(labelValueProblems(`-${"v".repeat(63)}`).length, 2);
  });
});

describe("metav1.LabelSelector objects", () => {
  it("matchLabels require each label to be equal", () => {
    const sel = { matchLabels: { app: "web", tier: "front" } };
    assert.equal(matchLabelSelectorObject(sel, { app: "web", tier: "front", x: "y" }), true);
    assert.equal(matchLabelSelectorObject(sel, { app: "web" }), false);
  });

  it("matchExpressions support In, NotIn, Exists and DoesNotExist", () => {
    const sel = {
      matchExpressions: [
        { key: "tier", operator: "In", values: ["front", "back"] },
        { key: "env", operator: "NotIn", values: ["prod"] },
        { key: "app", operator: "Exists" },
        { key: "legacy", operator: "DoesNotExist" },
      ],
    };
    assert.equal(matchLabelSelectorObject(sel, { tier: "front", app: "x" }), true);
    assert.equal(matchLabelSelectorObject(sel, { tier: "front", app: "x", env: "dev" }), true);
    assert.equal(matchLabelSelectorObject(sel, { tier: "front", app: "x", env: "prod" }), false);
    assert.equal(matchLabelSelectorObject(sel, { tier: "middle", app: "x" }), false);
    assert.equal(matchLabelSelectorObject(sel, { tier: "front" }), false);
    assert.equal(matchLabelSelectorObject(sel, { tier: "front", app: "x", legacy: "" }), false);
  });

  it("an empty selector matches everything and a missing one matches nothing", () => {
    assert.equal(matchLabelSelectorObject({}, undefined), true);
    assert.equal(matchLabelSelectorObject({ matchLabels: {}, matchExpressions: [] }, { a: "b" }), true);
    assert.equal(labelSelectorFromObject({}).isEmpty, true);
    assert.equal(matchLabelSelectorObject(undefined, { a: "b" }), false);
    assert.equal(matchLabelSelectorObject(null, {}), false);
    assert.equal(labelSelectorFromObject(null).isEmpty, false);
  });

  it("convert to the sorted string form used in a Scale's status.selector", () => {
    const text = labelSelectorObjectToString({
      matchLabels: { tier: "front", app: "web" },
      matchExpressions: [
        { key: "env", operator: "NotIn", values: ["prod", "dev"] },
        { key: "zone", operator: "In", values: ["a"] },
        { key: "gpu", operator: "Exists" },
        { key: "legacy", operator: "DoesNotExist" },
      ],
    });
    assert.equal(text, "app=web,env notin (dev,prod),gpu,!legacy,tier=front,zone in (a)");
    assert.equal(parseLabelSelector(text).toString(), text);
    assert.equal(labelSelectorObjectToString({}), "");
    assert.equal(labelSelectorObjectToString(undefined), "");
  });

  it("unknown operators and invalid requirements are refused", () => {
    assertInvalid(
      () => matchLabelSelectorObject({ matchExpressions: [{ key: "a", operator: "Gt", values: ["1"] }] }, {}),
      `"Gt" is not a valid label selector operator`,
    );
    assertInvalid(
      () => labelSelectorObjectToString({ matchExpressions: [{ key: "a", operator: "In", values: [] }] }),
      `values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`,
    );
    assertInvalid(
      () => labelSelectorFromObject({ matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] }),
      /values set must be empty for exists and does not exist/,
    );
    assertInvalid(() => labelSelectorFromObject({ matchLabels: { "bad key": "v" } }), /^key: Invalid value: "bad key"/);
    assertInvalid(() => labelSelectorFromObject({ matchLabels: { k: "bad value" } }), /^values\[0\]\[k\]: Invalid value/);
  });
});
