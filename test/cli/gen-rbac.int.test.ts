/**
 * `operator-runtime gen rbac MODULE`, run for real: the rules come from what the Manager's
 * controllers watch and declared, scoped right; bad command lines exit 2, bad modules exit 1
 * with a message naming the file and the fix. (That the rules are enough and each one is
 * needed is proven per example operator in test/examples/rbac.int.test.ts.)
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { loadAll } from "js-yaml";
import { complete } from "../support/cli.ts";

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] }[];
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace: string }[];
}

async function gen(args: string[]): Promise<Doc[]> {
  const r = await complete(["gen", "rbac", ...args]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  return loadAll(r.stdout) as Doc[];
}

/** A rule as one line: `group/resource[names]: verbs`. */
function lines(doc: Doc | undefined): string[] {
  return (doc?.rules ?? []).map((r) => `${r.apiGroups.join(",")}/${r.resources.join(",")}${r.resourceNames ? `[${r.resourceNames.join(",")}]` : ""}: ${r.verbs.join(",")}`);
}

describe("operator-runtime gen rbac", () => {
  it("prints the greeting operator's ServiceAccount, ClusterRole and Lease Role with their bindings", async () => {
    const docs = await gen(["examples/greeting/manager.ts", "--namespace", "ops", "--name", "greeter"]);
    assert.deepEqual(docs.map((d) => `${d.kind} ${d.metadata.namespace ?? ""}/${d.metadata.name}`), [
      "ServiceAccount ops/greeter", "ClusterRole /greeter", "ClusterRoleBinding /greeter", "Role default/greeter", "RoleBinding default/greeter",
    ]);
    assert.deepEqual(lines(docs[1]), [
      "events.k8s.io/events: create,patch",
      "greeting.example.com/greetings: get,list,watch",
      "greeting.example.com/greetings/status: patch",
      "greeting.example.com/people: get,list,watch,patch",
    ]);
    assert.deepEqual(lines(docs[3]), [
      "coordination.k8s.io/leases: create",
      "coordination.k8s.io/leases[greeting-operator]: get,update",
    ]);
    for (const binding of [docs[2]!, docs[4]!]) {
      assert.deepEqual(binding.subjects, [{ kind: "ServiceAccount", name: "greeter", namespace: "ops" }]);
      assert.equal(binding.roleRef?.name, "greeter");
    }
  });

  it("grants a sharded Manager get, list, watch, create, update, delete on leases in the ring's namespace, and no leader Lease", async () => {
    const docs = await gen(["test/cli/fixtures/sharded-operator.ts", "--namespace", "apps"]);
    assert.deepEqual(docs.map((d) => `${d.kind} ${d.metadata.namespace ?? ""}/${d.metadata.name}`), [
      "ServiceAccount apps/widgets", "ClusterRole /widgets", "ClusterRoleBinding /widgets", "Role operators/widgets", "RoleBinding operators/widgets",
    ]);
    assert.deepEqual(lines(docs[1]), ["/configmaps: get,list,watch,patch"]);
    // Not limited by resourceNames: members' Lease names derive from their identities.
    assert.deepEqual(docs[3]!.rules, [
      { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["get", "list", "watch", "create", "update", "delete"] },
    ]);
    assert.deepEqual(docs[4]!.subjects, [{ kind: "ServiceAccount", name: "widgets", namespace: "apps" }]);
    assert.deepEqual(docs[4]!.roleRef, { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "widgets" });
  });

  it("gives the sharded greeting operator the ClusterRole of the leader-elected one and the ring's leases rule instead of the leader Lease's", async () => {
    const sharded = await gen(["examples/greeting/sharded.ts"]);
    const elected = await gen(["examples/greeting/manager.ts"]);
    assert.deepEqual(lines(sharded.find((d) => d.kind === "ClusterRole")), lines(elected.find((d) => d.kind === "ClusterRole")));
    const roles = sharded.filter((d) => d.kind === "Role");
    assert.deepEqual(roles.map((d) => `${d.metadata.namespace}/${d.metadata.name}`), ["default/greeting-operator"]);
    assert.deepEqual(lines(roles[0]), ["coordination.k8s.io/leases: get,list,watch,create,update,delete"]);
  });

  it("grants a Builder-writing controller nothing beyond what it owns and declared: no Secrets, Services or StatefulSets it never uses", async () => {
    const docs = await gen(["test/examples/rbac/sites-operator.ts"]);
    assert.deepEqual(lines(docs.find((d) => d.kind === "ClusterRole")), [
      "/configmaps: get,list,watch,create,patch,delete",
      "apps/deployments: get,list,watch,create,patch,delete",
      "events.k8s.io/events: create,patch",
      "sites.example.com/sites: get,list,watch",
      "sites.example.com/sites/finalizers: update",
    ]);
    const pinot = lines((await gen(["examples/pinot/manager.ts"])).find((d) => d.kind === "ClusterRole"));
    assert.ok(!pinot.some((r) => r.startsWith("/secrets")), `no rule on secrets: ${JSON.stringify(pinot)}`);
    for (const owned of ["/configmaps: get,list,watch,create,patch,delete", "apps/statefulsets: get,list,watch,create,patch,delete"]) {
      assert.ok(pinot.includes(owned), `${owned} in ${JSON.stringify(pinot)}`);
    }
  });

  it("keeps a namespace-limited Builder controller's rules in its namespace: no cluster-wide reads", async () => {
    const docs = await gen(["test/cli/fixtures/namespaced-builder-operator.ts"]);
    assert.equal(docs.find((d) => d.kind === "ClusterRole"), undefined);
    const role = docs.find((d) => d.kind === "Role");
    assert.equal(role?.metadata.namespace, "a");
    assert.deepEqual(lines(role), ["/configmaps: get,list,watch", "/configmaps/finalizers: update", "/services: get,list,watch,create,patch,delete"]);
  });

  it("defaults the name to the Manager's field manager and the namespace to default", async () => {
    const docs = await gen(["examples/replicaset/manager.ts"]);
    assert.equal(docs[0]!.metadata.name, "replicaset-operator");
    assert.equal(docs[0]!.metadata.namespace, "default");
    assert.deepEqual(lines(docs.find((d) => d.kind === "ClusterRole")), [
      "/pods: get,list,watch,create,delete",
      "events.k8s.io/events: create,patch",
      "replicaset.example.com/podsets: get,list,watch",
      "replicaset.example.com/podsets/finalizers: update",
      "replicaset.example.com/podsets/status: patch",
    ]);
  });

  it("puts the rules of namespace-limited watches and uses in Roles of those namespaces, with no ClusterRole", async () => {
    const docs = await gen(["test/cli/fixtures/namespaced-operator.ts"]);
    assert.deepEqual(docs.map((d) => `${d.kind} ${d.metadata.namespace ?? ""}/${d.metadata.name}`), [
      "ServiceAccount default/team-operator", "Role team-a/team-operator", "RoleBinding team-a/team-operator",
      "Role vault/team-operator", "RoleBinding vault/team-operator",
    ]);
    assert.deepEqual(lines(docs[1]), ["/configmaps: get,list,watch,patch"]);
    assert.deepEqual(lines(docs[3]), ["/secrets: get"]);
  });

  it("--help prints the usage and exits 0", async () => {
    const r = await complete(["gen", "rbac", "--help"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^usage: operator-runtime gen rbac MODULE/);
  });

  for (const [args, message] of [
    [[], /MODULE is required/],
    [["a.ts", "b.ts"], /one MODULE expected, got 2/],
    [["a.ts", "--namespace", "Bad_NS"], /--namespace must be a DNS-1123 label.*"Bad_NS"/],
    [["a.ts", "--name", "UPPER"], /--name must be a DNS-1123 subdomain.*"UPPER"/],
    [["a.ts", "--nope"], /Unknown option '--nope'/],
  ] as const) {
    it(`exits 2 with the usage for ${JSON.stringify(args)}`, async () => {
      const r = await complete(["gen", "rbac", ...args]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /usage: operator-runtime gen rbac MODULE/);
      assert.equal(r.stdout, "");
    });
  }

  for (const [module, message] of [
    ["test/cli/fixtures/missing.ts", /missing\.ts: no such file/],
    ["test/cli/fixtures/no-manager.ts", /no-manager\.ts: its `manager` export is not a Manager/],
    ["test/cli/fixtures/unknown-kind-operator.ts", /cannot tell the resource of widgets\.example\.com\/v1 Widget.*export its CRD from the module/],
    ["test/cli/fixtures/bad-verb-operator.ts", /cannot load the module: for\(ConfigMap\)\.verbs: "apply" is not an RBAC verb \(server-side apply is "patch"/],
    ["test/cli/fixtures/throwing-factory-operator.ts", /its `manager` export threw: owns\(ConfigMap\)\.verbs: "apply" is not an RBAC verb/],
    ["test/cli/fixtures/started-operator.ts", /started its Manager when imported \(it would run the operator\)/],
    ["test/cli/fixtures/runs-at-import-operator.ts", /runs-at-import-operator\.ts: the module started its Manager when imported \(it would run the operator\)/],
    ["test/cli/fixtures/odd-field-manager-operator.ts", /field manager "example\.com\/csr-approver" cannot name the ServiceAccount and roles.*pass --name NAME/],
  ] as const) {
    it(`exits 1 naming the problem for ${module}`, async () => {
      const r = await complete(["gen", "rbac", module]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
      assert.equal(r.stdout, "");
    });
  }
});
