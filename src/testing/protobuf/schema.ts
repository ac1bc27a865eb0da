/**
 * The protobuf messages of the built-in kinds, from Kubernetes' own `generated.proto` files.
 *
 * The files are vendored unchanged in `k8s-proto/` beside this module (origin and licence in its
 * README); `npm run build` copies them beside the built module, so the same relative path works
 * from the `.ts` sources and from the installed package. They are parsed once, on the first
 * protobuf request (a few tens of milliseconds), never at import.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

/** Where the vendored `k8s.io/...` tree lives, relative to this module. */
const PROTO_DIR = fileURLToPath(new URL("./k8s-proto/", import.meta.url));

/**
 * The proto package of each group/version whose definitions are vendored, by apiVersion. A kind
 * of another group/version (`apiextensions.k8s.io`, custom resources) has no message here.
 */
const PACKAGES: ReadonlyMap<string, string> = new Map([
  ["v1", "k8s.io.api.core.v1"],
  ["apps/v1", "k8s.io.api.apps.v1"],
  ["autoscaling/v1", "k8s.io.api.autoscaling.v1"],
  ["autoscaling/v2", "k8s.io.api.autoscaling.v2"],
  ["batch/v1", "k8s.io.api.batch.v1"],
  ["certificates.k8s.io/v1", "k8s.io.api.certificates.v1"],
  ["coordination.k8s.io/v1", "k8s.io.api.coordination.v1"],
  ["discovery.k8s.io/v1", "k8s.io.api.discovery.v1"],
  ["events.k8s.io/v1", "k8s.io.api.events.v1"],
  ["networking.k8s.io/v1", "k8s.io.api.networking.v1"],
  ["node.k8s.io/v1", "k8s.io.api.node.v1"],
  ["policy/v1", "k8s.io.api.policy.v1"],
  ["scheduling.k8s.io/v1", "k8s.io.api.scheduling.v1"],
  ["storage.k8s.io/v1", "k8s.io.api.storage.v1"],
  ["admissionregistration.k8s.io/v1", "k8s.io.api.admissionregistration.v1"],
  ["flowcontrol.apiserver.k8s.io/v1", "k8s.io.api.flowcontrol.v1"],
  ["resource.k8s.io/v1", "k8s.io.api.resource.v1"],
  ["rbac.authorization.k8s.io/v1", "k8s.io.api.rbac.v1"],
  ["authorization.k8s.io/v1", "k8s.io.api.authorization.v1"],
  ["authentication.k8s.io/v1", "k8s.io.api.authentication.v1"],
]);

/** Top-level files; their imports (meta/v1, runtime, resource, intstr) load with them. */
const FILES = [
  "k8s.io/api/core/v1/generated.proto",
  "k8s.io/api/apps/v1/generated.proto",
  "k8s.io/api/autoscaling/v1/generated.proto",
  "k8s.io/api/autoscaling/v2/generated.proto",
  "k8s.io/api/batch/v1/generated.proto",
  "k8s.io/api/certificates/v1/generated.proto",
  "k8s.io/api/coordination/v1/generated.proto",
  "k8s.io/api/discovery/v1/generated.proto",
  "k8s.io/api/events/v1/generated.proto",
  "k8s.io/api/networking/v1/generated.proto",
  "k8s.io/api/node/v1/generated.proto",
  "k8s.io/api/policy/v1/generated.proto",
  "k8s.io/api/scheduling/v1/generated.proto",
  "k8s.io/api/storage/v1/generated.proto",
  "k8s.io/api/admissionregistration/v1/generated.proto",
  "k8s.io/api/flowcontrol/v1/generated.proto",
  "k8s.io/api/resource/v1/generated.proto",
  // Written for LocalCluster (see k8s-proto/README.md): the messages of the RBAC kinds and reviews.
  "localcluster/rbac-v1.proto",
  "localcluster/authorization-v1.proto",
  "localcluster/authentication-v1.proto",
];

/** Imports that are not vendored, and the LocalCluster file that stands in for each. */
const STAND_INS: ReadonlyMap<string, string> = new Map([
  ["k8s.io/api/scheduling/v1alpha3/generated.proto", "localcluster/scheduling-v1alpha3.proto"],
]);

/** Messages every group shares, looked up by kind whatever the envelope's apiVersion says. */
const META_KINDS: ReadonlyMap<string, string> = new Map([
  ["DeleteOptions", "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions"],
]);

/** The `runtime.Unknown` envelope message. */
export const UNKNOWN_MESSAGE = "k8s.io.apimachinery.pkg.runtime.Unknown";

/** A protobuf message type (protobufjs reflection). */
export type MessageType = protobuf.Type;

let root: protobuf.Root | undefined;

/** The parsed definitions (parsed on first use). */
function definitions(): protobuf.Root {
  if (root) return root;
  const r = new protobuf.Root();
  r.resolvePath = (_origin: string, target: string) => path.join(PROTO_DIR, STAND_INS.get(target) ?? target);
  r.loadSync(FILES, { keepCase: true });
  r.resolveAll();
  root = r;
  return r;
}

/** A message by its full name (without the leading dot). */
export function messageNamed(fullName: string): MessageType {
  return definitions().lookupType(fullName);
}

/**
 * The name of the message that encodes `kind` of `apiVersion`, or undefined when no vendored
 * definition has it (then kube-apiserver would not accept protobuf for it either). The kind and
 * apiVersion come from the request body, so they are only looked up in `Map`s: a kind such as
 * `constructor` or `__proto__` names nothing.
 */
export function messageNameFor(apiVersion: string, kind: string): string | undefined {
  const meta = META_KINDS.get(kind);
  if (meta) return meta;
  const pkg = PACKAGES.get(apiVersion);
  if (!pkg || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return undefined;
  const name = `${pkg}.${kind}`;
  const found = definitions().lookup(name);
  return found instanceof protobuf.Type ? name : undefined;
}
