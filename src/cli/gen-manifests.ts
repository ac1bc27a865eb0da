/**
 * `operator-runtime gen manifests MODULE --image IMG`: everything to deploy an operator — its
 * CRDs, its RBAC and a Deployment running it with probes on the Manager's health endpoints.
 */
import type { KubeObject } from "../kinds/kube-object.ts";
import type { Manager } from "../manager/manager.ts";
import type { GenCommand } from "./gen-command.ts";
import { nameOf, parseModuleArgs, rbacObjects, toYaml } from "./gen-rbac.ts";
import { GenerateError, loadOperatorModule } from "./operator-module.ts";
import { UsageError } from "./usage-error.ts";
import { OPERATOR_NODE_OPTIONS, memoryFor } from "./memory-sizing.ts";
import { readFileSync } from "node:fs";
import { DEFAULT_WEBHOOK_CERT_DIR, DEFAULT_WEBHOOK_PORT, webhookManifests } from "./gen-manifests-webhooks.ts";

/** `operator-runtime gen manifests --help`. */
export const GEN_MANIFESTS_USAGE = `usage: operator-runtime gen manifests MODULE --image IMG [--namespace NS] [--name NAME] [--replicas N] [--cached-objects N]
                                     [--cert-manager | --ca-bundle FILE]

Prints, as YAML, what deploys the operator that MODULE exports (see "gen rbac --help"):
its CustomResourceDefinitions (the module's \`crds\`), its ServiceAccount, roles and bindings
(as "gen rbac"), and a Deployment running IMG as that ServiceAccount, with liveness and
readiness probes on the Manager's /healthz and /readyz, a termination grace period longer than
a graceful stop's drain. The Manager must configure leader election or sharding, and a fixed
healthPort. The namespace must exist. The image's entrypoint runs the operator (e.g. CMD ["node", "dist/main.js"]).

When the Manager serves admission webhooks (mgr.webhook) or conversions (mgr.conversion), it
also prints the Service NAME-webhook (port 443 to the container's port webhook-server, ${DEFAULT_WEBHOOK_PORT}),
a MutatingWebhookConfiguration NAME-mutating and a ValidatingWebhookConfiguration
NAME-validating (sideEffects None, admissionReviewVersions v1, each webhook's failurePolicy,
matchPolicy, timeoutSeconds and selectors), and sets spec.conversion (strategy Webhook, path
/convert) on the CRDs it converts (a CRD the module does not export gets a stub holding only
spec.conversion: apply it with kubectl apply --server-side --force-conflicts once the CRD is
installed). The webhook server's certificate comes from Secret NAME-webhook-cert, mounted
read-only at the Manager's webhook.certDir (default ${DEFAULT_WEBHOOK_CERT_DIR}, which the
container's WEBHOOK_CERT_DIR names; webhook.port sets the container port): with --cert-manager,
cert-manager issues it (a self-signed Issuer and a Certificate for NAME-webhook.NS.svc and
NAME-webhook.NS.svc.cluster.local) and injects the CA into every caBundle
(cert-manager.io/inject-ca-from; cert-manager must be installed); without it, you create that
Secret (type kubernetes.io/tls, keys tls.crt and tls.key, for those DNS names) and every
caBundle must hold the CA that signed it: give --ca-bundle FILE, or set them yourself.

options:
  --image IMG      container image of the operator (required)
  --namespace NS   namespace of the Deployment and ServiceAccount (default "default")
  --name NAME      name of the Deployment, ServiceAccount, roles and bindings
                   (default: the Manager's field manager)
  --replicas N     replicas, 1 to 10 (default 1; with leader election more stand
                   by for the Lease, with sharding they split the work)
  --cached-objects N
                   how many objects its informers cache per replica (owners and
                   children, about 1 KiB each; count a 10 KiB object as ten): sizes
                   the memory request and limit (without it: request 128Mi, limit
                   512Mi). The container runs Node with NODE_OPTIONS=${OPERATOR_NODE_OPTIONS},
                   which replaces a NODE_OPTIONS the image sets (docs/performance.md, "Memory")
  --cert-manager   cert-manager issues the webhook certificate and injects its CA
  --ca-bundle FILE the PEM of the CA that signed the webhook Secret's certificate,
                   for every caBundle (without --cert-manager)
  -h, --help       print this help`;

