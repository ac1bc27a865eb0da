import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ResourceClient } from "../../src/index.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import { describeCrdConditions, installCrds } from "../../examples/example.ts";
import { operator } from "../../examples/replicaset/operator.ts";
import { within } from "../support/wait.ts";

describe("the examples' installCrds", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const crdName = operator.crds[0]!.metadata!.name!;
  const crdCreates = (code?: number) => cluster.requests.count({ verb: "create", resource: "customresourcedefinitions", ...(code ? { code } : {}) });

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "install-test" });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("assumes a CRD it may not read (403) is installed: it warns and creates nothing", async () => {
    cluster.inject({ verb: "get", resource: "customresourcedefinitions", name: crdName, code: 403, times: 1 });
    const warnings: string[] = [];
    await installCrds(client, operator.crds.slice(0, 1), 1_000, (m) => warnings.push(m));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, new RegExp(`cannot read CRD ${crdName} \\(403 Forbidden`));
    assert.equal(crdCreates(), 0);
  });

  it("counts a create answered 409 AlreadyExists (another process installed it meanwhile) as done", async () => {
    await installCrds(client, operator.crds.slice(0, 1));
    // This process's get misses the CRD the other process has just created: its create is answered 409.
    cluster.inject({ verb: "get", resource: "customresourcedefinitions", name: crdName, code: 404, times: 1 });
    const creates = crdCreates();
    await installCrds(client, operator.crds.slice(0, 1));
    assert.equal(crdCreates(409), 1);
    assert.equal(crdCreates(), creates + 1);
  });

  it("names the NamesAccepted and Established conditions in the timeout error", () => {
    assert.equal(describeCrdConditions([
      { type: "NamesAccepted", status: "False", reason: "ListKindConflict", message: "\"PodSetList\" is already in use" },
    ]), "NamesAccepted=False (ListKindConflict: \"PodSetList\" is already in use); Established: not reported");
    assert.equal(describeCrdConditions([{ type: "Established", status: "False", reason: "Installing" }, { type: "NamesAccepted", status: "True" }]),
      "NamesAccepted=True; Established=False (Installing)");
  });
});
