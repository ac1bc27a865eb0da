import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { KubeConfig, Manager } from "../../src/index.ts";

const kubeConfig = new KubeConfig();
kubeConfig.loadFromOptions({
  clusters: [{ name: "c", server: "https://127.0.0.1:1", skipTLSVerify: true }],
  users: [{ name: "u" }], contexts: [{ name: "x", cluster: "c", user: "u" }], currentContext: "x",
});

describe("Manager heapGrowingPercent", () => {
  it("takes a whole percent from 10 to 1000, or false for V8's default", () => {
    for (const ok of [undefined, false, 10, 50, 1000] as const) new Manager({ kubeConfig, healthPort: false, ...(ok === undefined ? {} : { heapGrowingPercent: ok }) });
  });

  it("refuses anything else before starting, naming the option and the fix", () => {
    for (const bad of [0, 5, 2000, 12.5, Number.NaN, "50" as unknown as number, true as unknown as number]) {
      assert.throws(() => new Manager({ kubeConfig, healthPort: false, heapGrowingPercent: bad }),
        (err: Error) => err instanceof RangeError && /heapGrowingPercent must be a whole percent from 10 to 1000, or false for V8's default/.test(err.message));
    }
  });
});
