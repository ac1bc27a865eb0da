/**
 * Built-in kind validation (src/testing/kinds/validation.ts): a table of invalid objects and the
 * causes kube-apiserver v1.36 reports for them — field paths, reasons and messages, in its order.
 * Objects here are as LocalCluster validates them: after its defaulting (replicas, strategy,
 * restartPolicy, port protocols…), so defaulted fields are mostly left out.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { builtinCauses } from "../../src/testing/kinds/validation.ts";
import { cronScheduleError } from "../../src/testing/kinds/validation/cronjob.ts";
import type { KubeObject, ResourceType } from "../../src/testing/resource-type.ts";
import type { StatusCause } from "../../src/testing/status.ts";
import { StatusError } from "../../src/testing/status.ts";

const GROUPS: Record<string, [string, string]> = {
  Pod: ["", "v1"],
  Service: ["", "v1"],
  PersistentVolumeClaim: ["", "v1"],
  Secret: ["", "v1"],
  ConfigMap: ["", "v1"],
  Deployment: ["apps", "v1"],
  ReplicaSet: ["apps", "v1"],
  StatefulSet: ["apps", "v1"],
  DaemonSet: ["apps", "v1"],
  Job: ["batch", "v1"],
  CronJob: ["batch", "v1"],
  Ingress: ["networking.k8s.io", "v1"],
  NetworkPolicy: ["networking.k8s.io", "v1"],
  PodDisruptionBudget: ["policy", "v1"],
};

function typeOf(kind: string): ResourceType {
  const [group, version] = GROUPS[kind]!;
  return { kind, group, version, builtin: true } as unknown as ResourceType;
}

const causesOf = (kind: string, obj: KubeObject, old?: KubeObject): StatusCause[] => builtinCauses(typeOf(kind), obj, old);

const container = (extra: Record<string, unknown> = {}) => ({ name: "c", image: "nginx:1.25", ...extra });
const podSpec = (extra: Record<string, unknown> = {}) => ({ containers: [container()], restartPolicy: "Always", ...extra });

/** A valid Deployment as LocalCluster has it after defaulting; `mutate` breaks it. */
function deployment(mutate: (d: any) => void = () => {}): KubeObject {
  const d: any = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web" },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: podSpec({ containers: [container({ ports: [{ containerPort: 80, protocol: "TCP" }] })] }) },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } },
    },
  };
  mutate(d);
  return d;
}

const C = "spec.template.spec.containers[0]";
const DNS_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character " +
  "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const inv = (field: string, message: string): StatusCause => ({ reason: "FieldValueInvalid", field, message });
const req = (field: string, detail = ""): StatusCause => ({ reason: "FieldValueRequired", field, message: detail ? `Required value: ${detail}` : "Required value" });
const dup = (field: string, message: string): StatusCause => ({ reason: "FieldValueDuplicate", field, message });
const unsupported = (field: string, message: string): StatusCause => ({ reason: "FieldValueNotSupported", field, message });
const forb = (field: string, message: string): StatusCause => ({ reason: "FieldValueForbidden", field, message });
const nf = (field: string, message: string): StatusCause => ({ reason: "FieldValueNotFound", field, message });

