import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { RequestLog, matchesRequest, verbProblem } from "../../src/util/request-log.ts";
import type { RequestRecord, VerbVocabulary } from "../../src/util/request-log.ts";
import { RequestCounter } from "../../src/client/request-counter.ts";

const req = (verb: string, resource: string, code = 200, extra: Partial<RequestRecord> = {}): RequestRecord => ({ verb, resource, code, ...extra });

describe("matchesRequest", () => {
  it("matches every given field, arrays as any of their values, and ignores omitted ones", () => {
    const r = req("patch", "widgets/status", 200, { namespace: "ns", name: "w" });
    assert.equal(matchesRequest({}, r), true);
    assert.equal(matchesRequest({ verb: ["apply", "patch"], resource: "widgets/status", namespace: "ns", name: "w" }, r), true);
    assert.equal(matchesRequest({ verb: "apply" }, r), false);
    assert.equal(matchesRequest({ resource: ["widgets"] }, r), false);
    assert.equal(matchesRequest({ namespace: "other" }, r), false);
    assert.equal(matchesRequest({ name: "x" }, r), false);
  });

  it("leaves the code out, so a fault (whose code is its answer) matches a request not yet answered", () => {
    const fault = { verb: "list", resource: "pods", code: 500 };
    assert.equal(matchesRequest(fault, { verb: "list", resource: "pods" }), true);
  });
});

describe("RequestLog", () => {
  it("counts, filters and summarizes by verb, resource and code", () => {
    const log = new RequestLog();
    for (const r of [req("get", "pods"), req("get", "pods", 404), req("list", "configmaps"), req("create", "configmaps", 201)]) log.record(r);
    assert.equal(log.count(), 4);
    assert.equal(log.count({ verb: "get" }), 2);
    assert.deepEqual(log.filter({ code: 404 }).map((r) => r.resource), ["pods"]);
    assert.equal(log.count({ verb: "get", code: 200 }), 1);
    assert.deepEqual(log.summary(), { "get pods 200": 1, "get pods 404": 1, "list configmaps 200": 1, "create configmaps 201": 1 });
    log.clear();
    assert.equal(log.count(), 0);
  });

  it("counts the writes of both sides: the client's apply and the server's deletecollection", () => {
    const log = new RequestLog();
    for (const verb of ["get", "list", "watch", "discovery", "create", "update", "patch", "apply", "delete", "deletecollection"]) log.record(req(verb, "pods"));
    assert.equal(log.writes(), 6);
    assert.equal(log.writes({ resource: "configmaps" }), 0);
  });

  it("keeps every record by default and only the newest maxRecords when bounded", () => {
    const unbounded = new RequestLog();
    const bounded = new RequestLog({ maxRecords: 3 });
    for (let i = 0; i < 10; i++) {
      unbounded.record(req("get", "pods", 200, { name: `p${i}` }));
      bounded.record(req("get", "pods", 200, { name: `p${i}` }));
    }
    assert.equal(unbounded.count(), 10);
    assert.deepEqual(bounded.all().map((r) => r.name), ["p7", "p8", "p9"]);
  });

  it("is a ring once full: oldest first across wraps, queries over the kept records, totals over all", () => {
    const log = new RequestLog({ maxRecords: 4 });
    const listened: string[] = [];
    log.onRequest((r) => listened.push(r.name!));
    for (let i = 0; i < 11; i++) log.record(req(i % 2 === 0 ? "get" : "create", "pods", 200, { name: `p${i}` }));
    assert.deepEqual(log.all().map((r) => r.name), ["p7", "p8", "p9", "p10"]);
    assert.deepEqual([log.total, log.dropped, log.maxRecords], [11, 7, 4]);
    assert.equal(log.count({ verb: "get" }), 2, "p8 and p10 are the kept gets");
    assert.equal(log.writes(), 2);
    assert.deepEqual(log.summary(), { "get pods 200": 2, "create pods 200": 2 });
    assert.equal(listened.length, 11, "listeners see every request");
    log.clear();
    assert.deepEqual([log.total, log.dropped, log.all().length], [0, 0, 0]);
    log.record(req("get", "pods", 200, { name: "again" }));
    assert.deepEqual(log.all().map((r) => r.name), ["again"]);
  });

  it("hands out copies, so a caller cannot change the log", () => {
    const log = new RequestLog();
    log.record(req("get", "pods"));
    log.all().pop();
    assert.equal(log.count(), 1);
  });

  it("tells listeners every record until they unsubscribe, and reports a listener that throws as a warning", async () => {
    const log = new RequestLog();
    const seen: string[] = [];
    log.onRequest(() => {
      throw new Error("listener bug");
    });
    const stop = log.onRequest((r) => seen.push(r.verb));
    const warned = once(process, "warning");
    log.record(req("get", "pods"));
    const [warning] = (await warned) as [Error];
    assert.match(warning.message, /listener bug/);
    stop();
    log.record(req("list", "pods"));
    assert.deepEqual(seen, ["get"]);
    assert.equal(log.count(), 2);
  });

  it("with its verbs given, refuses a query naming another verb instead of counting 0", () => {
    const log = new RequestLog({ verbs: { noun: "a known verb", verbs: ["get", "list"], advice: { apply: 'it is a "get" here' } } });
    log.record(req("get", "pods"));
    assert.equal(log.count({ verb: ["get", "list"] }), 1);
    assert.throws(() => log.count({ verb: "apply" }), { name: "TypeError", message: 'requests.count: verb "apply" is not a known verb: it is a "get" here' });
    assert.throws(() => log.filter({ verb: "watch" }), { name: "TypeError", message: 'requests.filter: verb "watch" is not a known verb; use one of "get", "list"' });
    assert.throws(() => log.writes({ verb: "gte" } as object), /requests\.writes: verb "gte"/);
    assert.equal(new RequestLog().count({ verb: "anything" }), 0, "without verbs, any verb is accepted");
  });
});

describe("verbProblem", () => {
  const v: VerbVocabulary = { noun: "a verb here", verbs: ["get", "list"] };

  it("accepts a known verb, an array of them, or none", () => {
    assert.equal(verbProblem(v, "get"), undefined);
    assert.equal(verbProblem(v, ["get", "list"]), undefined);
    assert.equal(verbProblem(v, undefined), undefined);
  });

  it("names the bad element, a value that is not a string, and an empty array", () => {
    assert.equal(verbProblem(v, ["get", "gte"]), 'verb[1] "gte" is not a verb here; use one of "get", "list"');
    assert.equal(verbProblem(v, 3), 'verb is number, not a verb; use one of "get", "list"');
    assert.equal(verbProblem(v, []), "verb is an empty array, which matches no request; leave verb out to match every verb");
    assert.equal(verbProblem(v, "toString"), 'verb "toString" is not a verb here; use one of "get", "list"', "no advice from Object.prototype");
  });
});

describe("RequestCounter (the client's log)", () => {
  it("refuses the API server's verbs it never records", () => {
    const counter = new RequestCounter();
    counter.record({ verb: "apply", resource: "configmaps", code: 200, durationMs: 1 });
    assert.equal(counter.count({ verb: "apply" }), 1);
    // @ts-expect-error: the client records no watches
    assert.throws(() => counter.count({ verb: "watch" }), /requests\.count: verb "watch" is not a verb a client records: the client does not record watches; an informer counts them in its stats\.watches/);
    assert.throws(() => counter.filter({ verb: "deletecollection" as "delete" }), /the client never sends one; count its deletes with verb: "delete"/);
  });
});
