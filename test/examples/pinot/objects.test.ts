/**
 * The objects of a Pinot node and the spec checks, without a cluster.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { desiredObjects, orderedNodes, validatePinot } from "../../../examples/pinot/operator.ts";
import type { Pinot } from "../../../examples/pinot/operator.ts";
import { sampleCr, testCr } from "./harness.ts";

const named = (p: Pinot, namespace = "ns"): Pinot => ({ ...p, metadata: { ...p.metadata, namespace } });

describe("pinot example objects", () => {
  it("orders nodes by deploymentOrder, unlisted node types last, then spec order", () => {
    const p = named(testCr("mixed.yaml"));
    assert.deepEqual(orderedNodes(p).map((n) => n.name), ["controller", "server", "minion"]);
    p.spec.deploymentOrder = ["minion"];
    assert.deepEqual(orderedNodes(p).map((n) => n.name), ["minion", "server", "controller"]);
  });

  it("builds a ConfigMap, a workload and a Service per node, each workload mounting only its own ConfigMap", () => {
    const nodes = desiredObjects(named(sampleCr()));
    assert.deepEqual(nodes.map((n) => [n.configMap.metadata!.name, n.workload.kind, n.workload.object.metadata!.name, n.service.metadata!.name]), [
      ["pinot-simple-pinot-controller-config", "StatefulSet", "pinot-simple-pinot-controller", "pinot-simple-pinot-controller"],
      ["pinot-simple-pinot-broker-config", "StatefulSet", "pinot-simple-pinot-broker", "pinot-simple-pinot-broker"],
      ["pinot-simple-pinot-server-config", "StatefulSet", "pinot-simple-pinot-server", "pinot-simple-pinot-server"],
      ["pinot-simple-pinot-minion-config", "StatefulSet", "pinot-simple-pinot-minion", "pinot-simple-pinot-minion"],
    ]);
    for (const n of nodes) {
      const configMaps = n.workload.object.spec!.template!.spec!.volumes!.filter((v) => v.configMap).map((v) => v.configMap!.name);
      assert.deepEqual(configMaps, [n.configMap.metadata!.name]);
    }
  });

  it("keeps a Service selector the spec sets, and defaults it to the node's pods otherwise", () => {
    const p = named(sampleCr());
    p.spec.k8sConfig[0]!.service.selector = { app: "custom" };
    const [controller, broker] = desiredObjects(p);
    assert.deepEqual(controller!.service.spec!.selector, { app: "custom" });
    assert.deepEqual(broker!.service.spec!.selector, { "app.kubernetes.io/instance": "pinot-simple", "pinot.datainfra.io/node": "pinot-broker" });
  });

  it("accepts the sample and the test CRs, and names every problem of a bad spec", () => {
    for (const p of [sampleCr(), testCr("stateless.yaml"), testCr("mixed.yaml")]) assert.deepEqual(validatePinot(named(p)), []);
    const bad = named(sampleCr());
    bad.spec.nodes.push({ ...bad.spec.nodes[0]!, replicas: -1 });
    bad.spec.pinotNodeConfig.push(bad.spec.pinotNodeConfig[0]!);
    bad.spec.k8sConfig[0]!.env!.push({ name: "LOG4J_CONSOLE_LEVEL", value: "debug" });
    bad.spec.k8sConfig[1]!.volumes = [{ name: "pinot-config", emptyDir: {} }];
    bad.metadata!.name = "a-very-long-pinot-cluster-name-that-goes-on-and-on";
    const problems = validatePinot(bad);
    const expected = [
      /spec\.pinotNodeConfig: "controller" is defined twice/,
      /spec\.nodes: "pinot-controller" is defined twice/,
      /spec\.nodes\[0\]\.name: the node's objects would be named "a-very-long-.*-pinot-controller", which is not a DNS-1035 label of at most 52 characters/,
      /spec\.nodes\[4\]\.replicas: -1 must be a whole number, 0 or more/,
      /spec\.k8sConfig\[0\]\.env: "LOG4J_CONSOLE_LEVEL" is set twice/,
      /spec\.k8sConfig\[1\]: volume name "pinot-config" is used more than once/,
    ];
    for (const re of expected) assert.ok(problems.some((p) => re.test(p)), `${re} in:\n${problems.join("\n")}`);
  });
});