/** [title, kind, object, expected causes in order]. */
const CASES: [string, string, KubeObject, StatusCause[]][] = [
  ["valid Deployment", "Deployment", deployment(), []],
  // The recorded kube-apiserver 1.36.2 answers (test/conformance, errors/422 Deployment …).
  [
    "several causes, in kube's order",
    "Deployment",
    deployment((d) => {
      d.spec.selector = { matchLabels: { app: "other" } };
      d.spec.replicas = -1;
      d.spec.template.spec.containers[0].image = "";
      d.spec.template.spec.containers[0].ports = [{ containerPort: 70000 }];
    }),
    [
      inv("spec.replicas", "Invalid value: -1: must be greater than or equal to 0"),
      inv("spec.template.metadata.labels", 'Invalid value: {"app":"web"}: `selector` does not match template `labels`'),
      req(`${C}.image`),
      inv(`${C}.ports[0].containerPort`, "Invalid value: 70000: must be between 1 and 65535, inclusive"),
    ],
  ],
  ["replicas=-1", "Deployment", deployment((d) => (d.spec.replicas = -1)), [inv("spec.replicas", "Invalid value: -1: must be greater than or equal to 0")]],
  ["image empty", "Deployment", deployment((d) => (d.spec.template.spec.containers[0].image = "")), [req(`${C}.image`)]],
  [
    "container name with caps",
    "Deployment",
    deployment((d) => (d.spec.template.spec.containers[0].name = "Bad")),
    [inv(`${C}.name`, `Invalid value: "Bad": ${DNS_LABEL_MSG}`)],
  ],
  [
    "duplicate container names",
    "Deployment",
    deployment((d) => d.spec.template.spec.containers.push({ name: "c", image: "x" })),
    [dup("spec.template.spec.containers[1].name", 'Duplicate value: "c"')],
  ],
  ["env var without name", "Deployment", deployment((d) => (d.spec.template.spec.containers[0].env = [{ value: "x" }])), [req(`${C}.env[0].name`)]],
  [
    "resources limit < request",
    "Deployment",
    deployment((d) => (d.spec.template.spec.containers[0].resources = { requests: { cpu: "2" }, limits: { cpu: "1" } })),
    [inv(`${C}.resources.requests`, 'Invalid value: "2": must be less than or equal to cpu limit of 1')],
  ],
  // Selector block.
  [
    "no selector: required, and nothing matches the template",
    "Deployment",
    deployment((d) => delete d.spec.selector),
    [req("spec.selector"), inv("spec.template.metadata.labels", 'Invalid value: {"app":"web"}: `selector` does not match template `labels`')],
  ],
  ["empty selector", "Deployment", deployment((d) => (d.spec.selector = {})), [inv("spec.selector", "Invalid value: {}: empty selector is invalid for deployment")]],
  [
    "bad selector operator: invalid selector, template not validated",
    "Deployment",
    deployment((d) => {
      d.spec.selector = { matchExpressions: [{ key: "app", operator: "Near" }] };
      d.spec.template.spec.containers[0].image = "";
    }),
    [
      inv("spec.selector.matchExpressions[0].operator", 'Invalid value: "Near": not a valid selector operator'),
      inv("spec.selector", 'Invalid value: {"matchExpressions":[{"key":"app","operator":"Near"}]}: invalid label selector'),
    ],
  ],
  ["matchExpressions In matching the template", "Deployment", deployment((d) => (d.spec.selector = { matchExpressions: [{ key: "app", operator: "In", values: ["web", "api"] }] })), []],
  // Deployment-only fields.
  [
    "strategy, minReadySeconds, revisionHistoryLimit, progressDeadlineSeconds",
    "Deployment",
    deployment((d) => {
      d.spec.strategy = { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: "0%" } };
      d.spec.minReadySeconds = 10;
      d.spec.revisionHistoryLimit = -1;
      d.spec.progressDeadlineSeconds = 10;
    }),
    [
      inv("spec.strategy.rollingUpdate.maxUnavailable", "Invalid value: 0: may not be 0 when `maxSurge` is 0"),
      inv("spec.revisionHistoryLimit", "Invalid value: -1: must be greater than or equal to 0"),
      inv("spec.progressDeadlineSeconds", "Invalid value: 10: must be greater than minReadySeconds"),
    ],
  ],
  [
    "Recreate with rollingUpdate; bad percent",
    "Deployment",
    deployment((d) => (d.spec.strategy = { type: "Recreate", rollingUpdate: { maxSurge: "x" } })),
    [forb("spec.strategy.rollingUpdate", "Forbidden: may not be specified when strategy `type` is 'Recreate'")],
  ],
  [
    "template restartPolicy must be Always",
    "Deployment",
    deployment((d) => (d.spec.template.spec.restartPolicy = "Never")),
    [unsupported("spec.template.spec.restartPolicy", 'Unsupported value: "Never": supported values: "Always"')],
  ],
  // Pod spec details.
  [
    "ports: name, protocol, hostPort conflicts",
    "Pod",
    {
      metadata: { name: "p" },
      spec: podSpec({
        containers: [
          container({ ports: [{ name: "HTTP", containerPort: 80, protocol: "TCP", hostPort: 8080 }, { containerPort: 0, protocol: "ICMP" }] }),
          container({ name: "d", ports: [{ containerPort: 81, hostPort: 8080, protocol: "TCP" }] }),
        ],
      }),
    },
    [
      inv("spec.containers[0].ports[0].name", 'Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'),
      inv("spec.containers[0].ports[0].name", 'Invalid value: "HTTP": must contain at least one letter (a-z)'),
      req("spec.containers[0].ports[1].containerPort"),
      unsupported("spec.containers[0].ports[1].protocol", 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'),
      dup("spec.containers[1].ports[0].hostPort", 'Duplicate value: "TCP//8080"'),
    ],
  ],
  [
    "env: relaxed names, valueFrom rules",
    "Pod",
    {
      metadata: { name: "p" },
      spec: podSpec({
        containers: [
          container({
            env: [
              { name: "1-ok.name with spaces", value: "x" },
              { name: "A=B" },
              { name: "C", value: "v", valueFrom: { configMapKeyRef: { name: "cm", key: "k" } } },
              { name: "D", valueFrom: {} },
              { name: "E", valueFrom: { secretKeyRef: { name: "s" } } },
            ],
          }),
        ],
      }),
    },
    [
      inv("spec.containers[0].env[1].name", `Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`),
      inv("spec.containers[0].env[2].valueFrom", 'Invalid value: "": may not be specified when `value` is not empty'),
      inv("spec.containers[0].env[3].valueFrom", 'Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'),
      req("spec.containers[0].env[4].valueFrom.secretKeyRef.key"),
    ],
  ],
  [
    "volumes and mounts",
    "Pod",
    {
      metadata: { name: "p" },
      spec: podSpec({
        volumes: [{ name: "data", emptyDir: {} }, { name: "data", emptyDir: {} }, { name: "Cfg", configMap: {} }, { name: "none" }],
        containers: [
          container({
            volumeMounts: [
              { name: "data", mountPath: "/d" },
              { name: "missing", mountPath: "/d" },
              { name: "data", mountPath: "/e", subPath: "../x" },
            ],
          }),
        ],
      }),
    },
    [
      dup("spec.volumes[1].name", 'Duplicate value: "data"'),
      req("spec.volumes[2].configMap.name"),
      inv("spec.volumes[2].name", `Invalid value: "Cfg": ${DNS_LABEL_MSG}`),
      req("spec.volumes[3]", "must specify a volume type"),
      nf("spec.containers[0].volumeMounts[1].name", 'Not found: "missing"'),
      inv("spec.containers[0].volumeMounts[1].mountPath", 'Invalid value: "/d": must be unique'),
      inv("spec.containers[0].volumeMounts.subPath", `Invalid value: "../x": must not contain '..'`),
    ],
  ],
  [
    "restartPolicy, dnsPolicy, pull policy, probes",
    "Pod",
    {
      metadata: { name: "p" },
      spec: podSpec({
        restartPolicy: "Sometimes",
        dnsPolicy: "Nope",
        containers: [container({ imagePullPolicy: "Maybe", livenessProbe: { successThreshold: 2, exec: { command: ["true"] } }, readinessProbe: {} })],
      }),
    },
    [
      unsupported("spec.containers[0].imagePullPolicy", 'Unsupported value: "Maybe": supported values: "Always", "IfNotPresent", "Never"'),
      inv("spec.containers[0].livenessProbe.successThreshold", "Invalid value: 2: must be 1"),
      req("spec.containers[0].readinessProbe", "must specify a handler type"),
      unsupported("spec.restartPolicy", 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'),
      unsupported("spec.dnsPolicy", 'Unsupported value: "Nope": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"'),
    ],
  ],
  [
    "init containers: names shared with containers, probes need restartPolicy Always",
    "Pod",
    { metadata: { name: "p" }, spec: podSpec({ initContainers: [container({ readinessProbe: { exec: { command: ["x"] } } })] }) },
    [
      dup("spec.initContainers[0].name", 'Duplicate value: "c"'),
      forb("spec.initContainers[0].readinessProbe", "Forbidden: may not be set for init containers without restartPolicy=Always"),
    ],
  ],
  [
    "no containers; a Pod's image may not have surrounding spaces",
    "Pod",
    { metadata: { name: "p" }, spec: { containers: [], initContainers: [container({ name: "i", image: " busybox" })] } },
    [
      req("spec.containers"),
      inv("spec.initContainers[0].image", 'Invalid value: " busybox": must not have leading or trailing whitespace'),
    ],
  ],
  [
    "resources: names, negatives, extended resources",
    "Pod",
    {
      metadata: { name: "p" },
      spec: podSpec({
        containers: [container({ resources: { limits: { memory: "-1Gi", "example.com/gpu": "2" }, requests: { "example.com/gpu": "1", foo: "1" } } })],
      }),
    },
    [
      inv("spec.containers[0].resources.limits[memory]", 'Invalid value: "-1Gi": must be greater than or equal to 0'),
      inv("spec.containers[0].resources.requests", 'Invalid value: "1": must be equal to example.com/gpu limit of 2'),
      inv("spec.containers[0].resources.requests[foo]", 'Invalid value: "foo": must be a standard resource type or fully qualified'),
      inv("spec.containers[0].resources.requests[foo]", 'Invalid value: "foo": must be a standard resource for containers'),
    ],
  ],
  // Other workloads.
  [
    "StatefulSet: policies, selector; its PodSpec is not validated",
    "StatefulSet",
    {
      metadata: { name: "db" },
      spec: {
        podManagementPolicy: "Random",
        updateStrategy: { type: "Sometimes" },
        replicas: -2,
        selector: { matchLabels: { app: "db" } },
        template: { metadata: { labels: { app: "other" } }, spec: { containers: [{ name: "C" }], restartPolicy: "Always" } },
      },
    },
    [
      inv("spec.podManagementPolicy", `Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`),
      inv("spec.updateStrategy", `Invalid value: {"type":"Sometimes"}: must be 'RollingUpdate' or 'OnDelete'`),
      inv("spec.replicas", "Invalid value: -2: must be greater than or equal to 0"),
      inv("spec.template.metadata.labels", 'Invalid value: {"app":"other"}: `selector` does not match template `labels`'),
    ],
  ],
  [
    "ReplicaSet: selector and template",
    "ReplicaSet",
    { metadata: { name: "rs" }, spec: { replicas: 1, selector: {}, template: { metadata: {}, spec: podSpec({ containers: [{ name: "c" }] }) } } },
    [inv("spec.selector", "Invalid value: {}: empty selector is invalid for deployment"), req("spec.template.spec.containers[0].image")],
  ],
  [
    "DaemonSet: no selector matches nothing; strategy",
    "DaemonSet",
    {
      metadata: { name: "ds" },
      spec: { template: { metadata: { labels: { app: "ds" } }, spec: podSpec() }, updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } },
    },
    [
      inv("spec.template.metadata.labels", 'Invalid value: {"app":"ds"}: `selector` does not match template `labels`'),
      req("spec.updateStrategy.rollingUpdate.maxUnavailable", "cannot be 0 when maxSurge is 0"),
    ],
  ],
  [
    "Job: restartPolicy defaults to Always, which a Job may not use",
    "Job",
    { metadata: { name: "j" }, spec: { backoffLimit: -1, template: { spec: { containers: [container()] } } } },
    [
      inv("spec.backoffLimit", "Invalid value: -1: must be greater than or equal to 0"),
      unsupported("spec.template.spec.restartPolicy", 'Unsupported value: "Always": supported values: "OnFailure", "Never"'),
    ],
  ],
  [
    "CronJob: schedule and concurrencyPolicy",
    "CronJob",
    {
      metadata: { name: "cj" },
      spec: { schedule: "every minute", concurrencyPolicy: "Sometimes", jobTemplate: { spec: { template: { spec: podSpec({ restartPolicy: "Never" }) } } } },
    },
    [
      inv("spec.schedule", 'Invalid value: "every minute": expected exactly 5 fields, found 2: [every minute]'),
      unsupported("spec.concurrencyPolicy", 'Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'),
    ],
  ],
  ["CronJob: schedule required", "CronJob", { metadata: { name: "cj" }, spec: { jobTemplate: { spec: { template: { spec: podSpec({ restartPolicy: "OnFailure" }) } } } } }, [req("spec.schedule")]],
  // Core kinds.
  ["Service: ports required", "Service", { metadata: { name: "s" }, spec: { type: "ClusterIP", clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1"] } }, [req("spec.ports")]],
  ["headless Service needs no ports", "Service", { metadata: { name: "s" }, spec: { type: "ClusterIP", clusterIP: "None" } }, []],
  ["ExternalName Service needs an externalName, not ports", "Service", { metadata: { name: "s" }, spec: { type: "ExternalName" } }, [req("spec.externalName")]],
  [
    "Service ports: names, range, duplicates, type",
    "Service",
    {
      metadata: { name: "s" },
      spec: {
        type: "Cluster",
        ports: [
          { port: 80, protocol: "TCP", targetPort: 8080 },
          { name: "b", port: 80, protocol: "TCP", targetPort: "Http" },
          { name: "b", port: 70000, protocol: "TCP", targetPort: 1, nodePort: 30000 },
        ],
      },
    },
    [
      req("spec.ports[0].name"),
      inv("spec.ports[1].targetPort", 'Invalid value: "Http": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'),
      dup("spec.ports[2].name", 'Duplicate value: "b"'),
      inv("spec.ports[2].port", "Invalid value: 70000: must be between 1 and 65535, inclusive"),
      unsupported("spec.type", 'Unsupported value: "Cluster": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"'),
      dup("spec.ports[1]", 'Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}'),
    ],
  ],
  [
    "PVC: access modes and storage request",
    "PersistentVolumeClaim",
    { metadata: { name: "p" }, spec: { resources: {} } },
    [req("spec.accessModes", "at least 1 access mode is required"), req("spec.resources[storage]")],
  ],
  [
    "PVC: unknown mode, RWOP mixed, zero storage",
    "PersistentVolumeClaim",
    { metadata: { name: "p" }, spec: { accessModes: ["ReadWriteOncePod", "ReadWriteOnce", "Everyone"], resources: { requests: { storage: "0" } } } },
    [
      unsupported("spec.accessModes", 'Unsupported value: "Everyone": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"'),
      forb("spec.accessModes", "Forbidden: may not use ReadWriteOncePod with other access modes"),
      inv("spec.resources[storage]", 'Invalid value: "0": must be greater than zero'),
    ],
  ],
  ["TLS Secret needs tls.crt and tls.key", "Secret", { metadata: { name: "s" }, type: "kubernetes.io/tls", data: { "tls.crt": "eA==" } }, [req("data[tls.key]")]],
  [
    "PDB: both bounds, bad percent, selector labels",
    "PodDisruptionBudget",
    { metadata: { name: "pdb" }, spec: { minAvailable: "150%", maxUnavailable: 1, selector: { matchLabels: { "-bad": "x" } } } },
    [
      inv("spec", 'Invalid value: {"minAvailable":"150%","maxUnavailable":1,"selector":{"matchLabels":{"-bad":"x"}}}: minAvailable and maxUnavailable cannot be both set'),
      inv("spec.minAvailable", 'Invalid value: "150%": must not be greater than 100%'),
      inv(
        "spec.selector.matchLabels",
        `Invalid value: "-bad": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ),
    ],
  ],
  [
    "NetworkPolicy: ports, peers, policy types",
    "NetworkPolicy",
    {
      metadata: { name: "np" },
      spec: {
        podSelector: {},
        ingress: [{ ports: [{ protocol: "ICMP", port: 0 }], from: [{}, { ipBlock: { cidr: "10.0.0.0/8" }, podSelector: {} }] }],
        policyTypes: ["Ingress", "Sideways"],
      },
    },
    [
      unsupported("spec.ingress[0].ports[0].protocol", 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'),
      inv("spec.ingress[0].ports[0].port", "Invalid value: 0: must be between 1 and 65535, inclusive"),
      req("spec.ingress[0].from[0]", "must specify a peer"),
      forb("spec.ingress[0].from[1]", "Forbidden: may not specify both ipBlock and another peer"),
      unsupported("spec.policyTypes[1]", 'Unsupported value: "Sideways": supported values: "Ingress", "Egress"'),
    ],
  ],
  [
    "Ingress: rules or a default backend; paths and backends",
    "Ingress",
    {
      metadata: { name: "ing" },
      spec: {
        rules: [
          {
            host: "10.0.0.1",
            http: {
              paths: [
                { path: "api", pathType: "Prefix", backend: { service: { name: "api", port: { number: 80 } } } },
                { path: "/", backend: { service: { name: "web" } } },
              ],
            },
          },
        ],
      },
    },
    [
      inv("spec.rules[0].host", 'Invalid value: "10.0.0.1": must be a DNS name, not an IP address'),
      inv("spec.rules[0].http.paths[0].path", 'Invalid value: "api": must be an absolute path'),
      req("spec.rules[0].http.paths[1].pathType", "pathType must be specified"),
      req("spec.rules[0].http.paths[1].backend.service.port", "port name or number is required"),
    ],
  ],
  ["Ingress: empty", "Ingress", { metadata: { name: "ing" }, spec: {} }, [inv("spec.rules", "Invalid value: null: either `defaultBackend` or `rules` must be specified")]],
  ["ConfigMap has no kind rules here", "ConfigMap", { metadata: { name: "c" }, data: { "bad key": "x" } }, []],
];

describe("built-in kind validation", () => {
  for (const [title, kind, obj, expected] of CASES) {
    it(`${kind}: ${title}`, () => assert.deepEqual(causesOf(kind, obj), expected));
  }

  it("a resource quantity that does not parse is kube-apiserver's 400 decode error", () => {
    const d = deployment((x) => (x.spec.template.spec.containers[0].resources = { limits: { cpu: "lots" } }));
    assert.throws(
      () => causesOf("Deployment", d),
      (err: unknown) =>
        err instanceof StatusError &&
        err.code === 400 &&
        err.message ===
          `Deployment in version "v1" cannot be handled as a Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
  });

  it("custom resources are left to their schemas", () => {
    const type = { kind: "Widget", group: "example.com", version: "v1", builtin: false } as unknown as ResourceType;
    assert.deepEqual(builtinCauses(type, { metadata: { name: "w" }, spec: { replicas: -1 } }, undefined), []);
  });
});

describe("cron schedules (robfig/cron ParseStandard)", () => {
  const table: [string, string | undefined][] = [
    ["*/5 * * * *", undefined],
    ["0 3 * * mon-fri", undefined],
    ["@hourly", undefined],
    ["@every 5m", undefined],
    ["@often", "unrecognized descriptor: @often"],
    ["* * * *", "expected exactly 5 fields, found 4: [* * * *]"],
    ["60 * * * *", "end of range (60) above maximum (59): 60"],
    ["x * * * *", 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ["5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"],
  ];
  for (const [schedule, error] of table) it(JSON.stringify(schedule), () => assert.equal(cronScheduleError(schedule), error));
});
