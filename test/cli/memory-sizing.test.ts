import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { MEMORY_FLOOR_MIB, OPERATOR_NODE_OPTIONS, RSS_PER_CACHED_OBJECT_KIB, memoryFor } from "../../src/cli/memory-sizing.ts";

describe("memory sizing of an operator's container", () => {
  it("requests the floor plus each cached object's RSS, and limits a quarter more in 64 MiB steps", () => {
    assert.deepEqual(memoryFor(0), { request: `${MEMORY_FLOOR_MIB}Mi`, limit: "256Mi" });
    assert.deepEqual(memoryFor(50_000), { request: "351Mi", limit: "448Mi" });
    const big = memoryFor(1_000_000);
    assert.equal(big.request, `${Math.ceil(MEMORY_FLOOR_MIB + (1_000_000 * RSS_PER_CACHED_OBJECT_KIB) / 1024)}Mi`);
    assert.equal(Number.parseInt(big.limit) % 64, 0);
    assert.ok(Number.parseInt(big.limit) >= 1.25 * Number.parseInt(big.request));
  });

  it("refuses a count that is not a whole number, naming it", () => {
    for (const bad of [-1, 1.5, Number.NaN]) assert.throws(() => memoryFor(bad), /cachedObjects must be a whole number ≥ 0/);
  });

  it("uses only options Node accepts in NODE_OPTIONS (V8's --heap-growing-percent is refused there: the Manager sets it at run time)", () => {
    const node = (options: string) => spawnSync(process.execPath, ["-e", "0"], { env: { ...process.env, NODE_OPTIONS: options }, encoding: "utf8" });
    const ours = node(OPERATOR_NODE_OPTIONS);
    assert.equal(ours.status, 0, ours.stderr);
    const refused = node(`${OPERATOR_NODE_OPTIONS} --heap-growing-percent=50`);
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /not allowed in NODE_OPTIONS/);
  });
});
