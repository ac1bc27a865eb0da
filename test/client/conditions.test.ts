import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { findCondition, isConditionTrue, setCondition } from "../../src/client/index.ts";
import type { Condition } from "../../src/client/index.ts";
import { OperatorRuntimeError } from "../../src/errors.ts";
import type { Deployment, ObjectOf } from "../../src/index.ts";

const t0 = new Date("2026-01-01T00:00:00.123Z");
const t1 = new Date("2026-01-01T00:05:00.000Z");

describe("status conditions", () => {
  it("adds a new condition with lastTransitionTime in whole RFC 3339 seconds", () => {
    const list = setCondition(undefined, { type: "Ready", status: "False", reason: "Progressing", message: "1/3" }, t0);
    assert.deepEqual(list, [{ type: "Ready", status: "False", lastTransitionTime: "2026-01-01T00:00:00Z", reason: "Progressing", message: "1/3" }]);
  });

  it("keeps lastTransitionTime when only the reason, message or observedGeneration change", () => {
    const first = setCondition([], { type: "Ready", status: "False", reason: "Progressing", message: "1/3" }, t0);
    const second = setCondition(first, { type: "Ready", status: "False", reason: "Waiting", message: "2/3", observedGeneration: 2 }, t1);
    assert.deepEqual(second, [{
      type: "Ready", status: "False", observedGeneration: 2, lastTransitionTime: "2026-01-01T00:00:00Z", reason: "Waiting", message: "2/3",
    }]);
  });

  it("moves lastTransitionTime when the status changes", () => {
    const first = setCondition([], { type: "Ready", status: "False", reason: "Progressing" }, t0);
    const second = setCondition(first, { type: "Ready", status: "True", reason: "Reconciled" }, t1);
    assert.equal(second[0]!.lastTransitionTime, "2026-01-01T00:05:00Z");
    assert.equal(second[0]!.message, undefined, "a message not given is not kept from before");
  });

  it("keeps the order of the list, replaces in place, appends new types and never mutates its input", () => {
    const input: Condition[] = [
      { type: "Available", status: "True", reason: "MinimumReplicasAvailable", lastTransitionTime: "2025-12-01T00:00:00Z" },
      { type: "Progressing", status: "True", reason: "NewReplicaSetAvailable", lastTransitionTime: "2025-12-01T00:00:00Z" },
    ];
    const snapshot = structuredClone(input);
    const out = setCondition(setCondition(input, { type: "Available", status: "False", reason: "Degraded" }, t1),
      { type: "Ready", status: "Unknown", reason: "Pending" }, t1);
    assert.deepEqual(out.map((c) => `${c.type}=${c.status}`), ["Available=False", "Progressing=True", "Ready=Unknown"]);
    assert.deepEqual(input, snapshot);
    assert.notEqual(out[1], input[1], "entries are copies");
  });

  it("rejects a reason that is not CamelCase, a bad status and a bad type, naming the fix", () => {
    assert.throws(() => setCondition([], { type: "Ready", status: "True", reason: "all good" }),
      (err: unknown) => err instanceof OperatorRuntimeError && /reason "all good" is not CamelCase/.test(err.message) && /Fix:/.test(err.message));
    assert.throws(() => setCondition([], { type: "Ready", status: "True", reason: "reconciled" }), /not CamelCase/);
    assert.throws(() => setCondition([], { type: "Ready", status: "True", reason: "" }), /not CamelCase/);
    assert.throws(() => setCondition([], { type: "Ready", status: "Yes" as "True", reason: "Ok" }), /must be "True", "False" or "Unknown"/);
    assert.throws(() => setCondition([], { type: "not ok", status: "True", reason: "Ok" }), /not a valid condition type/);
    assert.throws(() => setCondition([], { type: "Ready", status: "True", reason: "Ok", observedGeneration: -1 }), /observedGeneration/);
    assert.doesNotThrow(() => setCondition([], { type: "example.com/Ready", status: "True", reason: "Ok2" }));
  });

  it("finds conditions and tells whether one is True", () => {
    const list = setCondition(setCondition([], { type: "Ready", status: "True", reason: "Reconciled" }),
      { type: "Degraded", status: "False", reason: "AsExpected" });
    assert.equal(findCondition(list, "Degraded")?.reason, "AsExpected");
    assert.equal(findCondition(list, "Missing"), undefined);
    assert.equal(findCondition(undefined, "Ready"), undefined);
    assert.equal(isConditionTrue(list, "Ready"), true);
    assert.equal(isConditionTrue(list, "Degraded"), false);
    assert.equal(isConditionTrue(list, "Missing"), false);
    assert.equal(isConditionTrue(undefined, "Ready"), false);
  });

  it("reads a built-in kind's conditions too (a Deployment's, whose status is a plain string)", () => {
    const web: ObjectOf<typeof Deployment> = {
      apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
      status: { conditions: [{ type: "Available", status: "True" }, { type: "Progressing", status: "False", reason: "ProgressDeadlineExceeded" }] },
    };
    assert.equal(isConditionTrue(web.status?.conditions, "Available"), true);
    assert.equal(isConditionTrue(web.status?.conditions, "Progressing"), false);
    assert.equal(findCondition(web.status?.conditions, "Progressing")?.reason, "ProgressDeadlineExceeded");
  });
});
