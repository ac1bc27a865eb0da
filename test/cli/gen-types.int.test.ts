/**
 * `operator-runtime gen types`, run for real from the sources (`node src/cli/main.ts gen types …`)
 * on the repository's real CRDs (Pinot, prometheus-operator, the examples') and on CRDs written
 * here for the cases those lack (several versions, top-level fields besides spec and status, a
 * root that keeps unknown fields, embedded resources). The generated modules, with a file that
 * uses them through the SDK's client, are type-checked with the repo's TypeScript (strict,
 * erasable syntax only), and `// @ts-expect-error` lines prove the types reject wrong values.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { complete } from "../support/cli.ts";
import { typecheck } from "../support/typecheck.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const PINOT = "examples/pinot/crds/datainfra.io_pinots.yaml";
const PROMETHEUS_RULES = "test/fixtures/crds/monitoring.coreos.com_prometheusrules.yaml";
const REAL_CRDS = [
  PINOT,
  PROMETHEUS_RULES,
  "test/fixtures/crds/monitoring.coreos.com_podmonitors.yaml",
  "examples/greeting/crds/greeting.yaml",
  "examples/greeting/crds/person.yaml",
  "examples/replicaset/crds/podsets.yaml",
  "examples/streams/crds/streams.example.com_jobs.yaml",
  "examples/streams/crds/streams.example.com_processingelements.yaml",
];

/** Runs `operator-runtime …` to its end. */
const cli = (args: string[]) => complete(args, { timeoutMs: 30_000 });

/** Runs `operator-runtime gen types …` to its end. */
const gen = (args: string[]) => cli(["gen", "types", ...args]);


/** A CRD manifest (apiextensions.k8s.io/v1) of `kind` in `group` with the given versions. */
function crd(kind: string, group: string, versions: object[], scope = "Namespaced"): object {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: { group, scope, names: { plural, singular: kind.toLowerCase(), kind }, versions },
  };
}

/** Widget: three versions (one deprecated, one not served) and every schema feature. */
const WIDGET = crd("Widget", "example.com", [
  {
    name: "v1alpha1",
    served: true,
    storage: false,
    deprecated: true,
    deprecationWarning: "example.com/v1alpha1 Widget is deprecated; use example.com/v1",
    schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "string" } } } } } },
  },
  {
    name: "v1",
    served: true,
    storage: true,
    schema: {
      openAPIV3Schema: {
        type: "object",
        description: "A widget, made to order.",
        properties: {
          apiVersion: { type: "string" },
          kind: { type: "string" },
          metadata: { type: "object" },
          spec: {
            type: "object",
            description: "What the widget should be.",
            required: ["size"],
            properties: {
              size: { type: "integer", format: "int64", minimum: 1, description: "How big, in */ units.\nAt least 1." },
              color: { type: "string", enum: ["red", "green", "blue"], default: "red" },
              port: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }], pattern: "^[a-z]+$" },
              note: { type: "string", nullable: true },
              labels: { type: "object", additionalProperties: { type: "string" } },
              extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { known: { type: "boolean" } } },
              anything: { "x-kubernetes-preserve-unknown-fields": true },
              template: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
              pruned: { type: "object" },
              either: { type: "object", oneOf: [{ required: ["a"] }, { required: ["b"] }], properties: { a: { type: "string" }, b: { type: "string" } } },
              ratios: { type: "array", maxItems: 2, items: { type: "number" } },
            },
          },
          status: { type: "object", properties: { phase: { type: "string", enum: ["Pending", "Ready"] }, observedGeneration: { type: "integer" } } },
        },
      },
    },
  },
  { name: "v2", served: false, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
]);

/** A served version `name` whose schema's root has `properties`; the storage version unless `storage` is false. */
const served = (name: string, properties: object, storage = true) => ({ name, served: true, storage, schema: { openAPIV3Schema: { type: "object", properties } } });

/** A spec with a `model` and a status with `ready`. */
const SPEC_AND_STATUS = {
  spec: { type: "object", properties: { model: { type: "string" } } },
  status: { type: "object", properties: { ready: { type: "boolean" } } },
};

/** Setting: cluster-scoped, `data` at the top level and no spec. */
const SETTING = crd(
  "Setting",
  "example.com",
  [
    {
      name: "v1",
      served: true,
      storage: true,
      schema: {
        openAPIV3Schema: {
          type: "object",
          required: ["data"],
          properties: { data: { type: "object", description: "The settings, by name.", additionalProperties: { type: "string" } } },
        },
      },
    },
  ],
  "Cluster",
);

/** Bag: a root that keeps unknown fields and describes nothing. */
const BAG = crd("Bag", "example.com", [
  { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } },
]);

const CONFIG_MAP = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "not-a-crd" }, data: { a: "b" } };

