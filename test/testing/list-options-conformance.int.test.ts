/**
 * List, watch and read-path answers worded as kube-apiserver v1.36.2 words them (see
 * test/conformance/kube-apiserver-1.36.2.json: list/resourceVersion=0 / resourceVersionMatch,
 * list/limit/continue paging, watch/labelSelector watch, errors/404 Status bodies).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, CoreV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { goJsonSyntaxError } from "../../src/testing/go-json-syntax.ts";
import { decodeContinue } from "../../src/testing/continue-token.ts";
import { raw, waitFor, within } from "../support/wait.ts";
import { openWatch } from "../support/watch-stream.ts";

const CM = "/api/v1/namespaces/lo/configmaps";

/** The 422 body kube-apiserver answers for refused list options. */
function invalidListOptions(causes: { reason: string; message: string }[]): unknown {
  const parts = causes.map((c) => `resourceVersionMatch: ${c.message}`);
  return {
    kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure",
    message: `ListOptions.meta.k8s.io "" is invalid: ${parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`}`,
    reason: "Invalid",
    details: { group: "meta.k8s.io", kind: "ListOptions", causes: causes.map((c) => ({ ...c, field: "resourceVersionMatch" })) },
    code: 422,
  };
}

const forbidden = (detail: string) => ({ reason: "FieldValueForbidden", message: `Forbidden: ${detail}` });
const badRequest = (message: string) => ({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason: "BadRequest", code: 400 });
const token = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

describe("LocalCluster: list and watch options as kube-apiserver v1.36.2", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await LocalCluster.start({ resourceVersionWaitMs: 100 });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "lo" } } });
    for (const name of ["c0", "c1", "c2"]) await core.createNamespacedConfigMap({ namespace: "lo", body: { metadata: { name } } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("refuses resourceVersionMatch combinations of a list with 422 ListOptions.meta.k8s.io", async () => {
    const cases: [string, unknown][] = [
      ["resourceVersionMatch=NotOlderThan", invalidListOptions([forbidden("resourceVersionMatch is forbidden unless resourceVersion is provided")])],
      ["resourceVersion=0&resourceVersionMatch=Exact", invalidListOptions([forbidden(`resourceVersionMatch "exact" is forbidden for resourceVersion "0"`)])],
      ["resourceVersion=1&resourceVersionMatch=Bogus", invalidListOptions([
        { reason: "FieldValueNotSupported", message: `Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""` }])],
      ["resourceVersionMatch=Bogus", invalidListOptions([
        forbidden("resourceVersionMatch is forbidden unless resourceVersion is provided"),
        { reason: "FieldValueNotSupported", message: `Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""` }])],
      [`resourceVersion=1&resourceVersionMatch=NotOlderThan&continue=${token("x")}`,
        invalidListOptions([forbidden("resourceVersionMatch is forbidden when continue is provided")])],
    ];
    for (const [query, body] of cases) {
      const r = await raw(cluster.url, "GET", `${CM}?${query}`);
      assert.equal(r.code, 422, `${query}: ${r.text}`);
      assert.deepEqual(r.body, body, query);
    }
    const list = await raw(cluster.url, "GET", `${CM}?sendInitialEvents=true`);
    assert.equal(list.code, 422);
    assert.equal(list.body.message, `ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`);
    // client-node sees the same 422.
    await assert.rejects(core.listNamespacedConfigMap({ namespace: "lo", resourceVersionMatch: "Exact", resourceVersion: "0" }),
      (err: unknown) => err instanceof ApiException && err.code === 422);
    // Accepted combinations.
    const rv = String(cluster.resourceVersion);
    for (const query of ["resourceVersion=0", "resourceVersion=0&resourceVersionMatch=NotOlderThan", `resourceVersion=${rv}&resourceVersionMatch=Exact`]) {
      assert.equal((await raw(cluster.url, "GET", `${CM}?${query}`)).code, 200, query);
    }
  });

  it("refuses resourceVersionMatch and sendInitialEvents combinations of a watch as kube-apiserver's watch rules", async () => {
    const cases: [string, unknown][] = [
      ["resourceVersionMatch=NotOlderThan", invalidListOptions([forbidden("resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided")])],
      ["sendInitialEvents=true", invalidListOptions([forbidden("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan")])],
      ["sendInitialEvents=true&resourceVersionMatch=Exact", invalidListOptions([
        forbidden("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"),
        { reason: "FieldValueNotSupported", message: `Unsupported value: "Exact": supported values: "NotOlderThan"` }])],
    ];
    for (const [query, body] of cases) {
      const r = await raw(cluster.url, "GET", `${CM}?watch=true&${query}`);
      assert.equal(r.code, 422, `${query}: ${r.text}`);
      assert.deepEqual(r.body, body, query);
    }
    assert.equal(cluster.watchCount(), 0, "no watch was registered");
  });

  it("a watch with sendInitialEvents=false starts from now, without ADDED events for existing objects", async () => {
    const w = await openWatch(cluster.url, `${CM}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`);
    assert.equal(w.res.status, 200);
    await core.createNamespacedConfigMap({ namespace: "lo", body: { metadata: { name: "after-start" } } });
    await waitFor(() => w.events.length >= 1, "the live event");
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.metadata.name}`), ["ADDED after-start"]);
    w.stop();
    await core.deleteNamespacedConfigMap({ name: "after-start", namespace: "lo" });
  });

  it("words an invalid resourceVersion and one not reached as kube-apiserver", async () => {
    const message = `invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`;
    for (const path of [`${CM}?resourceVersion=abc`, `${CM}/c0?resourceVersion=abc`, `${CM}?watch=true&resourceVersion=abc`]) {
      const r = await raw(cluster.url, "GET", path);
      assert.deepEqual({ code: r.code, body: r.body }, { code: 400, body: badRequest(message) }, path);
    }
    const current = cluster.resourceVersion;
    const r = await raw(cluster.url, "GET", `${CM}?resourceVersion=${current + 1000000}&resourceVersionMatch=NotOlderThan`);
    assert.equal(r.code, 504);
    assert.equal(r.body.message, `Timeout: Too large resource version: ${current + 1000000}, current: ${current}`);
  });

  it("reads a negative limit as no limit, as kube-apiserver pages only for a limit above 0", async () => {
    const r = await raw(cluster.url, "GET", `${CM}?limit=-1`);
    assert.equal(r.code, 200, r.text);
    assert.deepEqual(r.body.items.map((i: any) => i.metadata.name), ["c0", "c1", "c2"]);
    assert.equal(r.body.metadata.continue, undefined);
  });

  it("issues continue tokens in kube-apiserver's format and pages with them", async () => {
    const first = await raw(cluster.url, "GET", `${CM}?limit=2`);
    assert.deepEqual(first.body.items.map((i: any) => i.metadata.name), ["c0", "c1"]);
    assert.equal(first.body.metadata.remainingItemCount, 1);
    const decoded = Buffer.from(first.body.metadata.continue, "base64url").toString();
    assert.equal(decoded, `{"v":"meta.k8s.io/v1","rv":${first.body.metadata.resourceVersion},"start":"c1\\u0000"}`);
    assert.doesNotMatch(first.body.metadata.continue, /=/, "unpadded, as Go's RawURLEncoding");
    const second = await raw(cluster.url, "GET", `${CM}?limit=2&continue=${first.body.metadata.continue}`);
    assert.deepEqual(second.body.items.map((i: any) => i.metadata.name), ["c2"]);
    assert.equal(second.body.metadata.continue, undefined);
    assert.equal(second.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
    // A hand-made token starts at its key (inclusive), as etcd's range does.
    const rv = Number(first.body.metadata.resourceVersion);
    const handMade = await raw(cluster.url, "GET", `${CM}?continue=${token({ v: "meta.k8s.io/v1", rv, start: "c1" })}`);
    assert.deepEqual(handMade.body.items.map((i: any) => i.metadata.name), ["c1", "c2"]);
    // resourceVersion "0" may go with a continue token; another may not.
    assert.equal((await raw(cluster.url, "GET", `${CM}?limit=2&resourceVersion=0&continue=${first.body.metadata.continue}`)).code, 200);
    const withRv = await raw(cluster.url, "GET", `${CM}?limit=2&resourceVersion=${rv}&continue=${first.body.metadata.continue}`);
    assert.deepEqual(withRv.body, badRequest("specifying resource version is not allowed when using continue"));
  });

  it("refuses a continue token it cannot decode with kube-apiserver's reason", async () => {
    const cases: [string, string][] = [
      ["garbage", `invalid character '\\u0081' looking for beginning of value`],
      ["a", "illegal base64 data at input byte 0"],
      ["ab=c", "illegal base64 data at input byte 2"],
      [token("{\"v\":1"), "unexpected end of JSON input"],
      [token("[]"), "json: cannot unmarshal array into Go value of type storage.continueToken"],
      [token({ v: "meta.k8s.io/v1", rv: "7", start: "a" }), "json: cannot unmarshal string into Go struct field continueToken.rv of type int64"],
      [token("{\"v\":\"meta.k8s.io/v1\",\"rv\":1.5,\"start\":\"a\"}"), "json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64"],
      [token({ rv: 5, start: "a" }), "server does not recognize this encoded version "],
      [token({ v: "v2", rv: 5, start: "a" }), "server does not recognize this encoded version v2"],
      [token({ v: "meta.k8s.io/v1", rv: 0, start: "a" }), "incorrect encoded start resourceVersion (version meta.k8s.io/v1)"],
      [token({ v: "meta.k8s.io/v1", rv: 5, start: "" }), "encoded start key empty (version meta.k8s.io/v1)"],
      [token({ v: "meta.k8s.io/v1", rv: 5, start: "a/../b" }), "a/../b"],
    ];
    for (const [text, reason] of cases) {
      const r = await raw(cluster.url, "GET", `${CM}?limit=2&continue=${encodeURIComponent(text)}`);
      assert.deepEqual({ code: r.code, body: r.body }, { code: 400, body: badRequest(`invalid continue token: continue key is not valid: ${reason}`) }, text);
    }
  });

  it("lists across namespaces in storage-key order (pk-b/… before pk/…) and pages without skipping", async () => {
    for (const ns of ["pk", "pk-b"]) {
      await core.createNamespace({ body: { metadata: { name: ns } } });
      for (const name of ["x", "y"]) await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name, labels: { order: "keys" } } } });
    }
    const all = await raw(cluster.url, "GET", "/api/v1/configmaps?labelSelector=order%3Dkeys");
    const expected = ["pk-b/x", "pk-b/y", "pk/x", "pk/y"];
    assert.deepEqual(all.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`), expected);
    const first = await raw(cluster.url, "GET", "/api/v1/configmaps?labelSelector=order%3Dkeys&limit=1");
    assert.match(Buffer.from(first.body.metadata.continue, "base64url").toString(), /"start":"pk-b\/x\\u0000"/);
    const paged: string[] = [];
    let cont: string | undefined;
    do {
      const page = await core.listConfigMapForAllNamespaces({ labelSelector: "order=keys", limit: 1, ...(cont ? { _continue: cont } : {}) });
      paged.push(...page.items.map((i) => `${i.metadata!.namespace}/${i.metadata!.name}`));
      cont = page.metadata!._continue;
    } while (cont);
    assert.deepEqual(paged, expected);
  });

  it("a watch's DELETED for an object leaving its selector carries the last matching state", async () => {
    await core.createNamespacedConfigMap({ namespace: "lo", body: { metadata: { name: "mover", labels: { sel: "yes" } }, data: { k: "1" } } });
    const selected = await openWatch(cluster.url, `${CM}?watch=true&labelSelector=sel%3Dyes`);
    const everything = await openWatch(cluster.url, `${CM}?watch=true&fieldSelector=metadata.name%3Dmover`);
    await waitFor(() => selected.events.length >= 1 && everything.events.length >= 1, "the initial ADDED events");
    const patch = (labels: Record<string, string>, data: Record<string, string>) => raw(cluster.url, "PATCH", `${CM}/mover`,
      { metadata: { labels }, data }, "application/merge-patch+json");
    const left = await patch({ sel: "no" }, { k: "2" });
    const back = await patch({ sel: "yes" }, { k: "3" });
    await waitFor(() => selected.events.length >= 3 && everything.events.length >= 3, "the transitions");
    const view = (e: any) => ({ type: e.type, sel: e.object.metadata.labels.sel, k: e.object.data.k, rv: e.object.metadata.resourceVersion });
    assert.deepEqual(selected.events.slice(1).map(view), [
      { type: "DELETED", sel: "yes", k: "1", rv: left.body.metadata.resourceVersion },
      { type: "ADDED", sel: "yes", k: "3", rv: back.body.metadata.resourceVersion },
    ]);
    assert.deepEqual(everything.events.slice(1).map(view), [
      { type: "MODIFIED", sel: "no", k: "2", rv: left.body.metadata.resourceVersion },
      { type: "MODIFIED", sel: "yes", k: "3", rv: back.body.metadata.resourceVersion },
    ], "a watch the object did not leave sees the new state");
    selected.stop();
    everything.stop();
    // A resumed watch replays the same events.
    const replay = await openWatch(cluster.url, `${CM}?watch=true&labelSelector=sel%3Dyes&resourceVersion=${Number(left.body.metadata.resourceVersion) - 1}`);
    await waitFor(() => replay.events.length >= 2, "the replayed transitions");
    assert.deepEqual(replay.events.map(view), [
      { type: "DELETED", sel: "yes", k: "1", rv: left.body.metadata.resourceVersion },
      { type: "ADDED", sel: "yes", k: "3", rv: back.body.metadata.resourceVersion },
    ]);
    replay.stop();
  });

  it("answers an unknown resource with kube-apiserver's 404 body, details {} included", async () => {
    for (const path of ["/api/v1/namespaces/lo/foos", "/api/v1/configmaps/c0", "/api/v1/namespaces/lo/configmaps/c0/nope"]) {
      const r = await raw(cluster.url, "GET", path);
      assert.deepEqual({ code: r.code, body: r.body }, {
        code: 404,
        body: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "the server could not find the requested resource", reason: "NotFound", details: {}, code: 404 },
      }, path);
    }
  });
});

describe("goJsonSyntaxError: Go's encoding/json syntax errors", () => {
  it("words each failure as Go's scanner", () => {
    const cases: [string, string | undefined][] = [
      [`{"a":1}`, undefined],
      [` [1, "x", true, null, -0.5e+3] `, undefined],
      [`{"a" 1}`, "invalid character '1' after object key"],
      [`{"a":1 "b"}`, `invalid character '"' after object key:value pair`],
      [`[1 2]`, "invalid character '2' after array element"],
      [`{1}`, "invalid character '1' looking for beginning of object key string"],
      [`tru`, "unexpected end of JSON input"],
      [`trux`, "invalid character 'x' in literal true (expecting 'e')"],
      [`-x`, "invalid character 'x' in numeric literal"],
      [`1.x`, "invalid character 'x' after decimal point in numeric literal"],
      [`1ex`, "invalid character 'x' in exponent of numeric literal"],
      [`01`, "invalid character '1' after top-level value"],
      [`"a\\qb"`, "invalid character 'q' in string escape code"],
      [`"\\u12x4"`, "invalid character 'x' in \\u hexadecimal character escape"],
      ["\"a\tb\"", "invalid character '\\t' in string literal"],
      ["'", "invalid character '\\'' looking for beginning of value"],
      ["", "unexpected end of JSON input"],
    ];
    for (const [text, want] of cases) assert.equal(goJsonSyntaxError(Buffer.from(text)), want, text);
    assert.equal(goJsonSyntaxError(Uint8Array.of(0xc3)), "invalid character 'Ã' looking for beginning of value");
    assert.equal(goJsonSyntaxError(Uint8Array.of(0x00)), "invalid character '\\x00' looking for beginning of value");
  });

  it("nests as deep as Go (10000) without overflowing the stack, and words the limit as Go", () => {
    const nested = (n: number) => Buffer.from(`${"[".repeat(n)}${"]".repeat(n)}`);
    assert.equal(goJsonSyntaxError(nested(10000)), undefined);
    assert.equal(goJsonSyntaxError(nested(10001)), "invalid character '[' exceeded max depth");
    // A deep member beside the token's fields decodes (no recursion), as Go decodes it.
    const deep = `{"x":${"[".repeat(9999)}${"]".repeat(9999)},"v":"meta.k8s.io/v1","RV":5,"start":"a\\u0000"}`;
    assert.deepEqual(decodeContinue(Buffer.from(deep).toString("base64url")), { rv: 5, start: "a\0" });
  });
});
