/**
 * What every example operator exports, so that `npm run example -- <name>`, `npm run demo` and
 * the tests run them the same way, plus the two things each needs around it: its YAML files and
 * its CRDs installed.
 *
 * An example lives in `examples/<name>/`: `crds/*.yaml`, `samples/*.yaml`, a README, and
 * `operator.ts`, which exports `operator: ExampleOperator`.
 */
import { readFileSync, readdirSync } from "node:fs";
import { loadAll } from "js-yaml";
import type { KubeObject, ManagerOptions, ResourceClient } from "../src/index.ts";
import { AlreadyExistsError, ForbiddenError } from "../src/entries/client.ts";
import { KubeConfig, Manager, isNotFound } from "../src/index.ts";

/** One example operator, as the runner, the demo and the tests use it. */
export interface ExampleOperator {
  /** Its name: `npm run example -- <name>`. */
  readonly name: string;
  /** One line on what it does. */
  readonly description: string;
  /** Its CustomResourceDefinitions (from `crds/*.yaml`). */
  readonly crds: readonly KubeObject[];
  /** Its sample resources (from `samples/*.yaml`), in the order the demo applies them. */
  readonly samples: readonly KubeObject[];
  /**
   * Adds the operator's controllers (and any cache indexes they read) to a Manager that has not
   * started yet. Every example shares the Manager with the others in the demo, so controller
   * names are prefixed with the example's name.
   */
  register(mgr: Manager): void;
}

/**
 * Every object in the YAML files of a folder (sorted by file name; `---`-separated documents,
 * empty ones skipped). Pass a URL relative to the calling module, e.g.
 * `new URL("./crds/", import.meta.url)`.
 */
export function loadYamlFolder(folder: URL): KubeObject[] {
  const files = readdirSync(folder).filter((f) => f.endsWith(".yaml") || f.endsWith(".yml")).sort();
  return files.flatMap((f) => loadYamlFile(new URL(f, folder)));
}

/** Every object in one YAML file (empty documents skipped). */
export function loadYamlFile(file: URL): KubeObject[] {
  const docs = loadAll(readFileSync(file, "utf8"));
  return docs.filter((d): d is KubeObject => typeof d === "object" && d !== null && !Array.isArray(d));
}

/**
 * Creates the CRDs the cluster does not have yet and waits (at most `timeoutMs`) until each is
 * Established. CRDs that exist are left as they are: an operator never downgrades a CRD that a
 * newer release installed. A create answered 409 AlreadyExists counts as done (another process
 * installed it meanwhile). An operator without RBAC on CRDs (403 on the get) assumes they are
 * installed: it warns through `warn` and does not wait for them. The timeout error names the
 * CRD's `NamesAccepted` and `Established` conditions (reason and message).
 */
export async function installCrds(client: ResourceClient, crds: readonly KubeObject[], timeoutMs = 30_000,
  warn: (message: string) => void = (m) => console.warn(m)): Promise<void> {
  const ref = (crd: KubeObject) => ({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: crd.metadata!.name! });
  const unreadable = new Set<string>();
  for (const crd of crds) {
    try {
      await client.get(ref(crd));
    } catch (err) {
      if (err instanceof ForbiddenError) {
        unreadable.add(crd.metadata!.name!);
        warn(`cannot read CRD ${crd.metadata!.name} (403 Forbidden: no RBAC on customresourcedefinitions); assuming it is installed`);
        continue;
      }
      if (!isNotFound(err)) throw err;
      try {
        await client.create(crd);
      } catch (createErr) {
        if (!(createErr instanceof AlreadyExistsError)) throw createErr; // another process created it meanwhile
      }
    }
  }
  const deadline = performance.now() + timeoutMs;
  for (const crd of crds) {
    if (unreadable.has(crd.metadata!.name!)) continue;
    for (;;) {
      const live = await client.get<KubeObject>(ref(crd));
      const conditions = ((live as { status?: { conditions?: CrdCondition[] } }).status?.conditions) ?? [];
      if (conditions.some((c) => c.type === "Established" && c.status === "True")) break;
      if (performance.now() > deadline) {
        throw new Error(`CRD ${crd.metadata!.name} was not Established within ${timeoutMs} ms: ${describeCrdConditions(conditions)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A CRD status condition. */
export interface CrdCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/**
 * The CRD's `NamesAccepted` and `Established` conditions for an error message, e.g.
 * `NamesAccepted=False (ListKindConflict: "FooList" is already in use); Established: not reported`.
 */
export function describeCrdConditions(conditions: readonly CrdCondition[]): string {
  return ["NamesAccepted", "Established"].map((type) => {
    const c = conditions.find((x) => x.type === type);
    if (!c) return `${type}: not reported`;
    return `${type}=${c.status}${c.reason ? ` (${c.reason}${c.message ? `: ${c.message}` : ""})` : ""}`;
  }).join("; ");
}

/**
 * A Manager running one example operator as it would run in a cluster: field manager
 * `<name>-operator`, leader election on the Lease `<name>-operator` in `default`, the health
 * server on 8080. `options` override any of that (tests pass a kubeconfig and ephemeral ports).
 * `operator-runtime gen rbac examples/<name>/manager.ts` reads the RBAC from it.
 */
export function exampleManager(operator: ExampleOperator, options: Partial<ManagerOptions> = {}): Manager {
  const kubeConfig = options.kubeConfig ?? defaultKubeConfig();
  const mgr = new Manager({
    fieldManager: `${operator.name}-operator`,
    leaderElection: { namespace: "default", name: `${operator.name}-operator` },
    ...options,
    kubeConfig,
  });
  operator.register(mgr);
  return mgr;
}

/** The kubeconfig client tools would use (`$KUBECONFIG`, `~/.kube/config`, or in-cluster). */
function defaultKubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromDefault();
  return kc;
}
