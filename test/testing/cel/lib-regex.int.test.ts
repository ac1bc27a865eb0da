/**
 * CRD validation rules using the regex library (`find`, `findAll`) and `matches` on input that
 * makes a backtracking engine exponential: LocalCluster evaluates them with RE2's linear-time
 * matching, as kube-apiserver does, so the write is answered (before this, a 64-character value
 * blocked LocalCluster's event loop for hours).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, CustomObjectsApi } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { raw, waitFor, within } from "../../support/wait.ts";

const GROUP = "celregex.example.com";
const FIND_RULE = "self.find('^(a+)+$') == ''";
const FIND_ALL_RULE = "self.findAll('(a+)+b').size() == 0";
const MATCHES_RULE = "!self.matches('^(a|a?)+$')";

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `words.${GROUP}` },
  spec: {
    group: GROUP,
    scope: "Namespaced",
    names: { plural: "words", singular: "word", kind: "Word", listKind: "WordList" },
    versions: [{
      name: "v1", served: true, storage: true,
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            spec: {
              type: "object",
              properties: {
                find: { type: "string", maxLength: 100, "x-kubernetes-validations": [{ rule: FIND_RULE }] },
                findAll: { type: "string", maxLength: 100, "x-kubernetes-validations": [{ rule: FIND_ALL_RULE }] },
                matches: { type: "string", maxLength: 100, "x-kubernetes-validations": [{ rule: MATCHES_RULE }] },
              },
            },
          },
        },
      },
    }],
  },
};

/** 64 a's and a '!': a backtracking engine tries every split of the a's before failing. */
const STUCK = `${"a".repeat(64)}!`;

describe("LocalCluster evaluates regex CEL rules in linear time", () => {
  let cluster: LocalCluster;
  let api: CustomObjectsApi;
  before(async () => {
    cluster = await LocalCluster.start();
    api = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const res = await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
    assert.equal(res.code, 201, JSON.stringify(res.body));
    await waitFor(async () => (await raw(cluster.url, "GET", `/apis/${GROUP}/v1/namespaces/default/words`)).code === 200 || undefined, "words served");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  const create = (name: string, spec: Record<string, string>): Promise<any> =>
    api.createNamespacedCustomObject({
      group: GROUP, version: "v1", namespace: "default", plural: "words",
      body: { apiVersion: `${GROUP}/v1`, kind: "Word", metadata: { name }, spec },
    });

  it("accepts an object whose values are the pathological input: every rule holds", async () => {
    const created = await create("stuck", { find: STUCK, findAll: STUCK, matches: STUCK });
    assert.deepEqual(created.spec, { find: STUCK, findAll: STUCK, matches: STUCK });
  });

  it("refuses the values the patterns do match, naming each failed rule", async () => {
    const a64 = "a".repeat(64);
    const err = await create("matching", { find: a64, findAll: `${a64}b`, matches: a64 }).then(
      () => assert.fail("expected a 422"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiException, String(err));
    assert.equal(err.code, 422, String(err.body));
    const status = typeof err.body === "string" ? JSON.parse(err.body) : err.body;
    assert.deepEqual(
      status.details.causes.map((c: { field: string; message: string }) => [c.field, c.message]),
      [
        ["spec.find", `Invalid value: "${a64}": failed rule: ${FIND_RULE}`],
        ["spec.findAll", `Invalid value: "${a64}b": failed rule: ${FIND_ALL_RULE}`],
        ["spec.matches", `Invalid value: "${a64}": failed rule: ${MATCHES_RULE}`],
      ],
    );
  });
});
