import { test } from "node:test";
import assert from "node:assert/strict";
import { serviceRules } from "../../builders/service.ts";
import type { KubeObject } from "../../src/client/types.ts";

function service(spec: Record<string, unknown> = {}, name = "web"): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: "shop" },
    spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: 8080 }, { name: "metrics", port: 9090, targetPort: "metrics" }], ...spec },
  };
}

const fields = (obj: KubeObject) => serviceRules.validate(obj).map((e) => e.field);
const changes = (live: KubeObject, desired: KubeObject) => serviceRules.immutableChanges!(live, desired);

test("a valid Service has no problems", () => {
  assert.deepEqual(serviceRules.validate(service()), []);
  assert.deepEqual(serviceRules.validate(service({ ports: [{ port: 80 }] })), []);
  assert.deepEqual(serviceRules.validate(service({ type: "NodePort", ports: [{ port: 80, nodePort: 30080, protocol: "UDP" }] })), []);
  assert.equal(serviceRules.phase, "service");
});

test("a Service name must be a DNS-1035 label: no dots, and a letter first", () => {
  const [err] = serviceRules.validate(service({}, "web.api"));
  assert.equal(err!.field, "metadata.name");
  assert.match(err!.message, /"web.api" must be a DNS-1035 label .*; it contains "\."/);
  const [digit, ...rest] = serviceRules.validate(service({}, "9cache"));
  assert.equal(rest.length, 0);
  assert.equal(digit!.field, "metadata.name");
  assert.match(digit!.message, /^Service\/9cache: metadata\.name: "9cache" must be a DNS-1035 label .* because kube-apiserver requires it for Services .*; it starts with "9", not a lower-case letter\. Fix: rename it, e\.g\. "svc-9cache"$/);
});

test("a Service needs a port unless it is headless or ExternalName", () => {
  assert.deepEqual(fields(service({ ports: [] })), ["spec.ports"]);
  assert.deepEqual(fields(service({ ports: undefined })), ["spec.ports"]);
  assert.deepEqual(fields(service({ ports: [], clusterIP: "None" })), []);
  assert.deepEqual(fields(service({ ports: undefined, selector: undefined, type: "ExternalName", externalName: "db.example.com" })), []);
});

test("an ExternalName Service needs a valid externalName", () => {
  assert.deepEqual(fields(service({ type: "ExternalName", ports: [] })), ["spec.externalName"]);
  assert.deepEqual(fields(service({ type: "ExternalName", externalName: "DB_host", ports: [] })), ["spec.externalName"]);
});

test("ports must be 1-65535", () => {
  const problems = serviceRules.validate(service({ ports: [{ name: "a", port: 0 }, { name: "b", port: 65536 }, { name: "c", port: "80" }] }));
  assert.deepEqual(problems.map((e) => e.field), ["spec.ports[0].port", "spec.ports[1].port", "spec.ports[2].port"]);
  assert.match(problems[1]!.message, /^Service\/web: spec.ports\[1\].port: 65536 is out of range. Fix: use a port number from 1 to 65535$/);
});

test("port names are required and unique when there is more than one port", () => {
  assert.deepEqual(fields(service({ ports: [{ port: 80 }, { port: 443 }] })), ["spec.ports[0].name", "spec.ports[1].name"]);
  assert.deepEqual(fields(service({ ports: [{ name: "http", port: 80 }, { name: "http", port: 443 }] })), ["spec.ports[1].name"]);
  assert.deepEqual(fields(service({ ports: [{ name: "HTTP", port: 80 }] })), ["spec.ports[0].name"]);
});

test("protocols are TCP, UDP or SCTP and a port/protocol pair is used once", () => {
  assert.deepEqual(fields(service({ ports: [{ name: "a", port: 80, protocol: "HTTP" }] })), ["spec.ports[0].protocol"]);
  assert.deepEqual(fields(service({ ports: [{ name: "a", port: 53, protocol: "UDP" }, { name: "b", port: 53 }] })), []);
  assert.deepEqual(fields(service({ ports: [{ name: "a", port: 53 }, { name: "b", port: 53, protocol: "TCP" }] })), ["spec.ports[1].port"]);
});

test("the Service type must be known", () => {
  const [err] = serviceRules.validate(service({ type: "Ingress" }));
  assert.equal(err!.field, "spec.type");
  assert.match(err!.fix, /ClusterIP, NodePort, LoadBalancer, ExternalName/);
});

test("targetPort is a port number or a port name, and nodePort needs a NodePort type", () => {
  assert.deepEqual(fields(service({ ports: [{ name: "a", port: 80, targetPort: 0 }, { name: "b", port: 81, targetPort: "Bad_Name" }] })), ["spec.ports[0].targetPort", "spec.ports[1].targetPort"]);
  assert.deepEqual(fields(service({ ports: [{ port: 80, nodePort: 30080 }] })), ["spec.ports[0].nodePort"]);
});

test("selector labels are validated", () => {
  assert.deepEqual(fields(service({ selector: { app: "web site" } })), ["spec.selector.app"]);
});

test("a different cluster IP is an immutable change, an omitted one is not", () => {
  const live = service({ clusterIP: "10.96.0.10", ipFamilies: ["IPv4"] });
  assert.deepEqual(changes(live, service({ clusterIP: "10.96.0.11" })), ["spec.clusterIP"]);
  assert.deepEqual(changes(live, service({ clusterIP: "None" })), ["spec.clusterIP"]);
  assert.deepEqual(changes(live, service()), []);
  assert.deepEqual(changes(live, service({ clusterIP: "" })), []);
  assert.deepEqual(changes(live, service({ clusterIP: "10.96.0.10", ports: [{ port: 8080 }] })), []);
});

test("a different primary IP family is an immutable change, adding a secondary is not", () => {
  const live = service({ clusterIP: "10.96.0.10", ipFamilies: ["IPv4"] });
  assert.deepEqual(changes(live, service({ ipFamilies: ["IPv6"] })), ["spec.ipFamilies"]);
  assert.deepEqual(changes(live, service({ ipFamilies: ["IPv4", "IPv6"] })), []);
  assert.deepEqual(changes(live, service({ ipFamilies: [] })), []);
});
