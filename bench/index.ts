/**
 * `npm run bench -- <name>`: runs one benchmark (or all with no name) and prints its table.
 * Benchmarks measure; they never assert. Available: cluster.
 */
const benches: Record<string, () => Promise<void>> = {
  cluster: async () => (await import("./cluster.ts")).run(),
  builder: async () => (await import("./builder.ts")).run(),
  runtime: async () => (await import("./runtime.ts")).run(),
  hash: async () => (await import("./hash.ts")).run(),
  memory: async () => (await import("./memory.ts")).run(),
  baseline: async () => (await import("./baseline.ts")).run(),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const names = wanted.length ? wanted : Object.keys(benches);
for (const name of names) {
  const bench = benches[name];
  if (!bench) {
    console.error(`unknown benchmark "${name}"; available: ${Object.keys(benches).join(", ")}`);
    process.exit(2);
  }
  await bench();
}
