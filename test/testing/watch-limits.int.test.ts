import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";
import { openWatch } from "../support/watch-stream.ts";

/** The Status kube-apiserver answers for a resourceVersion still ahead of it after the wait. */
function assertTooLarge(r: { code: number; body: any }, asked: number | string, current: number): void {
  assert.equal(r.code, 504);
  assert.deepEqual(r.body, {
    kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure",
    message: `Timeout: Too large resource version: ${asked}, current: ${current}`, reason: "Timeout",
    details: { causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }], retryAfterSeconds: 1 },
    code: 504,
  });
}

describe("LocalCluster: resourceVersions ahead of the server", () => {
  let cluster: LocalCluster;
  let patient: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start({ resourceVersionWaitMs: 200 });
    // Waits far longer than any bound below: an answer within the bound means the wait ended because the RV was reached.
    patient = await LocalCluster.start({ resourceVersionWaitMs: 60_000 });
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
    await within(patient.stop(), "patient.stop()");
  });

  it("answers a watch from a resourceVersion the server has not reached with 504 Too large resource version", async () => {
    const current = cluster.resourceVersion;
    const asked = current + 1000;
    const r = await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${asked}`);
    assertTooLarge(r, asked, current);
    assert.equal(cluster.watchCount(), 0, "no watch was registered");
  });

  it("answers gets and lists asking for a resourceVersion not reached (NotOlderThan, Exact or unset) the same way", async () => {
    const current = cluster.resourceVersion;
    const asked = current + 50;
    for (const query of [`resourceVersion=${asked}`, `resourceVersion=${asked}&resourceVersionMatch=NotOlderThan`,
      `resourceVersion=${asked}&resourceVersionMatch=Exact`]) {
      assertTooLarge(await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps?${query}`), asked, current);
      assertTooLarge(await raw(cluster.url, "GET", `/api/v1/namespaces?${query}`), asked, current);
      assertTooLarge(await raw(cluster.url, "GET", `/api/v1/namespaces/default?${query}`), asked, current);
    }
    assert.equal((await raw(cluster.url, "GET", `/api/v1/namespaces?resourceVersion=${current}`)).code, 200, "a reached resourceVersion is served at once");
    assert.equal((await raw(cluster.url, "GET", "/api/v1/namespaces?resourceVersion=0")).code, 200, "0 means any version");
  });

  it("compares resourceVersions past 2^53 exactly and prints them as asked", async () => {
    const current = cluster.resourceVersion;
    for (const asked of ["9007199254740993", "18446744073709551615"]) {
      for (const query of [`watch=true&resourceVersion=${asked}`, `resourceVersion=${asked}`]) {
        assertTooLarge(await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps?${query}`), asked, current);
      }
      assertTooLarge(await raw(cluster.url, "GET", `/api/v1/namespaces/default?resourceVersion=${asked}`), asked, current);
    }
  });

  it("answers a resourceVersion that is not a uint64 with 400 on get, list and watch, as strconv.ParseUint", async () => {
    const cases: [string, string][] = [
      ["1.5", "invalid syntax"], ["0x10", "invalid syntax"], ["%2B5", "invalid syntax"], ["%205", "invalid syntax"],
      ["1e3", "invalid syntax"], ["-1", "invalid syntax"], ["abc", "invalid syntax"], ["18446744073709551616", "value out of range"],
    ];
    for (const [param, problem] of cases) {
      const text = decodeURIComponent(param);
      const message = `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(text)}: strconv.ParseUint: parsing ${JSON.stringify(text)}: ${problem}`;
      for (const path of [`/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${param}`,
        `/api/v1/namespaces/default/configmaps?resourceVersion=${param}`, `/api/v1/namespaces/default?resourceVersion=${param}`]) {
        const r = await raw(cluster.url, "GET", path);
        assert.equal(r.code, 400, `${path}: ${r.text}`);
        assert.equal(r.body.message, message, path);
      }
    }
    assert.equal(cluster.watchCount(), 0, "no watch was registered");
  });

  it("answers a limit that is not an int64, or a continue token it never issued, with 400", async () => {
    for (const limit of ["0x2", "1e1", "1.5", "abc", "99999999999999999999"]) {
      const r = await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps?limit=${limit}`);
      assert.equal(r.code, 400, `limit=${limit}: ${r.text}`);
      assert.match(r.body.message, new RegExp(`^strconv\\.ParseInt: parsing "${limit.replace(".", "\\.")}": (invalid syntax|value out of range)$`));
    }
    await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "page-1" } });
    await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "page-2" } });
    const first = await raw(cluster.url, "GET", "/api/v1/namespaces/default/configmaps?limit=1");
    assert.equal(first.code, 200, first.text);
    const next = await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps?limit=1&continue=${first.body.metadata.continue}`);
    assert.equal(next.code, 200, "an issued token continues");
    const forged = (token: unknown) => Buffer.from(JSON.stringify(token)).toString("base64url");
    for (const rv of [1e308, -1, 1.5, "7", cluster.resourceVersion + 1000]) {
      const r = await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps?limit=1&continue=${forged({ rv, start: "" })}`);
      assert.equal(r.code, 400, `continue token with rv ${rv}: ${r.text}`);
      assert.match(r.body.message, /^invalid continue token: continue key is not valid/);
    }
  });

  it("starts the watch as soon as the store reaches the asked resourceVersion, replaying nothing older", async () => {
    const asked = patient.resourceVersion + 2;
    const pending = openWatch(patient.url, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${asked}`);
    for (const name of ["one", "two", "three"]) {
      assert.equal((await raw(patient.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name } })).code, 201);
    }
    const w = await pending;
    assert.equal(w.res.status, 200);
    await waitFor(() => w.events.length >= 1, "the event after the asked resourceVersion");
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.metadata.name}`), ["ADDED three"]);
    w.stop();
    await waitFor(() => patient.watchCount() === 0, "the watch to close after the client aborted");
  });

  it("serves a list as soon as the store reaches the asked resourceVersion", async () => {
    const asked = patient.resourceVersion + 1;
    const pending = raw(patient.url, "GET", `/api/v1/namespaces/default/configmaps?resourceVersion=${asked}&resourceVersionMatch=NotOlderThan`);
    await raw(patient.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "listed" } });
    const r = await within(pending, "the list to be answered once the resourceVersion was reached");
    assert.equal(r.code, 200);
    assert.ok(Number(r.body.metadata.resourceVersion) >= asked);
    assert.ok(r.body.items.some((i: any) => i.metadata.name === "listed"));
  });

  it("stops waiting when the client goes away", async () => {
    const served = patient.requests.count({ verb: "watch" });
    const asked = patient.resourceVersion + 1000;
    const req = request(`${patient.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${asked}`);
    req.on("error", () => undefined);
    req.end();
    await within(new Promise((resolve) => req.once("finish", resolve)), "the request to be sent");
    await waitFor(() => (req.socket?.bytesWritten ?? 0) > 0, "the request bytes to leave");
    req.destroy();
    // The server's wait is 60 s: the request is done (and logged) because the client left.
    await waitFor(() => patient.requests.count({ verb: "watch" }) === served + 1, "the server to stop waiting for the aborted watch");
    assert.equal(patient.watchCount(), 0);
  });
});

