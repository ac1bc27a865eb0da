import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { schemaListType } from "../../../src/testing/crd/schema.ts";
import { FIXTURES, fixture, storageSchema } from "./fixtures.ts";

describe("schemaListType", () => {
  it("reads x-kubernetes-list-type set from a PodMonitor list", () => {
    const lookup = schemaListType(storageSchema(fixture(FIXTURES.podMonitors)));
    assert.deepEqual(lookup(["spec", "scrapeProtocols"]), { type: "set" });
    assert.deepEqual(lookup(["spec", "selector", "matchExpressions"]), { type: "atomic" });
  });

  it("reads map lists with their keys, also for a list nested inside list items", () => {
    const lookup = schemaListType(storageSchema(fixture(FIXTURES.prometheusRules)));
    assert.deepEqual(lookup(["spec", "groups"]), { type: "map", keys: ["name"] });
    assert.deepEqual(lookup(["status", "bindings"]), { type: "map", keys: ["group", "resource", "name", "namespace"] });
    assert.deepEqual(lookup(["status", "bindings", "conditions"]), { type: "map", keys: ["type"] });
  });

  it("answers atomic for undeclared lists and unknown paths", () => {
    const lookup = schemaListType(storageSchema(fixture(FIXTURES.prometheusRules)));
    assert.deepEqual(lookup(["spec", "groups", "rules"]), { type: "atomic" });
    assert.deepEqual(lookup(["spec", "nope", "deeper"]), { type: "atomic" });
    assert.deepEqual(schemaListType(undefined)(["spec"]), { type: "atomic" });
  });
});
