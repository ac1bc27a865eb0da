import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ShardFilter, withShardFilterOptions } from "../../src/cache/shard-filter.ts";
import type { ShardFilteringChange } from "../../src/cache/shard-filter.ts";
import { ShardWarningLimiter } from "../../src/cache/shard-warning-limiter.ts";
import { fnv1a64, formatShardSelector, splitHashSpace } from "../../src/util/shard-range.ts";
import type { HashRange } from "../../src/util/shard-range.ts";
import type { KubeObject } from "../../src/client/index.ts";
import { createLogger } from "../../src/log/logger.ts";
import type { LogRecord } from "../../src/log/logger.ts";

const [LOWER_RANGE] = splitHashSpace(2) as [HashRange, HashRange];
const LOWER = formatShardSelector("object.metadata.uid", [LOWER_RANGE]);

/** Objects named `prefix-i` whose uid hashes into the lower half (`inside`) or not. */
function objects(prefix: string, n: number, inside: boolean): KubeObject[] {
  const out: KubeObject[] = [];
  for (let i = 0; out.length < n; i++) {
    const uid = `${prefix}-uid-${i}`;
    if ((fnv1a64(uid) < LOWER_RANGE.end) === inside) out.push({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: `${prefix}-${out.length}`, namespace: "ns", uid } });
  }
  return out;
}

function capture() {
  const records: LogRecord[] = [];
  const log = createLogger({ level: "debug", sink: (r) => records.push(r) });
  const warnings = () => records.filter((r) => r.level === "warn");
  return { log, records, warnings };
}

