/**
 * The built-in kind types are client-node's models as plain JSON: that is only right while
 * every model property is named as its JSON field. client-node's attribute maps say both.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as k8s from "@kubernetes/client-node";

interface Attribute { name: string; baseName: string; type: string }
type Model = { getAttributeTypeMap(): Attribute[] };

/** The model classes the package types (src/kinds/builtin-kinds.ts) plus ObjectMeta. */
const TYPED = ["V1ConfigMap", "V1Secret", "V1Deployment", "V1StatefulSet", "V1Service", "V1PersistentVolumeClaim", "V1Pod", "V1ObjectMeta"];

/** Every (model, property) reachable from `roots` whose TS name differs from its JSON name. */
function renamedProperties(roots: string[]): { visited: number; renamed: string[] } {
  const models = k8s as unknown as Record<string, Model | undefined>;
  const seen = new Set<string>();
  const renamed: string[] = [];
  const visit = (type: string) => {
    const name = type.replace(/^Array<(.*)>$/, "$1").replace(/^\{ \[key: string\]: (.*); \}$/, "$1");
    const model = models[name];
    if (seen.has(name) || typeof model?.getAttributeTypeMap !== "function") return;
    seen.add(name);
    for (const a of model.getAttributeTypeMap()) {
      if (a.name !== a.baseName) renamed.push(`${name}.${a.name} (JSON ${a.baseName})`);
      visit(a.type);
    }
  };
  roots.forEach(visit);
  return { visited: seen.size, renamed };
}

test("every property of the typed built-in kinds has its JSON name in client-node's models", () => {
  const { visited, renamed } = renamedProperties(TYPED);
  assert.ok(visited > 100, `walked ${visited} nested models`);
  assert.deepEqual(renamed, []);
});

test("the check finds a renamed property: CRD schemas (JSONSchemaProps) are not typed from client-node", () => {
  const { renamed } = renamedProperties(["V1CustomResourceDefinition"]);
  assert.ok(renamed.some((r) => r.startsWith("V1JSONSchemaProps.")), renamed.join(", "));
});
