import { defineConfig } from "vitest/config";

/**
 * Test files left out of the fast inner loop (`npm run test:fast`): they drive a browser, pack
 * the package, run millions of records under a capped heap (the CLI's, the library pool's), start
 * hosts or network namespaces, cycle worker pools hundreds of times, time a bench against a
 * second checkout (`--ref`), or check a kernel against an exhaustive reference. `npm test` runs
 * them with the rest.
 */
const SLOW = [
  "test/web.test.ts",
  "test/package.test.ts",
  "test/memory.test.ts",
  "test/pool-teardown.test.ts",
  "test/hosts.test.ts",
  "test/ssh-hosts.test.ts",
  "test/output-lock.test.ts",
  "test/bench-cli.test.ts",
  "test/kernel-bytes.test.ts",
  "test/custom-solvers.test.ts",
  "test/bench-outside-solvers.test.ts",
  "test/wasm-abi-errors.test.ts",
  "test/solver-pool.test.ts",
  "test/bench-ref.test.ts",
  "test/canon-exhaustive.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: SLOW } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});
