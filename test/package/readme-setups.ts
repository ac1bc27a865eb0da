/**
 * What the programs of README.md and docs/*.md expect to find in the cluster they run against,
 * by the name their `doc-test` directive gives: the custom resource definitions and sample
 * objects the page's text says are installed.
 */
import { dataAppCrd } from "../../examples/dataapp/dataapp.ts";
import { greetingCrd } from "../kinds/fixtures.ts";
import type { KubeObject } from "../../src/index.ts";

/** Objects created, in order, before a program with that setup name starts. */
export const README_SETUPS: Readonly<Record<string, readonly KubeObject[]>> = {
  dataapp: [
    dataAppCrd,
    { apiVersion: "example.com/v1", kind: "DataApp", metadata: { name: "orders", namespace: "default" },
      spec: { image: "example/dataapp:1.0", replicas: 2, config: { "app.properties": "threads=4" }, scratch: "1Gi" } },
  ],
  memcached: [
    { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "memcacheds.cache.example.com" },
      spec: {
        group: "cache.example.com", scope: "Namespaced", names: { plural: "memcacheds", singular: "memcached", kind: "Memcached" },
        versions: [{ name: "v1", served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: "object", properties: {
          spec: { type: "object", properties: { size: { type: "integer" } } },
          status: { type: "object", properties: { nodes: { type: "array", items: { type: "string" } } } },
        } } } }],
      } },
    { apiVersion: "cache.example.com/v1", kind: "Memcached", metadata: { name: "cache", namespace: "default" }, spec: { size: 2 } },
  ],
  greeting: [
    greetingCrd,
    { apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "world", namespace: "default" }, spec: { name: "World" } },
  ],
};
