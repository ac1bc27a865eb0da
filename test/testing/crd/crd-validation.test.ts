import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { crdDefaults, crdVersions, validateCrd } from "../../../src/testing/crd/crd-validation.ts";
import type { KubeObject } from "../../../src/testing/resource-type.ts";
import { StatusError } from "../../../src/testing/status.ts";
import { FIXTURES, causesOf, fixture } from "./fixtures.ts";

/** A small valid CRD; `edit` changes a deep copy. */
function widgetCrd(edit: (crd: any) => void = () => {}): KubeObject {
  const crd: any = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { kind: "Widget", plural: "widgets" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object" } } } },
        },
      ],
    },
  };
  edit(crd);
  return crd;
}

function fields(crd: KubeObject): string[] {
  return causesOf(() => validateCrd(crd)).map((c) => `${c.field}: ${c.message}`);
}

describe("validateCrd", () => {
  for (const name of [FIXTURES.podMonitors, FIXTURES.prometheusRules, FIXTURES.pinots]) {
    it(`accepts the real CRD ${name}`, () => {
      assert.doesNotThrow(() => validateCrd(fixture(name)));
    });
  }

  it("accepts a minimal CRD without singular or listKind", () => {
    assert.doesNotThrow(() => validateCrd(widgetCrd()));
  });

  it("rejects a name that is not <plural>.<group> with a 422 naming the CRD", () => {
    const crd = widgetCrd((c) => (c.metadata.name = "widget.example.com"));
    let thrown: unknown;
    try {
      validateCrd(crd);
    } catch (err) {
      thrown = err;
    }
    assert.ok(thrown instanceof StatusError);
    assert.equal(thrown.code, 422);
    assert.equal(thrown.details?.kind, "CustomResourceDefinition");
    assert.equal(thrown.details?.group, "apiextensions.k8s.io");
    assert.equal(
      thrown.message,
      'CustomResourceDefinition.apiextensions.k8s.io "widget.example.com" is invalid: metadata.name: Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group',
    );
  });

  it("rejects two storage versions", () => {
    const crd = widgetCrd((c) => c.spec.versions.push({ ...c.spec.versions[0], name: "v2" }));
    // kube-apiserver also judges status.storedVersions against the versions (the fixture's is ["v1"]).
    assert.deepEqual(fields(crd), [
      'spec.versions: Invalid value: "array": must have exactly one version marked as storage version',
      'status.storedVersions: Invalid value: ["v1"]: must have the storage version v2',
    ]);
  });

  it("rejects two versions with the same name", () => {
    const crd = widgetCrd((c) => c.spec.versions.push({ ...c.spec.versions[0], storage: false }));
    assert.deepEqual(fields(crd), ['spec.versions: Invalid value: "array": must contain unique version names']);
  });

  it("rejects a CRD without versions, and one without a served version", () => {
    assert.deepEqual(fields(widgetCrd((c) => (c.spec.versions = []))), [
      "spec.versions: Required value: must have at least one version",
      "status.storedVersions: Invalid value: null: must have at least one stored version",
    ]);
    assert.deepEqual(fields(widgetCrd((c) => (c.spec.versions[0].served = false))), [
      'spec.versions: Invalid value: "array": must have at least one version marked as served',
    ]);
  });

  it("rejects a version without a schema or with a non-object root", () => {
    assert.deepEqual(fields(widgetCrd((c) => delete c.spec.versions[0].schema)), [
      "spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required",
    ]);
    assert.deepEqual(fields(widgetCrd((c) => (c.spec.versions[0].schema.openAPIV3Schema = { type: "string" }))), [
      // kube-apiserver reports a schema that every version shares under spec.validation.
      'spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root',
    ]);
    assert.deepEqual(fields(widgetCrd((c) => (c.spec.versions[0].schema.openAPIV3Schema = { properties: {} }))), [
      "spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root",
    ]);
  });

  it("rejects a scope other than Namespaced or Cluster", () => {
    assert.deepEqual(fields(widgetCrd((c) => (c.spec.scope = "Global"))), [
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ]);
  });

  it("requires names.kind and names.plural, and a lower-case DNS label as plural", () => {
    const missing = fields(
      widgetCrd((c) => {
        c.spec.names = {};
        c.metadata.name = ".example.com";
      }),
    );
    assert.deepEqual(missing, ["spec.names.plural: Required value", "spec.names.kind: Required value"]);
    const upper = causesOf(() =>
      validateCrd(
        widgetCrd((c) => {
          c.spec.names.plural = "Widgets";
          c.metadata.name = "Widgets.example.com";
        }),
      ),
    );
    assert.deepEqual(
      upper.map((c) => c.field),
      ["spec.names.plural"],
    );
    assert.match(upper[0]!.message!, /^Invalid value: "Widgets": a DNS-1035 label must consist of lower case/);
  });

  it("requires a group with at least one dot", () => {
    const causes = fields(
      widgetCrd((c) => {
        c.spec.group = "example";
        c.metadata.name = "widgets.example";
      }),
    );
    assert.deepEqual(causes, ['spec.group: Invalid value: "example": should be a domain with at least one dot']);
  });

  it("rejects a scale subresource without replica paths", () => {
    const crd = widgetCrd((c) => (c.spec.versions[0].subresources = { scale: { specReplicasPath: "spec.replicas" } }));
    assert.deepEqual(fields(crd), [
      'spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": should be a json path under .spec',
      "spec.subresources.scale.statusReplicasPath: Required value",
    ]);
  });

  it("reports every problem of a CRD at once", () => {
    const crd = widgetCrd((c) => {
      c.metadata.name = "wrong";
      c.spec.versions.push({ name: "v2", served: true, storage: true });
    });
    assert.deepEqual(
      causesOf(() => validateCrd(crd)).map((c) => c.field),
      ["metadata.name", "spec.versions[1].schema.openAPIV3Schema", "spec.versions", "status.storedVersions"],
    );
  });
});