/** What `gen manifests` was asked for. */
export interface ManifestArgs {
  module: string;
  image: string;
  namespace: string;
  name: string | undefined;
  replicas: number;
  /** Objects the operator's informers cache (per replica), for its memory request and limit; undefined: 128Mi / 512Mi. */
  cachedObjects: number | undefined;
  /** `--cert-manager`: cert-manager issues the webhook server's certificate and injects its CA. */
  certManager: boolean;
  /** `--ca-bundle FILE`: the file's path (its PEM fills every caBundle). */
  caBundle: string | undefined;
}

/**
 * Reads `gen manifests`' arguments.
 *
 * @throws {UsageError} for a missing MODULE or `--image`, an unknown option, a malformed name or
 *   replica count.
 * @example
 * ```ts
 * parseManifestArgs(["./operator.ts", "--image", "ghcr.io/me/op:1.0"]);
 * // { module: "./operator.ts", image: "ghcr.io/me/op:1.0", namespace: "default", name: undefined, replicas: 1, cachedObjects: undefined,
 * //   certManager: false, caBundle: undefined }
 * ```
 */
export function parseManifestArgs(args: readonly string[]): ManifestArgs {
  const { common, values, flags } = parseModuleArgs(args,
    { image: { type: "string" }, replicas: { type: "string" }, "cached-objects": { type: "string" }, "ca-bundle": { type: "string" } }, ["cert-manager"]);
  if (values.image === undefined || values.image.trim() === "" || /\s/.test(values.image)) {
    throw new UsageError(values.image === undefined ? "--image is required (the operator's container image)" : `--image must be an image reference without spaces, got "${values.image}"`);
  }
  const replicas = values.replicas === undefined ? 1 : /^\d+$/.test(values.replicas) ? Number(values.replicas) : Number.NaN;
  if (!(replicas >= 1 && replicas <= 10)) throw new UsageError(`--replicas must be an integer from 1 to 10, got "${values.replicas}"`);
  const cached = values["cached-objects"];
  const cachedObjects = cached === undefined ? undefined : /^\d+$/.test(cached) ? Number(cached) : Number.NaN;
  if (cachedObjects !== undefined && !(cachedObjects >= 0 && cachedObjects <= 10_000_000)) {
    throw new UsageError(`--cached-objects must be a whole number of objects from 0 to 10000000, got "${cached}"`);
  }
  const caBundle = values["ca-bundle"];
  if (caBundle !== undefined && flags["cert-manager"]) {
    throw new UsageError("--ca-bundle and --cert-manager exclude each other: with --cert-manager, cert-manager injects the CA");
  }
  if (caBundle === "") throw new UsageError("--ca-bundle needs a FILE (the PEM of the CA that signed the webhook certificate)");
  return { ...common, image: values.image, replicas, cachedObjects, certManager: flags["cert-manager"], caBundle };
}

/** The memory request and limit without `--cached-objects` (a limit of 512Mi holds about 65,000 cached objects). */
const DEFAULT_MEMORY = { request: "128Mi", limit: "512Mi" };

/** Seconds past the longest drain that the grace period adds: the cache stops, the Lease is released. */
const STOP_MARGIN_SECONDS = 15;

/**
 * The Deployment running a Manager: probes on its health port, a grace period longer than the
 * drain (the longest `reconcileTimeoutMs` of its controllers plus {@link STOP_MARGIN_SECONDS}),
 * a restricted security context, Node options for a lean heap and a memory request and limit
 * sized for `cachedObjects` (see `memoryFor`; without it 128Mi and 512Mi).
 *
 * @throws {GenerateError} when the Manager has neither leader election nor sharding, no health server, or an
 *   ephemeral health port, or a controller has no reconcile timeout (the drain is unbounded).
 */
