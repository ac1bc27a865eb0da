import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createLogger } from "../../src/index.ts";
import { jsonLineSink, jsonSink } from "../../src/entries/client.ts";
import { describeThrown } from "../../src/log/safe-value.ts";
import { hostileValues } from "../support/hostile-values.ts";

describe("logger: a log call never throws and the JSON sink writes one valid line each", () => {
  for (const [name, value] of Object.entries(hostileValues())) {
    it(`logs ${name} as a field and as the whole fields object`, () => {
      const lines: string[] = [];
      const log = createLogger({ sink: jsonLineSink((line) => lines.push(line)) }).child({ controller: "c" });
      log.error("reconcile failed", { error: value });
      log.error("fields themselves", value as Record<string, unknown>);
      log.child({ value } as Record<string, unknown>).warn("child carrying it");
      assert.equal(lines.length, 3);
      for (const line of lines) {
        assert.ok(line.endsWith("\n") && line.indexOf("\n") === line.length - 1, "exactly one line");
        assert.ok(line.length < 1_000_000, `bounded (${line.length} characters)`);
        const record = JSON.parse(line);
        assert.equal(typeof record.msg, "string");
        assert.ok(record.level === "error" || record.level === "warn");
        assert.equal(typeof record.time, "string");
      }
      assert.equal(JSON.parse(lines[0]!).controller, "c");
    });
  }

  it("describes the values it cannot write as JSON", () => {
    const lines: string[] = [];
    const log = createLogger({ sink: jsonLineSink((line) => lines.push(line)) });
    const v = hostileValues();
    log.info("values", { cyclic: v.cyclic, bigint: v.bigint, symbol: v.symbol, getter: v.throwingGetter, nan: v.notANumber, error: v.cyclicError });
    const r = JSON.parse(lines[0]!);
    assert.deepEqual(r.cyclic, { name: "cyclic", self: "[Circular]" });
    assert.equal(r.bigint, "12345678901234567890n");
    assert.equal(r.symbol, "Symbol(thrown)");
    assert.match(r.getter.boom, /getter says no/);
    assert.equal(r.nan, "NaN");
    assert.deepEqual(r.error, { name: "Error", message: "cyclic cause", cause: "[Circular]" });
  });

  it("does not dump an error's non-Error cause (a response may carry credentials)", () => {
    const lines: string[] = [];
    const err = new Error("request failed", { cause: { headers: { authorization: "Bearer s3cr3t" } } });
    createLogger({ sink: jsonLineSink((line) => lines.push(line)) }).error("failed", { error: err });
    assert.doesNotMatch(lines[0]!, /s3cr3t/);
  });

  it("survives a sink that throws, writing the record to stderr instead", () => {
    const written: string[] = [];
    const original = process.stderr.write;
    process.stderr.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const log = createLogger({ sink: (r) => void JSON.stringify(r) });
      log.error("reconcile failed", { error: 1n });
      log.error("a message that is not a string" as string, { error: hostileValues().cyclic });
    } finally {
      process.stderr.write = original;
    }
    assert.equal(written.length, 2);
    for (const line of written) assert.match(JSON.parse(line).sinkError.message, /BigInt|circular/i);
  });

  it("writes one valid line on stderr by default, even for a cyclic BigInt-holding value", () => {
    const written: string[] = [];
    const original = process.stderr.write;
    process.stderr.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const v = hostileValues();
      jsonSink({ level: "error", msg: "x", time: "t", error: { ...v.cyclic as object, n: 1n } });
    } finally {
      process.stderr.write = original;
    }
    assert.equal(written.length, 1);
    assert.equal(JSON.parse(written[0]!).error.n, "1n");
  });

  it("describes thrown values in one bounded line", () => {
    const v = hostileValues();
    assert.equal(describeThrown(new Error("bad spec")), "bad spec");
    assert.equal(describeThrown(v.bigint), '"12345678901234567890n"');
    assert.equal(describeThrown("plain"), "plain");
    assert.match(describeThrown(v.revokedProxy), /unreadable|revoked/);
    assert.ok(describeThrown(v.hugeString, 100).length <= 100);
    for (const value of Object.values(v)) assert.equal(typeof describeThrown(value), "string");
  });
});
