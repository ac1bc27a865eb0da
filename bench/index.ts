/**
 * `npm run bench -- <name> [options]`: runs one benchmark (or all with no name) and prints its
 * table. Benchmarks measure; they never assert. Available: cluster, builder, runtime, hash,
 * memory, baseline, admission, scale, shards and dashboard (these three run by name only).
 * Arguments from the first `--option` on go to the benchmarks that take options
 * (`npm run bench -- scale --owners 100`, `npm run bench -- shards --owners 500`,
 * `npm run bench -- dashboard --owners 1000 --rounds 3`).
 */
const benches: Record<string, (argv: string[]) => Promise<void>> = {
  cluster: async () => (await import("./cluster.ts")).run(),
  builder: async () => (await import("./builder.ts")).run(),
  runtime: async () => (await import("./runtime.ts")).run(),
  hash: async () => (await import("./hash.ts")).run(),
  memory: async () => (await import("./memory.ts")).run(),
  baseline: async () => (await import("./baseline.ts")).run(),
  scale: async (argv) => (await import("./scale.ts")).run(argv),
  shards: async (argv) => (await import("./shards.ts")).run(argv),
  admission: async (argv) => (await import("./admission.ts")).run(argv),
  dashboard: async (argv) => (await import("./dashboard.ts")).run(argv),
};

const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith("-"));
const wanted = firstOption < 0 ? args : args.slice(0, firstOption);
const options = firstOption < 0 ? [] : args.slice(firstOption);
// `scale`, `shards` and `dashboard` run several processes (and a browser) for minutes: only when asked for by name.
const byNameOnly = new Set(["scale", "shards", "dashboard"]);
const names = wanted.length ? wanted : Object.keys(benches).filter((n) => !byNameOnly.has(n));
for (const name of names) {
  const bench = benches[name];
  if (!bench) {
    console.error(`unknown benchmark "${name}"; available: ${Object.keys(benches).join(", ")}`);
    process.exit(2);
  }
  await bench(options);
}
