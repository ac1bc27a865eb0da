/**
 * Test helpers shared by the LocalCluster conformance tests: the Deployment the recorded
 * sequences start from (test/conformance/diff.py `deployment()`), and the Status body of a
 * client-node call that the server refused.
 */
import assert from "node:assert/strict";
import { ApiException } from "@kubernetes/client-node";

/**
 * The conformance sequences' Deployment `name` (`app: name` labels, one `nginx:1.25` container
 * named `c`), with `spec` merged into its spec and `container` into its container.
 */
export function conformanceDeployment(name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}): any {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx:1.25", ...container }] } },
      ...spec,
    },
  };
}

/** The code and Status body of a client-node call the server refused (fails the test if it succeeded). */
export async function rejection(promise: Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ApiException, `expected ApiException, got ${err}`);
    return { code: err.code, body: typeof err.body === "string" ? JSON.parse(err.body) : err.body };
  }
  assert.fail("expected the request to be rejected");
}

/** The causes of a Status body as `field: message` lines, in the server's order. */
export function causeLines(body: { details?: { causes?: { field?: string; message?: string }[] } }): string[] {
  return (body.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
}
