/**
 * Shared test data for the CRD tests: the real CRDs and CR in `test/fixtures/`, read as they
 * are, and a helper to catch the 422 a step throws.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadAll } from "js-yaml";
import type { KubeObject } from "../../../src/testing/resource-type.ts";
import { StatusError } from "../../../src/testing/status.ts";
import type { StatusCause } from "../../../src/testing/status.ts";
import { crdVersions } from "../../../src/testing/crd/crd-validation.ts";
import type { JsonSchema } from "../../../src/testing/crd/schema.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** `test/fixtures/`: real-world CRDs, copied unchanged (origins in its README). */
export const fixturesDir = path.resolve(repoRoot, "test/fixtures");

/** The one Kubernetes object in a fixture YAML file (empty `---` documents are skipped). */
export function fixture(relative: string): KubeObject {
  const docs = loadAll(readFileSync(path.join(fixturesDir, relative), "utf8")).filter((d) => d !== null && d !== undefined);
  assert.equal(docs.length, 1, `${relative} holds one document`);
  return docs[0] as KubeObject;
}

/** The storage version's `openAPIV3Schema` of a CRD. */
export function storageSchema(crd: KubeObject): JsonSchema {
  const version = crdVersions(crd).find((v) => v.storage);
  assert.ok(version, "the CRD has a served storage version");
  return version.schema;
}

/** Runs `fn`, expects a 422 Invalid StatusError and returns its causes. */
export function causesOf(fn: () => unknown): StatusCause[] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
    assert.equal(err.code, 422);
    assert.equal(err.reason, "Invalid");
    return err.details?.causes ?? [];
  }
  assert.fail("expected a 422 Invalid error");
}

/**
 * The fixture paths used by the tests, relative to {@link fixturesDir}. The Pinot CRD and CR
 * live once in the repository, in the pinot example (`examples/pinot/crds/`, `samples/`; origin
 * and licence in its README), and the tests read that copy.
 */
export const FIXTURES = {
  podMonitors: "crds/monitoring.coreos.com_podmonitors.yaml",
  prometheusRules: "crds/monitoring.coreos.com_prometheusrules.yaml",
  pinots: "../../examples/pinot/crds/datainfra.io_pinots.yaml",
  pinotBasic: "../../examples/pinot/samples/pinot-basic.yaml",
} as const;