describe("crdDefaults", () => {
  it("fills singular, listKind, conversion and an Established status with accepted names", () => {
    const crd = widgetCrd();
    const out = crdDefaults(crd, new Date("2025-01-02T03:04:05.678Z"));
    const spec = out["spec"] as any;
    assert.equal(spec.names.singular, "widget");
    assert.equal(spec.names.listKind, "WidgetList");
    assert.deepEqual(spec.conversion, { strategy: "None" });
    const at = "2025-01-02T03:04:05Z";
    assert.deepEqual(out["status"], {
      conditions: [
        { type: "NamesAccepted", status: "True", reason: "NoConflicts", message: "no conflicts found", lastTransitionTime: at },
        { type: "Established", status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted", lastTransitionTime: at },
      ],
      acceptedNames: { kind: "Widget", plural: "widgets", singular: "widget", listKind: "WidgetList" },
      storedVersions: ["v1"],
    });
    assert.equal((crd["spec"] as any).names.singular, undefined, "the input is not modified");
  });

  it("keeps names that are set, and the stored versions and transition times of the previous object", () => {
    const first = crdDefaults(fixture(FIXTURES.pinots), "2025-01-01T00:00:00Z");
    const moved = fixture(FIXTURES.pinots) as any;
    moved.spec.versions[0].storage = false;
    moved.spec.versions.push({ ...moved.spec.versions[0], name: "v1", storage: true });
    const second = crdDefaults(moved, "2025-06-01T00:00:00Z", first) as any;
    assert.deepEqual(second.status.storedVersions, ["v1beta1", "v1"]);
    assert.deepEqual(
      second.status.conditions.map((c: any) => c.lastTransitionTime),
      ["2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z"],
    );
    assert.equal(second.status.acceptedNames.listKind, "PinotList");
  });
});

describe("crdVersions", () => {
  it("describes the Pinot CRD's one served version with its status subresource and Age column", () => {
    const versions = crdVersions(fixture(FIXTURES.pinots));
    assert.equal(versions.length, 1);
    const [v1beta1] = versions;
    assert.equal(v1beta1!.name, "v1beta1");
    assert.equal(v1beta1!.storage, true);
    assert.equal(v1beta1!.statusSubresource, true);
    assert.equal(v1beta1!.scale, undefined);
    assert.equal(v1beta1!.schema["type"], "object");
    assert.deepEqual(v1beta1!.printerColumns, [{ name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" }]);
  });

  it("describes both prometheus-operator CRDs", () => {
    for (const name of [FIXTURES.podMonitors, FIXTURES.prometheusRules]) {
      const versions = crdVersions(fixture(name));
      assert.deepEqual(
        versions.map((v) => [v.name, v.storage, v.statusSubresource, v.printerColumns.length]),
        [["v1", true, true, 0]],
      );
    }
  });

  it("leaves out unserved versions and maps scale and printer columns", () => {
    const crd = widgetCrd((c) => {
      c.spec.versions[0].subresources = {
        status: {},
        scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" },
      };
      c.spec.versions[0].additionalPrinterColumns = [
        { name: "Size", type: "integer", jsonPath: ".spec.size", description: "how big", priority: 1 },
      ];
      c.spec.versions.push({ ...c.spec.versions[0], name: "v1alpha1", served: false, storage: false });
    });
    validateCrd(crd);
    const versions = crdVersions(crd);
    assert.deepEqual(
      versions.map((v) => v.name),
      ["v1"],
    );
    assert.deepEqual(versions[0]!.scale, { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" });
    assert.deepEqual(versions[0]!.printerColumns, [{ name: "Size", type: "integer", jsonPath: ".spec.size", description: "how big", priority: 1 }]);
  });
});