describe("LocalCluster: watch timeoutSeconds", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start({ bookmarkIntervalMs: 20 });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  for (const huge of ["2147484", "9223372036854775807"]) {
    it(`honours a huge timeoutSeconds (${huge}) as very long: no timer overflow, open until the client aborts`, async () => {
      const warnings: Error[] = [];
      const onWarning = (w: Error) => warnings.push(w);
      process.on("warning", onWarning);
      try {
        const w = await openWatch(cluster.url, `/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&timeoutSeconds=${huge}`);
        assert.equal(w.res.status, 200);
        // Five bookmarks 20 ms apart: the stream outlived the 1 ms an overflowed timer gives.
        await waitFor(() => w.events.filter((e) => e.type === "BOOKMARK").length >= 5, "five bookmarks on the open stream");
        assert.equal(w.isEnded(), false, "the server has not closed the stream");
        assert.equal(cluster.watchCount(), 1);
        w.stop();
        await within(w.done, "the stream to end after the client aborted");
        await waitFor(() => cluster.watchCount() === 0, "the server to drop the aborted watch");
        // A warning is emitted on the next tick of the overflowing setTimeout: long past by now.
        assert.deepEqual(warnings.map((x) => `${x.name}: ${x.message}`), []);
      } finally {
        process.off("warning", onWarning);
      }
    });
  }

  it("ends the stream cleanly after a small timeoutSeconds and at once for a negative one", async () => {
    const w = await openWatch(cluster.url, "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1");
    await within(w.done, "the stream to end after timeoutSeconds=1");
    assert.equal(w.res.status, 200);
    const neg = await openWatch(cluster.url, "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=-5");
    assert.equal(neg.res.status, 200);
    await within(neg.done, "the stream to end at once for timeoutSeconds=-5");
  });

  it("answers a timeoutSeconds that is not an int64 with 400, as kube-apiserver's parameter decoding", async () => {
    const cases: [string, string][] = [
      ["1.5", 'strconv.ParseInt: parsing "1.5": invalid syntax'],
      ["abc", 'strconv.ParseInt: parsing "abc": invalid syntax'],
      ["1e3", 'strconv.ParseInt: parsing "1e3": invalid syntax'],
      ["9223372036854775808", 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ];
    for (const [value, message] of cases) {
      const r = await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=${value}`);
      assert.equal(r.code, 400, value);
      assert.equal(r.body.reason, "BadRequest");
      assert.equal(r.body.message, message);
    }
    assert.equal(cluster.watchCount(), 0);
  });
});
