/**
 * A small owner kind for Builder tests: the `DataApp` CRD (example.com/v1) and a helper to
 * create instances, all through raw HTTP so no client serializer touches the schema.
 */
import { raw, waitFor } from "./wait.ts";

/** The DataApp CRD: namespaced, status subresource, free-form spec. */
export const dataAppCrd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "dataapps.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "dataapps", singular: "dataapp", kind: "DataApp" },
    versions: [{
      name: "v1", served: true, storage: true, subresources: { status: {} },
      schema: { openAPIV3Schema: { type: "object", properties: {
        spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      } } },
    }],
  },
};

/** Installs the DataApp CRD and waits until it is served. */
export async function installDataApp(url: string): Promise<void> {
  const r = await raw(url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", dataAppCrd);
  if (r.code !== 201 && r.code !== 409) throw new Error(`CRD create: ${r.code} ${r.text}`);
  await waitFor(async () => (await raw(url, "GET", "/apis/example.com/v1")).code === 200, "DataApp served");
}

/** Creates a DataApp (and its namespace when missing) and returns it as stored (with uid). */
export async function createDataApp(url: string, namespace: string, name: string, spec: Record<string, unknown> = {}): Promise<any> {
  await raw(url, "POST", "/api/v1/namespaces", { metadata: { name: namespace } });
  const r = await raw(url, "POST", `/apis/example.com/v1/namespaces/${namespace}/dataapps`,
    { apiVersion: "example.com/v1", kind: "DataApp", metadata: { name }, spec });
  if (r.code !== 201) throw new Error(`DataApp create: ${r.code} ${r.text}`);
  return r.body;
}