/** YAML documents (JSON is YAML), one per value; `null` for an empty document. */
const yamlDocuments = (...docs: (object | null)[]) => docs.map((d) => (d === null ? "" : JSON.stringify(d, null, 2))).join("\n---\n");

/** The program that uses the generated modules; each `@ts-expect-error` must meet an error. */
const USAGE = `
import type { ResourceClient } from "operator-runtime";
import { Bag } from "./out/bags.example.com.ts";
import { Greeting } from "./out/greetings.greeting.example.com.ts";
import { Pinot } from "./out/pinots.datainfra.io.ts";
import type { PinotSpec } from "./out/pinots.datainfra.io.ts";
import { PodSet } from "./out/podsets.replicaset.example.com.ts";
import type { PodSetSpec } from "./out/podsets.replicaset.example.com.ts";
import { PrometheusRule } from "./out/prometheusrules.monitoring.coreos.com.ts";
import { Setting } from "./out/settings.example.com.ts";
import { Widget, WidgetV1Alpha1 } from "./out/widgets.example.com.ts";
import type { WidgetSpec } from "./out/widgets.example.com.ts";

declare const client: ResourceClient;

export async function use(): Promise<void> {
  const rule: PrometheusRule = {
    ...PrometheusRule,
    metadata: { name: "rules", namespace: "default" },
    spec: { groups: [{ name: "g", rules: [{ record: "job:up:sum", expr: "sum(up) by (job)" }, { alert: "Down", expr: 0, for: "5m" }] }] },
  };
  await client.create(rule);
  const live = await client.get({ ...PrometheusRule, name: "rules", namespace: "default" });
  const expr: number | string | undefined = live.spec.groups?.[0]?.rules?.[0]?.expr;
  const accepted: "Accepted" | undefined = live.status?.bindings?.[0]?.conditions?.[0]?.type;
  // @ts-expect-error expr is int-or-string
  const boolExpr: PrometheusRule = { ...rule, spec: { groups: [{ name: "g", rules: [{ expr: true }] }] } };
  // @ts-expect-error a rule group's name is required
  const unnamed: PrometheusRule = { ...rule, spec: { groups: [{ rules: [] }] } };

  const greetings = await client.list(Greeting, { namespace: "default" });
  const status: "True" | "False" | "Unknown" | undefined = greetings.items[0]?.status?.conditions?.[0]?.status;
  // @ts-expect-error a condition status is one of the enum's values
  const maybe: Greeting = { ...Greeting, spec: {}, status: { conditions: [{ type: "Ready", status: "Maybe", reason: "R" }] } };

  const pinotSpec: PinotSpec = { deploymentOrder: [], k8sConfig: [], nodes: [], pinotNodeConfig: [] };
  // @ts-expect-error deploymentOrder is required
  const noOrder: PinotSpec = { k8sConfig: [], nodes: [], pinotNodeConfig: [] };
  // @ts-expect-error the Pinot CRD's status has no properties: the API server would drop this field
  const pinotStatus: Pinot["status"] = { phase: "Ready" };
  const pinots = await client.list(Pinot);
  const zk: string | undefined = pinots.items[0]?.spec.external?.zookeeper.spec.zkAddress;

  // template.spec and its containers keep unknown fields; the spec itself does not.
  const podSet: PodSetSpec = { template: { spec: { containers: [{ name: "c", image: "i", ports: [] }], restartPolicy: "Always" } } };
  // @ts-expect-error a misspelt field of a closed object
  const typo: PodSetSpec = { replcas: 2, template: { spec: { containers: [] } } };
  const podSets = await client.list(PodSet);

  const widget: WidgetSpec = {
    size: 3,
    color: "green",
    port: "http",
    note: null,
    labels: { a: "b" },
    extra: { known: true, whatever: [1] },
    anything: "any value",
    template: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x", labels: { a: "b" } }, data: {} },
    pruned: {},
    either: { a: "x" },
    ratios: [0.5, 0.25, 0.125],
  };
  // @ts-expect-error color is an enum
  const pink: WidgetSpec = { size: 1, color: "pink" };
  // @ts-expect-error an object without properties keeps nothing
  const kept: WidgetSpec = { size: 1, pruned: { a: 1 } };
  // @ts-expect-error an embedded resource needs its kind
  const kindless: WidgetSpec = { size: 1, template: { apiVersion: "v1" } };
  // @ts-expect-error size is required
  const sizeless: WidgetSpec = {};
  const old = await client.get({ ...WidgetV1Alpha1, name: "w", namespace: "default" });
  const oldSize: string | undefined = old.spec.size;
  const w = await client.get({ ...Widget, name: "w", namespace: "default" });
  const phase: "Pending" | "Ready" | undefined = w.status?.phase;

  const setting = await client.get({ ...Setting, name: "global" });
  const value: string | undefined = setting.data["log-level"];
  // @ts-expect-error a Setting has no spec
  const settingSpec = setting.spec;
  await client.create({ ...Setting, metadata: { name: "global" }, data: { "log-level": "debug" } });

  const bag = await client.get({ ...Bag, name: "b", namespace: "default" });
  const bagValue: unknown = bag.spec["anything"];
  console.log(expr, accepted, boolExpr, unnamed, status, maybe, pinotSpec, noOrder, pinotStatus, zk, podSet, typo, podSets, widget, pink, kept, kindless, sizeless, oldSize, phase, value, settingSpec, bagValue);
}
`;

