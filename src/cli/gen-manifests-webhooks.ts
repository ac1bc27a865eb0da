/**
 * The webhook part of `gen manifests`: for a Manager with admission webhooks or conversions, the
 * Service in front of its webhook server, the Mutating/ValidatingWebhookConfigurations, the CRDs'
 * `spec.conversion`, the serving certificate's wiring (cert-manager, or a Secret the user
 * provides) and what the Deployment gains (the `webhook-server` port, the certificate volume).
 *
 * @module
 */
import type { KubeObject } from "../kinds/kube-object.ts";
import type { Manager } from "../manager/manager.ts";
import { OperatorRuntimeError } from "../errors.ts";
import {
  INJECT_CA_FROM, crdConversion, crdName, manifestProblems, webhookConfigurations,
} from "../webhook/configurations.ts";
import type { WebhookRegistrations, WebhookTarget } from "../webhook/configurations.ts";
import type { AdmissionRegistration, ConversionRegistration } from "../webhook/types.ts";
import type { PolicyRule } from "../rbac/rules.ts";
import { GenerateError } from "./operator-module.ts";
import { DEFAULT_WEBHOOK_PORT } from "../webhook/server.ts";

/** Where the serving certificate is mounted when the Manager does not say (controller-runtime's default `CertDir`). */
export const DEFAULT_WEBHOOK_CERT_DIR = "/tmp/k8s-webhook-server/serving-certs";

/** The environment variable that tells a Manager without `webhook.certDir` where its certificate is mounted. */
export const WEBHOOK_CERT_DIR_ENV = "WEBHOOK_CERT_DIR";

export { DEFAULT_WEBHOOK_PORT };

/** How `gen manifests` wires the webhook server's certificate. */
export interface WebhookManifestOptions {
  /** Name of the Deployment (the Service is `<name>-webhook`, the Secret `<name>-webhook-cert`). */
  name: string;
  namespace: string;
  /** cert-manager issues the certificate and injects the CA (`--cert-manager`). */
  certManager: boolean;
  /** PEM of the CA that signed the Secret's certificate (`--ca-bundle FILE`), for every caBundle. */
  caBundle?: string | undefined;
}

/** What a Manager with webhooks adds to `gen manifests`' output. */
export interface WebhookManifests {
  /** The exported CRDs, those with a conversion gaining `spec.conversion` (and the inject-ca-from annotation). */
  crds: KubeObject[];
  /** Before the Deployment: the cert-manager Issuer and Certificate (with `certManager`), the Service. */
  before: KubeObject[];
  /** After the Deployment: the webhook configurations and the CRD stubs of conversions whose CRD the module does not export. */
  after: KubeObject[];
  /** The Deployment with the `webhook-server` port and the certificate volume. */
  deployment: KubeObject;
  /** What the user must still do (printed on stderr), e.g. provide the Secret and the caBundle. */
  notes: string[];
}

/**
 * The Manager's registrations (`mgr.webhookRegistrations()`), none when it has no such method
 * (an SDK without webhooks: the module may load another copy).
 *
 * @example
 * ```ts
 * const { admission, conversion } = registrationsOf(mgr);
 * ```
 */
export function registrationsOf(mgr: Manager): WebhookRegistrations {
  const m = mgr as unknown as { webhookRegistrations?: () => WebhookRegistrations };
  if (typeof m.webhookRegistrations !== "function") return { admission: [], conversion: [] };
  const regs = m.webhookRegistrations();
  return { admission: regs.admission ?? [], conversion: regs.conversion ?? [] };
}

/**
 * The Manager's webhook server settings (its `webhookOptions`, `new Manager({ webhook })`), with
 * the defaults: port 9443, the certificate in controller-runtime's directory. `off` for
 * `webhook: false` (the pod would serve no webhooks).
 */
function serverOf(mgr: Manager): { port: number; certDir: string; off: boolean } {
  // Undefined from a Manager-like object of another SDK version: the defaults then.
  const o = mgr.webhookOptions as Manager["webhookOptions"] | undefined;
  const given = o === false || o === undefined ? {} : o;
  return {
    port: given.port ?? DEFAULT_WEBHOOK_PORT,
    certDir: given.certDir !== undefined && given.certDir !== "" ? given.certDir : DEFAULT_WEBHOOK_CERT_DIR,
    off: o === false,
  };
}

