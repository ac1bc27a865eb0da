import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  CostBudget, WEBHOOK_CEL_ENVIRONMENT, admissionBindings, compileMatchConditions, evaluateAdmissionExpression, evaluateMatchConditions, policyCelEnvironment,
} from "../../../src/testing/admission/match-conditions.ts";
import { compileCelExpression } from "../../../src/testing/cel/compile.ts";

const request = { operation: "CREATE", userInfo: { username: "alice", groups: ["dev"] }, namespace: "team-a", name: "web", dryRun: false };
const input = (object: unknown, oldObject?: unknown) => admissionBindings({ object: object as never, oldObject: oldObject as never, request });
const conditions = (...expressions: string[]) => compileMatchConditions(expressions.map((expression, i) => ({ name: `c${i}`, expression })), WEBHOOK_CEL_ENVIRONMENT);

describe("admission CEL environments", () => {
  it("declare object, oldObject and request for webhooks; params, namespaceObject and variables only for policies", () => {
    assert.equal(compileCelExpression("object.spec.replicas > oldObject.spec.replicas && request.operation == 'UPDATE'", WEBHOOK_CEL_ENVIRONMENT).error, undefined);
    assert.match(compileCelExpression("params.max > 1", WEBHOOK_CEL_ENVIRONMENT).error ?? "", /undeclared reference to 'params'/);
    assert.match(compileCelExpression("self.x > 1", WEBHOOK_CEL_ENVIRONMENT).error ?? "", /undeclared reference to 'self'/);
    assert.equal(compileCelExpression("params.max > 1 && namespaceObject.metadata.name != ''", policyCelEnvironment([])).error, undefined);
  });

  it("make `authorizer` a compile error that names it, and an unknown variables.x cel-go's undefined field", () => {
    assert.match(compileCelExpression("authorizer.group('apps').resource('deployments').check('create').allowed()", WEBHOOK_CEL_ENVIRONMENT).error ?? "",
      /LocalCluster cannot evaluate the variable 'authorizer'/);
    assert.equal(compileCelExpression("variables.foo + 1", policyCelEnvironment(["foo"])).error, undefined);
    assert.equal(compileCelExpression("variables.bar + 1", policyCelEnvironment(["foo"])).error, "compilation failed: ERROR: <input>:1:10: undefined field 'bar'");
  });

  it("keep CRD rules' environment (self, oldSelf) when no environment is given", () => {
    assert.equal(compileCelExpression("self.a == oldSelf.a").error, undefined);
    assert.equal(compileCelExpression("self.a == oldSelf.a").usesOldSelf, true);
    assert.match(compileCelExpression("object.a == 1").error ?? "", /undeclared reference to 'object'/);
  });

  it("word runtime and compile errors as kube-apiserver's filter", () => {
    const budget = new CostBudget();
    const missing = evaluateAdmissionExpression(compileCelExpression("object.spec.replicas > 1", WEBHOOK_CEL_ENVIRONMENT), input({ spec: {} }), budget);
    assert.ok("error" in missing);
    assert.match(missing.error, /^expression 'object\.spec\.replicas > 1' resulted in error: /);
    const broken = evaluateAdmissionExpression(compileCelExpression("object.spec +", WEBHOOK_CEL_ENVIRONMENT), input({}), budget);
    assert.ok("error" in broken);
    assert.match(broken.error, /^compilation error: compilation failed: ERROR: <input>:1:/);
    assert.deepEqual(evaluateAdmissionExpression(compileCelExpression("request.userInfo.username", WEBHOOK_CEL_ENVIRONMENT), input({}), budget), { value: "alice" });
  });
});

describe("matchConditions", () => {
  it("match when all are true, skip when any is false (even if another fails)", () => {
    assert.deepEqual(evaluateMatchConditions(conditions("object.spec.replicas > 1", "request.operation == 'CREATE'"), input({ spec: { replicas: 3 } }), "Fail"), { matches: true });
    assert.deepEqual(evaluateMatchConditions(conditions("object.nope > 1", "object.spec.replicas > 5"), input({ spec: { replicas: 3 } }), "Fail"), { matches: false, failed: "c1" });
    assert.deepEqual(evaluateMatchConditions([], input({}), "Fail"), { matches: true });
  });

  it("turn evaluation errors into an error under Fail (several as a list) and a skip under Ignore", () => {
    const one = evaluateMatchConditions(conditions("object.nope > 1"), input({}), "Fail");
    assert.ok("error" in one);
    assert.match(one.error, /^expression 'object\.nope > 1' resulted in error: /);
    const two = evaluateMatchConditions(conditions("object.a > 1", "object.b > 1"), input({}), undefined);
    assert.ok("error" in two);
    assert.match(two.error, /^\[expression 'object\.a > 1' resulted in error: .*, expression 'object\.b > 1' resulted in error: .*\]$/);
    assert.deepEqual(evaluateMatchConditions(conditions("object.nope > 1"), input({}), "Ignore"), { matches: false });
  });

  it("see oldObject as null on a create, and the object as null on a delete", () => {
    assert.deepEqual(evaluateMatchConditions(conditions("oldObject == null"), input({ a: 1 }), "Fail"), { matches: true });
    assert.deepEqual(evaluateMatchConditions(conditions("object == null && oldObject.a == 1"), input(undefined, { a: 1 }), "Fail"), { matches: true });
  });
});
