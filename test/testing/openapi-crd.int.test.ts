/**
 * Custom resources in OpenAPI, through the real kubectl: `kubectl explain` reads a CRD's schema
 * from `/openapi/v3` (default) and `/openapi/v2` (`--output=plaintext-openapiv2`, the path
 * kubectl 1.20 uses), follows CRD updates (the group/version hash changes, so kubectl's disk
 * cache is bypassed) and deletions, and `kubectl apply` with validation still works.
 *
 * Each test has its own `--cache-dir`, kept across the kubectl calls of that test, so the
 * update test exercises kubectl's cached OpenAPI documents. Skipped only when there is no
 * kubectl (`KUBECTL` or PATH).
 */
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { LocalCluster } from "../../src/testing/index.ts";
import { within } from "../support/wait.ts";
import { FIXTURES, fixturesDir } from "./crd/fixtures.ts";
import { KUBECTL } from "../support/kubectl.ts";

const execFileP = promisify(execFile);


/** The Greeting CRD; `extra` adds properties to `spec` (indented to match). */
const greetingCrd = (extra = "") => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: greetings.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: greetings, singular: greeting, kind: Greeting}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: A Greeting says hello to someone.
        properties:
          spec:
            type: object
            description: What to say and to whom.
            required: [message]
            properties:
              message:
                type: string
                description: The words to say.
              times:
                type: integer
                minimum: 1
                nullable: true
                description: How many times to say them.
              port:
                x-kubernetes-int-or-string: true
                description: Where to say them, by number or name.
              tone:
                type: string
                enum: [warm, formal]
                description: How to say them.
${extra}`;

const greeting = (name: string, specExtra = "") => `apiVersion: example.com/v1
kind: Greeting
metadata:
  name: ${name}
  namespace: default
spec:
  message: hello
  times: 2
  port: http
${specExtra}`;

describe("OpenAPI for custom resources, through kubectl", {
  skip: KUBECTL ? false : "no kubectl binary on PATH; install kubectl (or set KUBECTL) to run these tests",
  timeout: 120_000,
}, () => {
  let cluster: LocalCluster;
  let files: string;
  let cacheDir: string;

  before(async () => {
    cluster = await LocalCluster.start();
    files = await mkdtemp(path.join(tmpdir(), "openapi-crd-test-"));
  });
  after(async () => {
    if (cluster) await within(cluster.stop(), "cluster.stop()");
    if (files) await rm(files, { recursive: true, force: true });
  });
  beforeEach(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), "kubectl-cache-"));
  });
  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  /** Runs kubectl with the cluster's kubeconfig and this test's cache; rejects with its stderr. */
  async function kubectl(args: string[], timeoutMs = 30_000): Promise<string> {
    try {
      const { stdout } = await execFileP(KUBECTL!, ["--kubeconfig", cluster.kubeconfigPath, "--cache-dir", cacheDir, ...args], {
        timeout: timeoutMs,
        killSignal: "SIGKILL",
        env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath },
        maxBuffer: 16 * 1024 * 1024,
      });
      return stdout;
    } catch (e) {
      const err = e as Error & { code?: number | string; killed?: boolean; stdout?: string; stderr?: string };
      const how = err.killed ? `was killed after ${timeoutMs} ms` : `exited with ${err.code}`;
      throw new Error(`kubectl ${args.join(" ")} ${how}\nstdout: ${err.stdout ?? ""}\nstderr: ${err.stderr ?? ""}`);
    }
  }

  async function applyText(name: string, content: string, ...flags: string[]): Promise<string> {
    const file = path.join(files, name);
    await writeFile(file, content);
    return kubectl(["apply", "-f", file, ...flags]);
  }

  async function installGreetings(extra = ""): Promise<void> {
    await applyText("greetings-crd.yaml", greetingCrd(extra));
    await kubectl(["wait", "--for=condition=established", "crd/greetings.example.com", "--timeout=20s"]);
  }

  /** The `/openapi/v3` root's URL for a group/version path, fetched raw. */
  async function v3Url(gvPath: string): Promise<string | undefined> {
    const res = await fetch(new URL("/openapi/v3", cluster.kubeConfig.getCurrentCluster()!.server));
    const root = (await res.json()) as { paths: Record<string, { serverRelativeURL: string }> };
    return root.paths[gvPath]?.serverRelativeURL;
  }

  it("explain <kind>.spec shows the CR's spec fields and descriptions (OpenAPI v3)", async () => {
    await installGreetings();
    const out = await kubectl(["explain", "greeting.spec"]);
    assert.match(out, /KIND:\s+Greeting/);
    assert.match(out, /VERSION:\s+v1/);
    assert.match(out, /What to say and to whom\./);
    assert.match(out, /message\s+<string> -required-\n\s+The words to say\./);
    assert.match(out, /times\s+<integer>\n\s+How many times to say them\./);
    assert.match(out, /tone\s+<string>\n\s+enum: warm, formal\n\s+How to say them\./);
    assert.match(out, /port\s+<\w*>\n\s+Where to say them, by number or name\./);

    const top = await kubectl(["explain", "greeting"]);
    assert.match(top, /A Greeting says hello to someone\./);
    assert.match(top, /metadata\s+<ObjectMeta>\n\s+Standard object's metadata/);
    assert.match(top, /apiVersion\s+<string>/);
    // metadata is a reference to ObjectMeta, published in the same document.
    assert.match(await kubectl(["explain", "greeting.metadata.ownerReferences"]), /uid\s+<string> -required-/);
  });

  it("explain --output=plaintext-openapiv2 reads the CR's v2 definition (kubectl 1.20's path)", async () => {
    await installGreetings();
    const out = await kubectl(["explain", "greeting.spec", "--output=plaintext-openapiv2"]);
    assert.match(out, /KIND:\s+Greeting/);
    assert.match(out, /VERSION:\s+example\.com\/v1/);
    assert.match(out, /What to say and to whom\./);
    assert.match(out, /message\s+<string> -required-\n\s+The words to say\./);
    // v2 cannot express nullable or int-or-string: kube-apiserver publishes such fields untyped.
    assert.match(out, /times\s+<>\n\s+How many times to say them\./);
    assert.match(out, /port\s+<>\n\s+Where to say them, by number or name\./);
    const meta = await kubectl(["explain", "greeting.metadata", "--output=plaintext-openapiv2"]);
    assert.match(meta, /ownerReferences\s+<\[\]Object>/);
  });

  it("explain follows a CRD update through kubectl's OpenAPI cache (the group/version hash changes)", async () => {
    await installGreetings();
    const before = await v3Url("apis/example.com/v1");
    assert.doesNotMatch(await kubectl(["explain", "greeting.spec"]), /audience/);
    assert.doesNotMatch(await kubectl(["explain", "greeting.spec", "--output=plaintext-openapiv2"]), /audience/);

    await installGreetings(`              audience:
                type: string
                description: Who hears the greeting.