/**
 * The registrations with the plural of the exported CRD of their group and kind, where the
 * module exports one: a plural guessed from the kind (`Matrix` → `matrixes`) that is not the
 * CRD's (`matrices`) would make a rule that never matches, or a conversion stub for a CRD
 * that does not exist.
 */
function withExportedPlurals(regs: { admission: readonly AdmissionRegistration[]; conversion: readonly ConversionRegistration[] }, crds: readonly KubeObject[]):
  { admission: AdmissionRegistration[]; conversion: ConversionRegistration[] } {
  const plurals = new Map<string, string>();
  for (const crd of crds) {
    const spec = crd["spec"] as { group?: unknown; names?: { kind?: unknown; plural?: unknown } } | undefined;
    if (typeof spec?.group === "string" && typeof spec.names?.kind === "string" && typeof spec.names.plural === "string") {
      plurals.set(`${spec.group}/${spec.names.kind}`, spec.names.plural);
    }
  }
  const fix = <R extends { group: string; kind: string; resource: string }>(r: R): R => {
    const plural = plurals.get(`${r.group}/${r.kind}`);
    return plural !== undefined && plural !== r.resource ? { ...r, resource: plural } : r;
  };
  return { admission: regs.admission.map(fix), conversion: regs.conversion.map(fix) };
}

/**
 * What a Manager with webhook or conversion registrations adds to `gen manifests`, or
 * undefined when it has none (the output is then what it always was).
 *
 * - a Service `<name>-webhook` (port 443 to the container's `webhook-server` port, selecting the
 *   Deployment's pods);
 * - with `certManager`: a self-signed cert-manager Issuer `<name>-selfsigned` and a Certificate
 *   `<name>-webhook` for `<svc>.<ns>.svc` and `<svc>.<ns>.svc.cluster.local` into Secret
 *   `<name>-webhook-cert`, and the `cert-manager.io/inject-ca-from` annotation on every object
 *   with a caBundle; otherwise the user provides that Secret (keys `tls.crt` and `tls.key`) and
 *   the caBundle (`caBundle`, else a note says so);
 * - the Deployment's container gains the port `webhook-server` (the Manager's `webhook.port`,
 *   default 9443) and the Secret mounted read-only at the Manager's `webhook.certDir` (default
 *   controller-runtime's `/tmp/k8s-webhook-server/serving-certs`), that directory also in the
 *   environment variable `WEBHOOK_CERT_DIR` (where a Manager without `certDir` finds it);
 * - the configurations of {@link webhookConfigurations} with the Service as target, and the
 *   exported CRDs' `spec.conversion` (a stub per conversion whose CRD is not exported).
 *
 * @throws {GenerateError} when the registrations would make objects kube-apiserver rejects, a
 *   conversion names a version its CRD lacks, or the CRD has `preserveUnknownFields: true`.
 * @example
 * ```ts
 * import type { KubeObject } from "operator-runtime";
 * declare const crds: KubeObject[];
 * declare const deployment: KubeObject;
 * const added = webhookManifests(mgr, crds, deployment, { name: "greeting", namespace: "ops", certManager: true });
 * ```
 */
