import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AdmissionregistrationV1Api, CoreV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { grant, serviceAccount } from "../../support/authz.ts";
import { within } from "../../support/wait.ts";
import { FakeWebhook } from "./fake-webhook.ts";

describe("LocalCluster admission webhooks in authorization mode", () => {
  let cluster: LocalCluster;
  let hook: FakeWebhook;
  before(async () => {
    hook = await FakeWebhook.start();
    cluster = await LocalCluster.start({ authorization: true });
  });
  after(async () => {
    await within(cluster.stop(), "LocalCluster to stop");
    await hook.stop();
  });

  it("sends the requesting user's userInfo: the admin's, a service account's", async () => {
    const adm = cluster.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    await adm.createValidatingWebhookConfiguration({ body: { metadata: { name: "who" }, webhooks: [{
      name: "who.example.com", clientConfig: { url: `${hook.url}/who`, caBundle: hook.caBundle }, sideEffects: "None", admissionReviewVersions: ["v1"],
      rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
    }] } });
    await cluster.kubeConfig.makeApiClient(CoreV1Api).createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "by-admin" } } });
    await grant(cluster, "default", "op-configmaps", [{ apiGroups: [""], resources: ["configmaps"], verbs: ["create"] }], [serviceAccount("default", "op")]);
    const op = await cluster.serviceAccountKubeConfig("default", "op");
    await op.kubeConfig.makeApiClient(CoreV1Api).createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "by-op" } } });
    const [admin, sa] = hook.to("/who").map((r) => r.userInfo);
    assert.deepEqual(admin, { username: "localcluster-admin", groups: ["system:masters", "system:authenticated"] });
    assert.deepEqual(sa, { username: "system:serviceaccount:default:op", groups: ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"] });
  });
});