export function operatorDeployment(mgr: Manager, options: { name: string; namespace: string; image: string; replicas: number; cachedObjects?: number | undefined }): KubeObject {
  if (!mgr.leaderElection && !mgr.sharding) {
    throw new GenerateError("the Manager has neither leader election nor sharding: deployed operators run with one of them (more than one replica, safely); give the Manager `leaderElection: { namespace, name }` or `sharding: { ring, namespace }`");
  }
  const port = mgr.healthPort;
  if (port === undefined || port === 0) {
    throw new GenerateError(`the Manager ${port === undefined ? "has no health server (healthPort: false)" : "uses an ephemeral health port (healthPort: 0)"}: probes need a fixed one; set healthPort (default 8080)`);
  }
  const timeouts = mgr.controllers().map((c) => c.reconcileTimeoutMs);
  const unbounded = mgr.controllers().filter((c) => c.reconcileTimeoutMs === 0).map((c) => c.name);
  if (unbounded.length) {
    throw new GenerateError(`controller ${unbounded.join(", ")} has no reconcile timeout (reconcileTimeoutMs 0), so a graceful stop's drain is unbounded; give it one`);
  }
  const drainSeconds = Math.ceil(Math.max(0, ...timeouts) / 1000);
  const memory = options.cachedObjects === undefined ? DEFAULT_MEMORY : memoryFor(options.cachedObjects);
  const labels = { "app.kubernetes.io/name": options.name };
  const probe = (path: string, periodSeconds: number, failureThreshold: number) => ({
    httpGet: { path, port: "health" }, periodSeconds, failureThreshold, timeoutSeconds: 2,
  });
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: options.name, namespace: options.namespace, labels },
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: options.name,
          terminationGracePeriodSeconds: drainSeconds + STOP_MARGIN_SECONDS,
          // uid/gid 1000: the `node` user of the official Node.js images, so that runAsNonRoot
          // holds for an image whose USER is a name or root.
          securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: "RuntimeDefault" } },
          containers: [{
            name: "operator",
            image: options.image,
            ports: [{ name: "health", containerPort: port, protocol: "TCP" }],
            livenessProbe: probe("/healthz", 10, 3),
            readinessProbe: probe("/readyz", 5, 1),
            // V8 sized for memory, not throughput: RSS stays near what the caches hold.
            env: [{ name: "NODE_OPTIONS", value: OPERATOR_NODE_OPTIONS }],
            resources: { requests: { cpu: "100m", memory: memory.request }, limits: { memory: memory.limit } },
            securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } },
          }],
        },
      },
    },
  } as KubeObject;
}

/** The `gen manifests` command. */
export const genManifests: GenCommand = {
  summary: "print CRDs, RBAC and a Deployment that run an operator in a cluster",
  usage: GEN_MANIFESTS_USAGE,
  async run(args) {
    const options = parseManifestArgs(args);
    const loaded = await loadOperatorModule(options.module);
    const name = nameOf(options.name, loaded);
    const deployment = operatorDeployment(loaded.manager, { name, namespace: options.namespace, image: options.image, replicas: options.replicas, cachedObjects: options.cachedObjects });
    const crds = loaded.crds.map(withoutServerFields);
    const rbac = rbacObjects(loaded, options.namespace, name);
    const webhooks = webhookManifests(loaded.manager, crds, deployment,
      { name, namespace: options.namespace, certManager: options.certManager, caBundle: options.caBundle === undefined ? undefined : readCaBundle(options.caBundle) });
    if (webhooks === undefined) {
      if (options.certManager || options.caBundle !== undefined) {
        process.stderr.write(`NOTE: ${options.certManager ? "--cert-manager" : "--ca-bundle"} has no effect: the Manager registers no webhooks or conversions\n`);
      }
      process.stdout.write(toYaml([...crds, ...rbac, deployment]));
      return 0;
    }
    for (const note of webhooks.notes) process.stderr.write(`${note}\n`);
    process.stdout.write(toYaml([...webhooks.crds, ...rbac, ...webhooks.before, webhooks.deployment, ...webhooks.after]));
    return 0;
  },
};

/** The PEM in `--ca-bundle FILE`. */
function readCaBundle(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new GenerateError(`--ca-bundle ${file}: cannot read it: ${(err as Error).message}`, { cause: err });
  }
  if (!text.includes("-----BEGIN CERTIFICATE-----")) {
    throw new GenerateError(`--ca-bundle ${file}: holds no PEM certificate (-----BEGIN CERTIFICATE-----); give the CA certificate that signed the webhook Secret's tls.crt`);
  }
  return text;
}

/** A CRD as a manifest: without the fields a server sets (status, uid, resourceVersion…). */
function withoutServerFields(crd: KubeObject): KubeObject {
  const { status: _status, ...rest } = crd as KubeObject & { status?: unknown };
  const { uid: _u, resourceVersion: _rv, creationTimestamp: _c, generation: _g, managedFields: _m, ...metadata } = rest.metadata ?? {};
  return { ...rest, metadata };
}