export function webhookManifests(mgr: Manager, crds: readonly KubeObject[], deployment: KubeObject, options: WebhookManifestOptions): WebhookManifests | undefined {
  const regs = withExportedPlurals(registrationsOf(mgr), crds);
  if (!regs.admission.length && !regs.conversion.length) return undefined;
  const { name, namespace } = options;
  const server = serverOf(mgr);
  if (!Number.isInteger(server.port) || server.port < 1 || server.port > 65535) {
    throw new GenerateError(`the Manager's webhook server ${server.port === 0 ? "uses an ephemeral port (webhook.port: 0)" : `has port ${server.port}`}: the Service needs a fixed one; `
      + `set webhook.port from 1 to 65535 (default ${DEFAULT_WEBHOOK_PORT})`);
  }
  const serviceName = `${name}-webhook`;
  if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(serviceName) || serviceName.length > 63) {
    throw new GenerateError(`the webhook Service would be named "${serviceName}", which kube-apiserver rejects (a Service name is a DNS-1035 label: `
      + "lowercase letters, digits and '-', starting with a letter, at most 63 characters); pass --name NAME of at most 55 such characters");
  }
  const secretName = `${name}-webhook-cert`;
  const certificateName = `${name}-webhook`;
  const target: WebhookTarget = { service: { namespace, name: serviceName, port: 443 } };
  const labels = { "app.kubernetes.io/name": name };
  const ca = options.certManager ? { certManager: { certificate: `${namespace}/${certificateName}` } } : options.caBundle !== undefined ? { caBundle: options.caBundle } : {};
  const podLabels = (deployment as { spec?: { template?: { metadata?: { labels?: Record<string, string> } } } }).spec?.template?.metadata?.labels ?? labels;

  const exported = new Map(crds.map((c) => [c.metadata?.name ?? "", c]));
  const withCrd = regs.conversion.filter((r) => exported.has(crdName(r)));
  const stubbed = regs.conversion.filter((r) => !exported.has(crdName(r)));
  let configurations: KubeObject[];
  try {
    configurations = webhookConfigurations({ admission: regs.admission, conversion: stubbed }, target, { name, labels, ...ca });
  } catch (err) {
    if (err instanceof OperatorRuntimeError) throw new GenerateError(err.message, { cause: err });
    throw err;
  }
  const outCrds = crds.map((crd) => {
    const reg = withCrd.find((r) => crdName(r) === crd.metadata?.name);
    return reg ? crdWithConversion(crd, reg, target, ca) : crd;
  });

  const before: KubeObject[] = [];
  if (options.certManager) {
    before.push(
      { apiVersion: "cert-manager.io/v1", kind: "Issuer", metadata: { name: `${name}-selfsigned`, namespace, labels }, spec: { selfSigned: {} } } as KubeObject,
      {
        apiVersion: "cert-manager.io/v1", kind: "Certificate", metadata: { name: certificateName, namespace, labels },
        spec: {
          secretName,
          dnsNames: [`${serviceName}.${namespace}.svc`, `${serviceName}.${namespace}.svc.cluster.local`],
          issuerRef: { kind: "Issuer", name: `${name}-selfsigned` },
        },
      } as KubeObject,
    );
  }
  before.push({
    apiVersion: "v1", kind: "Service", metadata: { name: serviceName, namespace, labels },
    // Not-ready pods get webhook calls too: a pod is ready once its caches synced, and listing
    // a converted kind may need this very conversion webhook (a deadlock otherwise). The server
    // answers as soon as it listens, on every replica.
    spec: { selector: { ...podLabels }, publishNotReadyAddresses: true, ports: [{ name: "webhook", port: 443, targetPort: "webhook-server", protocol: "TCP" }] },
  } as KubeObject);

  const notes: string[] = [];
  if (server.off) {
    notes.push("NOTE: the Manager is built with webhook: false, so the Deployment's pods serve no webhooks: the configurations printed point at a Service "
      + `no pod answers on port ${server.port}; remove webhook: false, or deploy the webhook server some other way`);
  }
  if (!options.certManager) {
    notes.push(`NOTE: the webhook server's certificate comes from Secret ${namespace}/${secretName}, which you provide (type kubernetes.io/tls, keys tls.crt and tls.key, `
      + `for DNS names ${serviceName}.${namespace}.svc and ${serviceName}.${namespace}.svc.cluster.local)`
      + (options.caBundle === undefined ? "; and set caBundle (the base64 of the CA that signed it) in the webhook configurations"
        + `${regs.conversion.length ? " and the CRDs' spec.conversion.webhook.clientConfig" : ""}, or run again with --ca-bundle FILE (or --cert-manager)` : ""));
  }
  for (const reg of stubbed) {
    notes.push(`NOTE: the module does not export the CRD ${crdName(reg)} that the conversion of ${reg.kind} needs: its spec.conversion is printed as a stub `
      + "to apply (kubectl apply --server-side --force-conflicts) once the CRD is installed; export the CRD as `crds` to have it set there instead");
  }
  return { crds: outCrds, before, after: configurations, deployment: withWebhookServer(deployment, server, secretName), notes };
}

