import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { appliedKinds, appliedKindsKey, forgetAppliedKind, rememberAppliedKinds } from "../../src/builder/applied-kinds.ts";

const CM = { apiVersion: "v1", kind: "ConfigMap" };
const DEP = { apiVersion: "apps/v1", kind: "Deployment" };
const CARD = { apiVersion: "example.com/v1", kind: "Card" };

describe("the kinds remembered per owner", () => {
  it("accumulates kinds in first-applied order, per owner, field manager and component", () => {
    const key = appliedKindsKey("uid-ak-1", "fm", undefined);
    assert.deepEqual(rememberAppliedKinds(key, [CM, DEP]), [CM, DEP]);
    assert.deepEqual(rememberAppliedKinds(key, [CARD, CM]), [CM, DEP, CARD]);
    assert.deepEqual(appliedKinds(key), [CM, DEP, CARD]);
    assert.deepEqual(appliedKinds(appliedKindsKey("uid-ak-1", "fm", "extra")), []);
    assert.deepEqual(appliedKinds(appliedKindsKey("uid-ak-1", "other", undefined)), []);
    forgetAppliedKind(key, DEP);
    assert.deepEqual(appliedKinds(key), [CM, CARD]);
    forgetAppliedKind(appliedKindsKey("uid-never", "fm", undefined), DEP); // nothing remembered: no-op
    assert.deepEqual(appliedKinds(appliedKindsKey("uid-never", "fm", undefined)), []);
  });

  it("owners with the same kinds share one list of the same kind objects (memory does not grow per kind per owner)", () => {
    const a = appliedKindsKey("uid-ak-a", "fm", undefined);
    const b = appliedKindsKey("uid-ak-b", "fm", undefined);
    rememberAppliedKinds(a, [{ ...CM }, { ...DEP }]);
    rememberAppliedKinds(b, [{ ...CM }, { ...DEP }]);
    const [ka, kb] = [appliedKinds(a), appliedKinds(b)];
    assert.deepEqual(ka, [CM, DEP]);
    assert.ok(ka.every((k, i) => k === kb[i]), "the same KindRef objects");
    ka.push(CARD); // the answer is the caller's copy
    assert.deepEqual(appliedKinds(a), [CM, DEP]);
  });
});