`);
    const afterUpdate = await v3Url("apis/example.com/v1");
    assert.ok(before && afterUpdate, "the root lists example.com/v1");
    assert.notEqual(afterUpdate, before, "the hash in the root changes with the schema");
    assert.match(await kubectl(["explain", "greeting.spec"]), /audience\s+<string>\n\s+Who hears the greeting\./);
    assert.match(await kubectl(["explain", "greeting.spec", "--output=plaintext-openapiv2"]), /audience\s+<string>\n\s+Who hears the greeting\./);
  });

  it("serves group/version documents as kube-openapi does: immutable under their hash, stale hashes redirected", async () => {
    await installGreetings();
    const server = cluster.kubeConfig.getCurrentCluster()!.server;
    const current = await v3Url("apis/example.com/v1");
    assert.ok(current);
    const hash = new URL(current, server).searchParams.get("hash")!;
    const res = await fetch(new URL(current, server));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("etag"), `"${hash}"`);
    assert.equal(res.headers.get("cache-control"), "public, immutable");
    const doc = (await res.json()) as { components?: { schemas: Record<string, unknown> } };
    assert.ok(doc.components?.schemas["com.example.v1.Greeting"]);
    assert.ok(doc.components?.schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]);

    const stale = await fetch(new URL("/openapi/v3/apis/example.com/v1?hash=0123", server), { redirect: "manual" });
    assert.equal(stale.status, 301);
    assert.equal(stale.headers.get("location"), current);
    const unchanged = await fetch(new URL(current, server), { headers: { "If-None-Match": `"${hash}"` } });
    assert.equal(unchanged.status, 304);
  });

  it("after the CRD is deleted, explain fails as on a real cluster and the documents drop the kind", async () => {
    await installGreetings();
    assert.match(await kubectl(["explain", "greeting.spec"]), /The words to say/);
    await kubectl(["delete", "crd", "greetings.example.com", "--timeout=20s"]);

    // kubectl's cached discovery still maps the name: the OpenAPI documents no longer have the kind.
    await assert.rejects(kubectl(["explain", "greeting.spec"]), /couldn't find resource for "example\.com\/v1, Resource=greetings"/);
    await assert.rejects(kubectl(["explain", "greeting.spec", "--output=plaintext-openapiv2"]), /couldn't find resource for "example\.com\/v1, Kind=Greeting"/);
    // With fresh discovery the name itself is unknown.
    await rm(cacheDir, { recursive: true, force: true });
    cacheDir = await mkdtemp(path.join(tmpdir(), "kubectl-cache-"));
    await assert.rejects(kubectl(["explain", "greeting.spec"]), /the server doesn't have a resource type "greeting"/);
    assert.equal(await v3Url("apis/example.com/v1"), undefined);
    const v2 = await fetch(new URL("/openapi/v2", cluster.kubeConfig.getCurrentCluster()!.server));
    const definitions = ((await v2.json()) as { definitions?: Record<string, unknown> }).definitions ?? {};
    assert.equal(definitions["com.example.v1.Greeting"], undefined);
  });

  it("publishes the real Pinot and PodMonitor CRDs: explain works in both forms", async () => {
    // create, not apply: the Pinot CRD is too large for apply's last-applied annotation.
    await kubectl(["create", "-f", path.join(fixturesDir, FIXTURES.pinots)]);
    await kubectl(["apply", "-f", path.join(fixturesDir, FIXTURES.podMonitors)]);
    await kubectl(["wait", "--for=condition=established", "crd/pinots.datainfra.io", "crd/podmonitors.monitoring.coreos.com", "--timeout=20s"]);

    const pinot = await kubectl(["explain", "pinot.spec"]);
    assert.match(pinot, /KIND:\s+Pinot/);
    assert.match(pinot, /PinotSpec defines the desired state of Pinot/);
    assert.match(pinot, /nodes\s+<\[\]Object> -required-/);
    assert.match(await kubectl(["explain", "pinot.spec", "--output=plaintext-openapiv2"]), /PinotSpec defines the desired state of Pinot/);
    // Deep into the embedded PodSpec-sized schemas.
    assert.match(await kubectl(["explain", "pinot.spec", "--recursive"]), /\n\s+nodeType\s+<string>/);

    const pm = await kubectl(["explain", "podmonitor.spec.podMetricsEndpoints"]);
    assert.match(pm, /podMetricsEndpoints defines how to scrape metrics from/);
    assert.match(await kubectl(["explain", "pmon.spec.podMetricsEndpoints", "--output=plaintext-openapiv2"]), /podMetricsEndpoints defines how to scrape/);
  });

  it("kubectl apply with validation accepts a valid CR and reports an unknown field as kube-apiserver does", async () => {
    await installGreetings();
    assert.match(await applyText("hello.yaml", greeting("hello")), /greeting\.example\.com\/hello created/);
    assert.match(await applyText("hello.yaml", greeting("hello", "  tone: warm\n")), /greeting\.example\.com\/hello configured/);
    // Default --validate=strict: kubectl leaves it to the server, which refuses the unknown field.
    await assert.rejects(
      applyText("bogus.yaml", greeting("bogus", "  bogus: 1\n")),
      /strict decoding error: unknown field "spec\.bogus"/,
    );
    // --validate=warn: stored without the field, with the server's warning.
    const warned = await execFileP(KUBECTL!, [
      "--kubeconfig", cluster.kubeconfigPath, "--cache-dir", cacheDir,
      "apply", "--validate=warn", "-f", path.join(files, "bogus.yaml"),
    ]);
    assert.match(warned.stdout, /greeting\.example\.com\/bogus created/);
    assert.match(warned.stderr, /unknown field "spec\.bogus"/);
    assert.equal((cluster.peek({ group: "example.com", plural: "greetings" }, "default", "bogus") as { spec?: Record<string, unknown> })?.spec?.["bogus"], undefined);

    // The real Pinot CR passes validation against the real CRD.
    await kubectl(["create", "-f", path.join(fixturesDir, FIXTURES.pinots)]).catch((e: Error) => {
      if (!/AlreadyExists/.test(e.message)) throw e;
    });
    await kubectl(["wait", "--for=condition=established", "crd/pinots.datainfra.io", "--timeout=20s"]);
    assert.match(await kubectl(["apply", "-n", "default", "-f", path.join(fixturesDir, FIXTURES.pinotBasic)]), /pinot\.datainfra\.io\/pinot-simple created/);
  });
});
