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
import type { KubeObject, Manager, ResourceClient } from "../src/index.ts";
import { isNotFound } from "../src/index.ts";

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
 * newer release installed.
 */
export async function installCrds(client: ResourceClient, crds: readonly KubeObject[], timeoutMs = 30_000): Promise<void> {
  const ref = (crd: KubeObject) => ({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: crd.metadata!.name! });
  for (const crd of crds) {
    try {
      await client.get(ref(crd));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await client.create(crd);
    }
  }
  const deadline = performance.now() + timeoutMs;
  for (const crd of crds) {
    for (;;) {
      const live = await client.get<KubeObject>(ref(crd));
      const conditions = ((live as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions) ?? [];
      if (conditions.some((c) => c.type === "Established" && c.status === "True")) break;
      if (performance.now() > deadline) throw new Error(`CRD ${crd.metadata!.name} was not Established within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