describe("ShardFilter: where a shard selector is applied, on evidence", () => {
  const mine = objects("in", 5, true);
  const others = objects("out", 5, false);

  it("after an object of another shard, a later complete list the server filtered brings the mode back to unconfirmed (metric 0 again)", () => {
    const { log } = capture();
    const changes: ShardFilteringChange[] = [];
    const filter = new ShardFilter(LOWER, log, { onChange: (c) => changes.push(c) });
    filter.listed([...mine, ...others], undefined);           // an API server without the feature answered
    assert.equal(filter.mode, "client");
    filter.listed(mine, undefined);                           // the relist reached one that filters
    assert.equal(filter.mode, "unconfirmed");
    assert.deepEqual(changes.map((c) => c.filtering), ["client", "unconfirmed"]);
  });

  it("a list without echo and without objects of other shards is unconfirmed: filtered, no warning", () => {
    const { log, warnings } = capture();
    const changes: ShardFilteringChange[] = [];
    const filter = new ShardFilter(LOWER, log, { onChange: (c) => changes.push(c) });
    assert.equal(filter.mode, undefined);
    assert.deepEqual(filter.listed(mine, undefined), mine);
    assert.equal(filter.mode, "unconfirmed");
    assert.ok(mine.every((o) => filter.keeps(o)));
    assert.equal(filter.mode, "unconfirmed");
    assert.deepEqual(warnings(), []);
    assert.deepEqual(changes.map((c) => c.filtering), ["unconfirmed"]);
  });

  it("an echoed list is trusted as is (server)", () => {
    const { log, warnings } = capture();
    const filter = new ShardFilter(LOWER, log);
    const items = [...mine];
    assert.equal(filter.listed(items, { selector: LOWER }), items);
    assert.equal(filter.mode, "server");
    assert.deepEqual(warnings(), []);
  });

  it("a listed object of another shard turns it client: filtered, one warning naming the object, onChange with the evidence", () => {
    const { log, warnings } = capture();
    const changes: ShardFilteringChange[] = [];
    const filter = new ShardFilter(LOWER, log, { onChange: (c) => changes.push(c) });
    assert.deepEqual(filter.listed([...mine, ...others], undefined), mine);
    assert.equal(filter.mode, "client");
    assert.equal(warnings().length, 1);
    const w = warnings()[0]!;
    assert.match(String(w.msg), /ignored shard selector "shardRange\(object\.metadata\.uid, '0x0000000000000000', '0x8000000000000000'\)": its list sent ns\/out-0, which is outside it/);
    assert.match(String(w.msg), /does not support KEP-5866 sharded list and watch .* filters client-side and receives every object/);
    assert.equal(w.outside, "ns/out-0");
    assert.equal(w.from, "list");
    assert.deepEqual(changes.map((c) => [c.filtering, c.outside?.object.metadata?.name, c.outside?.from]), [["client", "out-0", "list"]]);
    // A complete relist with nothing outside: unconfirmed again (no evidence now), no warning.
    filter.listed(mine, undefined);
    assert.equal(filter.mode, "unconfirmed");
    assert.equal(warnings().length, 1);
  });

  it("a watch event of another shard turns an unconfirmed filter client, once", () => {
    const { log, warnings } = capture();
    const changes: string[] = [];
    const filter = new ShardFilter(LOWER, log, { onChange: (c) => changes.push(c.filtering) });
    filter.listed([], undefined);
    assert.equal(filter.keeps(others[0]!), false);
    assert.equal(filter.keeps(others[1]!), false);
    assert.equal(filter.keeps(mine[0]!), true);
    assert.equal(filter.mode, "client");
    assert.deepEqual(changes, ["unconfirmed", "client"]);
    assert.equal(warnings().length, 1);
    assert.equal(warnings()[0]!.from, "watch");
  });

  it("a watch event of another shard after an echoed list turns it client (a watch that reached another API server); an echo turns it back", () => {
    const { log } = capture();
    const changes: string[] = [];
    const filter = new ShardFilter(LOWER, log, { onChange: (c) => changes.push(c.filtering) });
    filter.listed(mine, { selector: LOWER });
    filter.keeps(others[0]!);
    filter.listed(mine, { selector: LOWER });
    assert.deepEqual(changes, ["server", "client", "server"]);
  });

  it("filters sharing a limiter warn once per interval, counting the ones held back", () => {
    let now = 0;
    const limiter = new ShardWarningLimiter({ intervalMs: 1000, now: () => now });
    const { log, warnings, records } = capture();
    const generation = () => new ShardFilter(LOWER, log, { warnings: limiter }).listed([...mine, ...others], undefined);
    generation();
    now = 500;
    generation();
    generation();
    assert.equal(warnings().length, 1, "rebuilds within the interval do not warn again");
    assert.equal(records.filter((r) => r.level === "debug" && /warning held back/.test(String(r.msg))).length, 2);
    now = 1500;
    generation();
    assert.equal(warnings().length, 2);
    assert.equal(warnings()[1]!.heldBack, 2);
    assert.equal(warnings()[0]!.heldBack, undefined);
  });

  it("withShardFilterOptions hands its options to the filter constructed meanwhile, and only then", () => {
    const { log } = capture();
    const changes: string[] = [];
    const inside = withShardFilterOptions({ onChange: (c) => changes.push(`inside ${c.filtering}`) }, () => new ShardFilter(LOWER, log));
    const outside = new ShardFilter(LOWER, log);
    inside.listed(mine, undefined);
    outside.listed(mine, undefined);
    assert.deepEqual(changes, ["inside unconfirmed"]);
    assert.throws(() => withShardFilterOptions({}, () => {
      throw new Error("boom");
    }), /boom/);
    new ShardFilter(LOWER, log).listed(mine, undefined);
    assert.deepEqual(changes, ["inside unconfirmed"], "the options are gone after a throwing call");
  });

  it("a listener that throws is logged, and filtering goes on", () => {
    const { log, records } = capture();
    const filter = new ShardFilter(LOWER, log, { onChange: () => {
      throw new Error("listener failed");
    } });
    assert.deepEqual(filter.listed([...mine, ...others], undefined), mine);
    assert.equal(filter.mode, "client");
    assert.ok(records.some((r) => r.level === "error" && /listener threw/.test(String(r.msg))));
  });

  it("ShardWarningLimiter refuses a negative interval, naming the option", () => {
    assert.throws(() => new ShardWarningLimiter({ intervalMs: -1 }), /intervalMs must be a number ≥ 0 \(milliseconds\), got -1/);
  });
});