/** `crd` with `spec.conversion` sending to the webhook server (and the inject-ca-from annotation), checked as kube-apiserver would. */
function crdWithConversion(crd: KubeObject, reg: ConversionRegistration, target: WebhookTarget,
  ca: { caBundle?: string; certManager?: { certificate: string } }): KubeObject {
  const copy = structuredClone(crd) as KubeObject & { spec?: { versions?: { name?: string }[]; conversion?: unknown } };
  const versions = new Set((copy.spec?.versions ?? []).map((v) => v.name));
  const wanted = [reg.options.hub, ...Object.keys(reg.options.spokes)];
  const missing = wanted.filter((v) => !versions.has(v));
  if (missing.length) {
    throw new GenerateError(`the conversion of ${reg.kind} (mgr.conversion) names version ${missing.join(", ")}, which CRD ${crdName(reg)} does not serve `
      + `(its versions: ${[...versions].join(", ") || "none"}); add the version to the CRD or remove it from the conversion's hub/spokes`);
  }
  copy.spec = { ...copy.spec, conversion: crdConversion(target, ca.caBundle === undefined ? {} : { caBundle: ca.caBundle }) };
  if (ca.certManager) {
    copy.metadata = { ...copy.metadata, annotations: { ...copy.metadata?.annotations, [INJECT_CA_FROM]: ca.certManager.certificate } };
  }
  const problems = manifestProblems(copy);
  if (problems.length) {
    throw new GenerateError(`CRD ${crdName(reg)} cannot convert by webhook as kube-apiserver would accept it:\n${problems.map((p) => `  ${p.field}: ${p.message}`).join("\n")}`
      + (problems.some((p) => p.message.includes("preserveUnknownFields")) ? "\n  (remove spec.preserveUnknownFields: true from the CRD; mark the fields that keep unknown fields with x-kubernetes-preserve-unknown-fields)" : ""));
  }
  return copy;
}

/** The Deployment with the webhook server's port and its certificate Secret mounted where the Manager reads it. */
function withWebhookServer(deployment: KubeObject, server: { port: number; certDir: string }, secretName: string): KubeObject {
  const copy = structuredClone(deployment) as KubeObject & { spec: { template: { spec: Pod } } };
  const pod = copy.spec.template.spec;
  const container = pod.containers[0]!;
  container.ports = [...(container.ports ?? []), { name: "webhook-server", containerPort: server.port, protocol: "TCP" }];
  container.volumeMounts = [...(container.volumeMounts ?? []), { name: "webhook-cert", mountPath: server.certDir, readOnly: true }];
  // A Manager without webhook.certDir reads this (without it, it would serve a generated certificate the API server does not trust).
  container.env = [...(container.env ?? []), { name: WEBHOOK_CERT_DIR_ENV, value: server.certDir }];
  pod.volumes = [...(pod.volumes ?? []), { name: "webhook-cert", secret: { secretName } }];
  return copy;
}

interface Pod {
  containers: { ports?: unknown[]; volumeMounts?: unknown[]; env?: { name: string; value: string }[] }[];
  volumes?: unknown[];
}

/**
 * The rules `gen rbac --webhook-ca-patch` adds to the ClusterRole: get, patch and update on the
 * configurations {@link webhookConfigurations} names `<name>-mutating` / `<name>-validating`
 * (those there are) and on the CRDs the Manager converts, each by name.
 *
 * @example
 * ```ts
 * webhookCaPatchRules(registrationsOf(mgr), "greeting");
 * // [{ apiGroups: ["admissionregistration.k8s.io"], resources: ["validatingwebhookconfigurations"], verbs: ["get", "patch", "update"], resourceNames: ["greeting-validating"] }, …]
 * ```
 */
export function webhookCaPatchRules(regs: WebhookRegistrations, name: string): PolicyRule[] {
  const verbs: PolicyRule["verbs"] = ["get", "patch", "update"];
  const rules: PolicyRule[] = [];
  for (const type of ["mutating", "validating"] as const) {
    if (regs.admission.some((r) => r.type === type)) {
      rules.push({ apiGroups: ["admissionregistration.k8s.io"], resources: [`${type}webhookconfigurations`], verbs: [...verbs], resourceNames: [`${name}-${type}`] });
    }
  }
  const crdNames = [...new Set(regs.conversion.map(crdName))].sort();
  if (crdNames.length) rules.push({ apiGroups: ["apiextensions.k8s.io"], resources: ["customresourcedefinitions"], verbs: [...verbs], resourceNames: crdNames });
  return rules;
}