describe("operator-runtime gen types", () => {
  let dir = "";
  let files: Record<"widget" | "all" | "clash" | "list" | "notCrd" | "badYaml" | "scalar" | "beta" | "unserved", string>;

  before(async () => {
    await mkdir(join(repo, ".tmp"), { recursive: true });
    dir = await mkdtemp(join(repo, ".tmp", "gen-types-"));
    const write = async (name: string, text: string) => {
      await writeFile(join(dir, name), text);
      return join(dir, name);
    };
    const otherWidget = crd("Widget", "other.example.com", [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }]);
    files = {
      widget: await write("widget.yaml", yamlDocuments(WIDGET)),
      all: await write("all.yaml", yamlDocuments(SETTING, CONFIG_MAP, null, BAG)),
      clash: await write("clash.yaml", yamlDocuments(otherWidget)),
      list: await write("list.yaml", yamlDocuments({ apiVersion: "v1", kind: "List", items: [SETTING, BAG] })),
      notCrd: await write("configmap.yaml", yamlDocuments(CONFIG_MAP)),
      badYaml: await write("bad.yaml", "spec:\n  group: [unclosed\n"),
      scalar: await write("scalar.yaml", `${yamlDocuments(BAG)}\n---\njust a string\n`),
      beta: await write("beta.yaml", yamlDocuments({ ...WIDGET, apiVersion: "apiextensions.k8s.io/v1beta1" })),
      unserved: await write("unserved.yaml", yamlDocuments(crd("Gone", "example.com", [{ name: "v1", served: false, storage: true }]))),
    };
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("types every real and constructed CRD so that a program using them through the client type-checks, and rejects wrong values", async () => {
    const out = join(dir, "check", "out");
    const r = await gen([...REAL_CRDS, files.widget, files.all, "--out", out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^wrote .*\/pinots\.datainfra\.io\.ts \(Pinot: v1beta1\)$/m);
    assert.match(r.stdout, /^wrote .*\/widgets\.example\.com\.ts \(Widget: v1alpha1, v1\)$/m);
    assert.match(r.stderr, /skipped .*all\.yaml \(document 2\): a ConfigMap, not a CustomResourceDefinition/);
    assert.deepEqual((await readdir(out)).sort(), [
      "bags.example.com.ts", "greetings.greeting.example.com.ts", "jobs.streams.example.com.ts", "people.greeting.example.com.ts",
      "pinots.datainfra.io.ts", "podmonitors.monitoring.coreos.com.ts", "podsets.replicaset.example.com.ts",
      "processingelements.streams.example.com.ts", "prometheusrules.monitoring.coreos.com.ts", "settings.example.com.ts", "widgets.example.com.ts",
    ]);
    await writeFile(join(dir, "check", "use.ts"), USAGE);
    assert.equal(await typecheck(join(dir, "check")), "");
  });

  it("with every spec, status and resource type `any` the same program fails to check: the expected errors come from the types", async () => {
    const check = join(dir, "loose");
    await mkdir(join(check, "out"), { recursive: true });
    const r = await gen([...REAL_CRDS, files.widget, files.all, "--out", join(check, "out")]);
    assert.equal(r.code, 0, r.stderr);
    for (const name of await readdir(join(check, "out"))) {
      const text = await readFile(join(check, "out", name), "utf8");
      // The same handles, made the same way, over `any` types.
      const handles = [...text.matchAll(/^export const (\w+) = runtime\.(?:defineKind|kindFromModel)<[^>]*>\(\{[^}]*\}\);$/gm)];
      const types = [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]).filter((n) => !handles.some((h) => h[1] === n));
      assert.ok(handles.length > 0 && types.length > 0, name);
      await writeFile(
        join(check, "out", name),
        [
          `import * as runtime from "operator-runtime";`,
          ...types.map((n) => `export type ${n} = any;`),
          ...handles.map((h) => `${h[0]}\nexport type ${h[1]} = runtime.ObjectOf<typeof ${h[1]}>;`),
        ].join("\n"),
      );
    }
    await writeFile(join(check, "use.ts"), USAGE);
    const errors = await typecheck(check);
    assert.deepEqual(errors.split("\n").filter((l) => /error TS/.test(l) && !/error TS2578:/.test(l)), [], "no other error");
    assert.equal((errors.match(/error TS2578: Unused '@ts-expect-error' directive/g) ?? []).length, (USAGE.match(/@ts-expect-error/g) ?? []).length, errors);
  });

  it("writes descriptions as TSDoc, required and optional fields, enums as unions, int-or-string, nullable, maps, kept unknown fields and embedded objects", async () => {
    const r = await gen([files.widget]);
    assert.equal(r.code, 0, r.stderr);
    const spec = /export interface WidgetSpec \{[\s\S]*?\n\}/.exec(r.stdout)?.[0] ?? "";
    assert.match(r.stdout, /\/\*\*\n \* What the widget should be\.\n \*\/\nexport interface WidgetSpec \{/);
    assert.match(spec, /\/\*\*\n {3}\* How big, in \*\\\/ units\.\n {3}\* At least 1\.\n {3}\*\/\n {2}size: number;/);
    assert.match(spec, /\* @defaultValue `"red"`\n {3}\*\/\n {2}color\?: "red" \| "green" \| "blue";/);
    assert.match(spec, /\n {2}port\?: number \| string;/);
    assert.match(spec, /\n {2}note\?: string \| null;/);
    assert.match(spec, /\n {2}labels\?: \{\n {4}\[k: string\]: string;\n {2}\};/);
    assert.match(spec, /\n {2}extra\?: \{\n {4}known\?: boolean;\n {4}\[k: string\]: unknown;\n {2}\};/);
    assert.match(spec, /\n {2}anything\?: unknown;/);
    assert.match(spec, /\n {2}template\?: \{\n {4}apiVersion: string;\n {4}kind: string;\n {4}metadata\?: runtime\.ObjectMeta;\n {4}\[k: string\]: unknown;\n {2}\};/);
    assert.match(spec, /\n {2}pruned\?: \{ \[k: string\]: never \};/);
    assert.match(spec, /\n {2}either\?: \{\n {4}a\?: string;\n {4}b\?: string;\n {2}\};/);
    assert.match(spec, /\n {2}ratios\?: number\[\];/);
    assert.doesNotMatch(spec, /^ {2}\[k: string\]/m, "the spec itself is closed");
    assert.match(r.stdout, /^import \* as runtime from "operator-runtime";$/m);
  });

  it("names the storage version after the kind and other served versions after themselves, skipping unserved ones", async () => {
    const r = await gen([files.widget]);
    assert.equal(r.code, 0, r.stderr);
    const exported = [...r.stdout.matchAll(/^export (interface|type|const) (\w+)/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(exported, [
      "interface WidgetV1Alpha1Spec", "const WidgetV1Alpha1", "type WidgetV1Alpha1",
      "interface WidgetSpec", "interface WidgetStatus", "const Widget", "type Widget",
    ]);
    assert.match(r.stdout, /export const WidgetV1Alpha1 = runtime\.defineKind<WidgetV1Alpha1Spec, never>\(\{\n {2}apiVersion: "example\.com\/v1alpha1",\n {2}kind: "Widget",\n\}\);/);
    assert.match(r.stdout, / \* @deprecated example\.com\/v1alpha1 Widget is deprecated; use example\.com\/v1\n \*\/\nexport const WidgetV1Alpha1/);
    assert.match(r.stdout, /\/\*\*\n \* A widget, made to order\.\n \*\n \* The handle of `example\.com\/v1` Widget \(namespaced, resource `widgets`\), the storage version\.\n \*\/\nexport const Widget = runtime\.defineKind<WidgetSpec, WidgetStatus>/);
    assert.match(r.stdout, /export type Widget = runtime\.ObjectOf<typeof Widget>;/);
    assert.doesNotMatch(r.stdout, /V2/);
  });

  it("types a resource with top-level fields besides spec and status as a whole object, and a root that keeps unknown fields as open spec and status", async () => {
    const r = await gen([files.all]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /export interface SettingResource \{\n {2}apiVersion\?: string;\n {2}kind\?: string;\n {2}metadata\?: runtime\.ObjectMeta;\n {2}\/\*\*\n {3}\* The settings, by name\.\n {3}\*\/\n {2}data: \{\n {4}\[k: string\]: string;\n {2}\};\n\}/);
    assert.match(r.stdout, /export const Setting = runtime\.kindFromModel<SettingResource>\(\{/);
    assert.match(r.stdout, /\(cluster-scoped, resource `settings`\)/);
    assert.match(r.stdout, /export interface BagSpec \{\n {2}\[k: string\]: unknown;\n\}/);
    assert.match(r.stdout, /export const Bag = runtime\.defineKind<BagSpec, BagStatus>/);
    assert.match(r.stdout, /^import \* as runtime from "operator-runtime";$/m);
    assert.match(r.stderr, /^operator-runtime gen types: skipped .*all\.yaml \(document 2\): a ConfigMap, not a CustomResourceDefinition$/m);
  });

  it("prints one module for several files and documents, which type-checks, the same on every run", async () => {
    const args = [PROMETHEUS_RULES, files.widget, files.all];
    const first = await gen(args);
    assert.equal(first.code, 0, first.stderr);
    assert.equal((first.stdout.match(/^import /gm) ?? []).length, 1);
    assert.match(first.stdout, /^\/\/ Generated by `operator-runtime gen types` from monitoring\.coreos\.com_prometheusrules\.yaml, widget\.yaml, all\.yaml\./);
    for (const name of ["PrometheusRule", "Widget", "WidgetV1Alpha1", "Setting", "Bag"]) assert.match(first.stdout, new RegExp(`^export const ${name} = `, "m"));
    const again = await gen(args);
    assert.equal(again.stdout, first.stdout);
    const check = join(dir, "one-module");
    await mkdir(check, { recursive: true });
    await writeFile(join(check, "types.ts"), first.stdout);
    await writeFile(join(check, "use.ts"), `import { Widget, Setting } from "./types.ts";\nexport const refs = [Widget, Setting];\n`);
    assert.equal(await typecheck(check), "");
  });

  it("reads the items of a List document", async () => {
    const r = await gen([files.list]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^export const Setting = /m);
    assert.match(r.stdout, /^export const Bag = /m);
  });

  it("replaces a file already in --out", async () => {
    const out = join(dir, "replace");
    await mkdir(out, { recursive: true });
    await writeFile(join(out, "widgets.example.com.ts"), "stale\n");
    const r = await gen([files.widget, "--out", out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `wrote ${join(out, "widgets.example.com.ts")} (Widget: v1alpha1, v1)\n`);
    assert.match(await readFile(join(out, "widgets.example.com.ts"), "utf8"), /^\/\/ Generated by `operator-runtime gen types` from widget\.yaml\./);
  });

  it("refuses two CRDs whose names clash in one module, and writes them with --out", async () => {
    const r = await gen([files.widget, files.clash]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /clash\.yaml \(CRD widgets\.other\.example\.com\): its type Widget clashes with the one from .*widget\.yaml \(CRD widgets\.example\.com\); generate one file per CRD with --out/);
    assert.equal(r.stdout, "");
    const out = join(dir, "clash-out");
    const ok = await gen([files.widget, files.clash, "--out", out]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual((await readdir(out)).sort(), ["widgets.example.com.ts", "widgets.other.example.com.ts"]);
  });

  it("names the types exactly after the kind, its digits and capitals as they are, and other served versions with the version as a suffix", async () => {
    const check = join(dir, "names");
    await mkdir(check, { recursive: true });
    const file = join(check, "names.yaml");
    await writeFile(
      file,
      yamlDocuments(
        crd("K8sGPT", "core.k8sgpt.ai", [served("v1alpha1", SPEC_AND_STATUS, false), served("v1", SPEC_AND_STATUS)]),
        crd("K8sCluster", "example.com", [served("v1", SPEC_AND_STATUS)]),
        crd("Foo2bar", "example.com", [served("v2beta1", SPEC_AND_STATUS, false), served("v1", SPEC_AND_STATUS)]),
        crd("my-kind", "example.com", [served("v1", SPEC_AND_STATUS)]),
        crd("K8sSetting", "example.com", [served("v1", { data: { type: "object", additionalProperties: { type: "string" } } })]),
      ),
    );
    const r = await gen([file]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([...r.stdout.matchAll(/^export (?:interface|type|const) (\w+)/gm)].map((m) => m[1]), [
      "K8sGPTV1Alpha1Spec", "K8sGPTV1Alpha1Status", "K8sGPTV1Alpha1", "K8sGPTV1Alpha1",
      "K8sGPTSpec", "K8sGPTStatus", "K8sGPT", "K8sGPT",
      "K8sClusterSpec", "K8sClusterStatus", "K8sCluster", "K8sCluster",
      "Foo2barV2Beta1Spec", "Foo2barV2Beta1Status", "Foo2barV2Beta1", "Foo2barV2Beta1",
      "Foo2barSpec", "Foo2barStatus", "Foo2bar", "Foo2bar",
      "MyKindSpec", "MyKindStatus", "MyKind", "MyKind",
      "K8sSettingResource", "K8sSetting", "K8sSetting",
    ]);
    assert.match(r.stdout, /export const K8sGPT = runtime\.defineKind<K8sGPTSpec, K8sGPTStatus>\(\{\n {2}apiVersion: "core\.k8sgpt\.ai\/v1",\n {2}kind: "K8sGPT",\n\}\);/);
    await writeFile(join(check, "types.ts"), r.stdout);
    await writeFile(
      join(check, "use.ts"),
      `import type { ResourceClient } from "operator-runtime";
import { Foo2bar, Foo2barV2Beta1, K8sCluster, K8sGPT, K8sGPTV1Alpha1, K8sSetting, MyKind } from "./types.ts";
import type { Foo2barSpec, K8sClusterStatus, K8sGPTSpec, K8sGPTStatus, K8sGPTV1Alpha1Spec, K8sSettingResource } from "./types.ts";

declare const client: ResourceClient;

export async function use(): Promise<void> {
  const spec: K8sGPTSpec = { model: "gpt" };
  const oldSpec: K8sGPTV1Alpha1Spec = spec;
  const gpt: K8sGPT = { ...K8sGPT, metadata: { name: "g", namespace: "default" }, spec };
  await client.create(gpt);
  const old = await client.get({ ...K8sGPTV1Alpha1, name: "g", namespace: "default" });
  const ready: boolean | undefined = old.status?.ready;
  const status: K8sGPTStatus | undefined = (await client.get({ ...K8sGPT, name: "g", namespace: "default" })).status;
  // @ts-expect-error model is a string
  const wrong: K8sGPTSpec = { model: 4 };
  const clusters = await client.list(K8sCluster);
  const clusterStatus: K8sClusterStatus | undefined = clusters.items[0]?.status;
  const foo: Foo2bar = { ...Foo2bar, metadata: { name: "f", namespace: "default" }, spec: { model: "m" } satisfies Foo2barSpec };
  const fooV2 = await client.list(Foo2barV2Beta1);
  const mine = await client.list(MyKind);
  const setting: K8sSettingResource = { ...K8sSetting, metadata: { name: "s" }, data: { a: "b" } };
  console.log(oldSpec, ready, status, wrong, clusterStatus, foo, fooV2, mine, setting);
}
`,
    );
    assert.equal(await typecheck(check), "");
  });

  it("types fields named constructor, toString, valueOf, hasOwnProperty and __proto__ as declared, at any depth, so object literals fit", async () => {
    const check = join(dir, "object-members");
    await mkdir(check, { recursive: true });
    const objectMembers = {
      constructor: { type: "string", description: "Who built it." },
      toString: { type: "string" },
      valueOf: { type: "integer" },
      hasOwnProperty: { type: "boolean" },
      isPrototypeOf: { type: "boolean" },
      ["__proto__"]: { type: "string" },
      plain: { type: "string" },
      parts: { type: "array", items: { type: "object", required: ["constructor"], properties: { constructor: { type: "string" }, toString: { type: "string" } } } },
    };
    const file = join(check, "odd.yaml");
    await writeFile(
      file,
      yamlDocuments(
        crd("Odd", "example.com", [served("v1", { spec: { type: "object", properties: objectMembers } })]),
        crd("Odder", "example.com", [served("v1", { spec: { type: "object", properties: { plain: { type: "string" } } }, constructor: { type: "string" } })]),
      ),
    );
    const r = await gen([file, "--out", join(check, "out")]);
    assert.equal(r.code, 0, r.stderr);
    const odd = await readFile(join(check, "out", "odds.example.com.ts"), "utf8");
    assert.match(odd, /\* Who built it\.\n {3}\*\n {3}\* Also typed as `Object`'s own `constructor`, [^\n]*\n {3}\*\/\n {2}constructor\?: string \| globalThis\.Object\["constructor"\];/);
    assert.match(odd, /\n {2}__proto__\?: string;/);
    assert.match(odd, /\n {2}hasOwnProperty\?: boolean \| globalThis\.Object\["hasOwnProperty"\];/);
    assert.match(odd, /\n {4}constructor: string;/, "a required field needs no widening");
    await writeFile(
      join(check, "use.ts"),
      `import type { ResourceClient } from "operator-runtime";
import { Odd } from "./out/odds.example.com.ts";
import type { OddSpec } from "./out/odds.example.com.ts";
import { Odder } from "./out/odders.example.com.ts";
import type { OdderResource } from "./out/odders.example.com.ts";

declare const client: ResourceClient;

export async function use(): Promise<void> {
  const built: OddSpec = { constructor: "x" };
  const empty: OddSpec = {};
  const plain: OddSpec = { plain: "p" };
  const all: OddSpec = { toString: "t", valueOf: 1, hasOwnProperty: true, isPrototypeOf: false, __proto__: "p", parts: [{ constructor: "c" }, { constructor: "d", toString: "e" }] };
  await client.create({ ...Odd, metadata: { name: "o", namespace: "default" }, spec: { constructor: "x" } });
  const odder: OdderResource = { ...Odder, metadata: { name: "o", namespace: "default" }, spec: { plain: "p" }, constructor: "top" };
  const live = await client.get({ ...Odd, name: "o", namespace: "default" });
  const builder: string | undefined = typeof live.spec.constructor === "string" ? live.spec.constructor : undefined;
  // @ts-expect-error constructor is a string
  const numbered: OddSpec = { constructor: 1 };
  // @ts-expect-error valueOf is an integer
  const text: OddSpec = { valueOf: "1" };
  // @ts-expect-error __proto__ is a string
  const proto: OddSpec = { __proto__: 1 };
  // @ts-expect-error a part's constructor is required
  const partless: OddSpec = { parts: [{ toString: "t" }] };
  console.log(built, empty, plain, all, odder, builder, numbered, text, proto, partless);
}
`,
    );
    assert.equal(await typecheck(check), "");
  });

  it("generates kinds named like the SDK's names or global types (Record, ObjectMeta, defineKind, Object, Array, Promise, String…), in one module and with --out", async () => {
    const check = join(dir, "taken-names");
    await mkdir(check, { recursive: true });
    const kinds = ["Record", "ObjectMeta", "ObjectOf", "defineKind", "kindFromModel", "Runtime", "Object", "Array", "Promise", "String", "Function", "Symbol"];
    const spec = {
      type: "object",
      properties: {
        template: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
        pruned: { type: "object" },
        size: { type: "integer" },
      },
    };
    // Every other kind has a top-level field, so both handles (defineKind, kindFromModel) are made.
    const file = join(check, "taken.yaml");
    await writeFile(file, yamlDocuments(...kinds.map((k, i) => crd(k, "example.com", [served("v1", i % 2 === 0 ? { spec } : { spec, data: { type: "string" } })]))));
    const one = await gen([file]);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /^export const Record = runtime\.defineKind<RecordSpec, never>/m);
    assert.match(one.stdout, /^export const ObjectMeta = runtime\.kindFromModel<ObjectMetaResource>/m);
    assert.match(one.stdout, /^export const DefineKind = runtime\.kindFromModel<DefineKindResource>/m);
    await writeFile(join(check, "types.ts"), one.stdout);
    const out = await gen([file, "--out", join(check, "out")]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal((await readdir(join(check, "out"))).length, kinds.length);
    await writeFile(
      join(check, "use.ts"),
      `import type { ResourceClient } from "operator-runtime";
import { Array as ArrayKind, DefineKind, Object as ObjectKind, ObjectMeta as ObjectMetaKind, Promise as PromiseKind, Record as RecordKind, String as StringKind } from "./types.ts";
import { Record as RecordFromOut } from "./out/records.example.com.ts";

declare const client: ResourceClient;

export async function use(): Promise<void> {
  const record: RecordKind = { ...RecordKind, metadata: { name: "r", namespace: "default" }, spec: { template: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } }, pruned: {} } };
  await client.create(record);
  const same: RecordFromOut = record;
  // @ts-expect-error an object without properties keeps nothing
  const kept: RecordKind = { ...record, spec: { pruned: { a: 1 } } };
  // @ts-expect-error an embedded resource's metadata is ObjectMeta
  const badMeta: RecordKind = { ...record, spec: { template: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: 1 } } } };
  const meta: ObjectMetaKind = { ...ObjectMetaKind, metadata: { name: "m", namespace: "default" }, spec: { size: 1 }, data: "d" };
  const objects = await client.list(ObjectKind);
  const size: number | undefined = objects.items[0]?.spec.size;
  const arrays = await client.list(ArrayKind, { namespace: "default" });
  const promise = await client.get({ ...PromiseKind, name: "p", namespace: "default" });
  const strings = await client.list(StringKind);
  const defined = await client.list(DefineKind);
  console.log(same, kept, badMeta, meta, size, arrays, promise, strings, defined, [1].map(String), Promise.resolve(Object.keys({})), Array.isArray([]));
}
`,
    );
    assert.equal(await typecheck(check), "");
  });

  it("refuses a CRD whose versions make the same type name, naming both versions", async () => {
    const file = join(dir, "twin.yaml");
    await writeFile(file, yamlDocuments(crd("Twin", "example.com", [served("v1-beta1", SPEC_AND_STATUS, false), served("v1beta1", SPEC_AND_STATUS, false), served("v1", SPEC_AND_STATUS)])));
    const r = await gen([file, "--out", join(dir, "twin-out")]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /^operator-runtime gen types: .*twin\.yaml: versions v1-beta1 and v1beta1 of CRD twins\.example\.com both make the type TwinV1Beta1Spec; gen types cannot name them apart$/m);
    assert.equal(r.stdout, "");
  });

  for (const [name, names, message] of [
    ["a plural that leaves --out", { plural: "../../escaped" }, /spec\.names\.plural "\.\.\/\.\.\/escaped" is not a DNS-1035 label \(lower-case letters/],
    ["an upper-case plural", { plural: "Gadgets" }, /spec\.names\.plural "Gadgets" is not a DNS-1035 label/],
    ["a group without a dot", { group: "example" }, /spec\.group "example" must be a domain with at least one dot/],
    ["a group with a path in it", { group: "a/../../b.example.com" }, /spec\.group "a\/\.\.\/\.\.\/b\.example\.com" is not a DNS-1123 subdomain/],
    ["a metadata.name other than <plural>.<group>", { name: "widgets.example.com" }, /metadata\.name "widgets\.example\.com" must be spec\.names\.plural\.spec\.group, "gadgets\.example\.com"/],
    ["a kind that is not a DNS-1035 label", { kind: "Gad_get" }, /spec\.names\.kind "Gad_get" is not a valid kind/],
    ["a version name that is not a DNS-1035 label", { version: "v1.0" }, /spec\.versions\[0\]\.name "v1\.0" is not a DNS-1035 label/],
  ] as const) {
    it(`${name}: refused as the API server would, naming the file and the field, exit 1, nothing written`, async () => {
      const check = join(dir, `bad-names-${name.replace(/\W+/g, "-")}`);
      await mkdir(check, { recursive: true });
      const n = { plural: "gadgets", group: "example.com", kind: "Gadget", version: "v1", ...names };
      const doc = {
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        // As the API server requires, unless the case is about it.
        metadata: { name: "name" in names ? names.name : `${n.plural}.${n.group}` },
        spec: { group: n.group, scope: "Namespaced", names: { plural: n.plural, kind: n.kind }, versions: [served(n.version, SPEC_AND_STATUS)] },
      };
      // A good CRD first: nothing is written for it either.
      await writeFile(join(check, "crd.yaml"), yamlDocuments(WIDGET, doc));
      const r = await gen([join(check, "crd.yaml"), "--out", join(check, "a", "b", "out")]);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, /^operator-runtime gen types: .*crd\.yaml \(document 2\): /);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /; the API server would refuse this CRD$/m);
      assert.equal(r.stdout, "");
      assert.deepEqual(await readdir(check, { recursive: true }), ["crd.yaml"], "nothing written, inside --out or out of it");
    });
  }

  it("--help prints the usage and exits 0; gen --help lists types", async () => {
    const r = await gen(["--help"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^usage: operator-runtime gen types CRD\.yaml\.\.\. \[--out DIR\]/);
    assert.match(r.stdout, /^ {2}--out DIR /m);
    const list = await cli(["gen", "--help"]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^ {2}types +TypeScript types and kind handles from CRD files$/m);
  });

  for (const [args, message] of [
    [[], /gen types needs at least one CRD file/],
    [["--nosuch", PINOT], /'--nosuch'/],
    [[PINOT, "--out"], /--out/],
    [[PINOT, "--out", ""], /--out needs a folder/],
  ] as const) {
    it(`refuses ${args.map((a) => a || '""').join(" ") || "no file"} with the usage on stderr, exit 2`, async () => {
      const r = await gen([...args]);
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /usage: operator-runtime gen types/);
      assert.equal(r.stdout, "");
    });
  }

  for (const [name, file, message] of [
    ["a missing file", () => join(dir, "nosuch.yaml"), /^operator-runtime gen types: cannot read .*nosuch\.yaml: ENOENT/],
    ["a file without a CRD", () => files.notCrd, /^operator-runtime gen types: .*configmap\.yaml: no CustomResourceDefinition in it \(found ConfigMap\)$/m],
    ["a resource that is not a CRD", () => join(repo, "examples/pinot/samples", "pinot-basic.yaml"), /no CustomResourceDefinition in it \(found Pinot\)/],
    ["invalid YAML", () => files.badYaml, /^operator-runtime gen types: .*bad\.yaml is not valid YAML: /],
    ["a document that is not an object", () => files.scalar, /scalar\.yaml \(document 2\): not a Kubernetes object \(no apiVersion and kind\)/],
    ["a v1beta1 CRD", () => files.beta, /beta\.yaml: apiVersion apiextensions\.k8s\.io\/v1beta1 is not supported: convert the CRD to apiextensions\.k8s\.io\/v1/],
    ["a CRD serving no version", () => files.unserved, /unserved\.yaml: the CRD serves no version/],
    ["a CRD given twice", () => files.widget, /widget\.yaml: CRD widgets\.example\.com is given twice/],
  ] as const) {
    it(`${name}: names the file and the problem, exit 1, no stack trace`, async () => {
      const args = name === "a CRD given twice" ? [file(), file()] : [file()];
      const r = await gen(args);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
      assert.equal(r.stdout, "");
    });
  }
});
