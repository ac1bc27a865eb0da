/**
 * Defaults of the smaller kinds: Namespace, Secret (with `stringData` folded into `data` by
 * the v1 conversion), Endpoints and EndpointSlice ports, CustomResourceDefinition names and
 * conversion, and RBAC bindings' API groups.
 */
import { setMember } from "../../json-value.ts";
import { crdDefaults } from "../../crd/crd-validation.ts";
import { rbacDefaults } from "../../rbac/rbac-validation.ts";
import type { KubeObject } from "../../resource-type.ts";
import type { KindDefaults, Obj } from "./types.ts";
import { child, itemsAt, objectAt, orDefault, orDefaultString } from "./types.ts";

/** The label kube-apiserver keeps equal to a namespace's name. */
const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

/** Namespace. */
export const namespace: KindDefaults = {
  decode(obj) {
    const meta = objectAt(obj, "metadata");
    // kube-apiserver's namespace strategy keeps this label equal to the name on every write.
    if (meta?.name) meta.labels = { ...objectAt(meta, "labels"), [NAMESPACE_NAME_LABEL]: meta.name };
  },
  create(obj) {
    child(obj, "spec").finalizers = ["kubernetes"];
    obj.status = { phase: "Active" };
  },
};

/** Secret. */
export const secret: KindDefaults = {
  decode(obj) {
    orDefaultString(obj, "type", "Opaque");
    const stringData = objectAt(obj, "stringData");
    if (obj.stringData === undefined) return;
    const data = child(obj, "data");
    for (const [k, v] of Object.entries(stringData ?? {})) setMember(data, k, Buffer.from(String(v), "utf8").toString("base64"));
    delete obj.stringData;
  },
};

/** Endpoints: `SetDefaults_EndpointPort`. */
export const endpoints: KindDefaults = {
  decode(obj) {
    for (const subset of itemsAt(obj, "subsets")) for (const p of itemsAt(subset, "ports")) orDefaultString(p, "protocol", "TCP");
  },
};

/** EndpointSlice: discovery/v1 `SetDefaults_EndpointPort` (an unnamed port is named ""). */
export const endpointSlice: KindDefaults = {
  decode(obj) {
    for (const p of itemsAt(obj, "ports")) {
      orDefault(p, "name", "");
      orDefault(p, "protocol", "TCP");
    }
  },
};

/** CustomResourceDefinition: `SetDefaults_CustomResourceDefinitionSpec` on decode, the accepted names and conditions on create. */
export const customResourceDefinition: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    const names = objectAt(spec, "names");
    const kind = typeof names?.kind === "string" ? names.kind : "";
    if (names && kind) {
      orDefaultString(names, "singular", kind.toLowerCase());
      orDefaultString(names, "listKind", `${kind}List`);
    }
    if (!objectAt(spec, "conversion")) spec.conversion = { strategy: "None" };
  },
  create(obj, ctx) {
    Object.assign(obj, crdDefaults(obj as KubeObject, ctx.now));
  },
};

/** RoleBinding and ClusterRoleBinding (Role and ClusterRole have no defaults). */
export function rbac(kind: string): KindDefaults {
  return { decode: (obj: Obj) => rbacDefaults(kind, obj as KubeObject) };
}
