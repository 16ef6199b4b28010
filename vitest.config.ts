import { availableParallelism } from "node:os";
import { sep } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Test files left out of the fast inner loop (`npm run test:fast`), which keeps what a change to a
 * kernel, a format, the library or the pool needs within a minute: solving, the formats, the
 * CLI's main paths. Left out are the files that drive a browser, pack the package, run millions
 * of records under a capped heap (the CLI's, canon's, the library pool's), start hosts or network
 * namespaces, cycle worker pools hundreds of times, send signals to runs, close or fill their
 * standard streams, fight over an output's lock, run --shard with merge and --resume format by
 * format, check merge's refusals shard by shard, fetch from a local server, rebuild to check the
 * build's steps, read the public datasets, run the pure-TypeScript baselines and the npm
 * references over the shared fixture, check a kernel against an exhaustive reference, check
 * which modules a command's start-up reads, or exercise the tools around the solver: the
 * profiler, the docs' tables, a bench against a second checkout (`--ref`) and bench result files
 * compared through the bench command, the command-line runs that check failure paths (an output
 * that cannot be written, retried batches, refusals, exit statuses, a new user's first commands),
 * `canon`'s and the generator's, and the pool workers' nice values (a child at nice 17 beside the
 * busy suite waits many seconds for a core). `npm test` runs them with the rest.
 */
const SLOW = [
  "test/memory.test.ts",
  "test/package.test.ts",
  "test/kernel-bytes.test.ts",
  "test/bench-cli.test.ts",
  "test/bench-outside-solvers.test.ts",
  "test/web.test.ts",
  "test/output-lock.test.ts",
  "test/public-sets.test.ts",
  "test/hosts.test.ts",
  "test/pool-teardown.test.ts",
  "test/fixture-baselines.test.ts",
  "test/canon-exhaustive.test.ts",
  "test/merge-checks.test.ts",
  "test/ssh-hosts.test.ts",
  "test/bench-ref.test.ts",
  "test/solver-pool.test.ts",
  "test/canon-bulk.test.ts",
  "test/shard-resume.test.ts",
  "test/datasets-fetch.test.ts",
  "test/bench-compare-cli.test.ts",
  "test/custom-solvers.test.ts",
  "test/interrupt.test.ts",
  "test/build-stamp.test.ts",
  "test/wasm-abi-errors.test.ts",
  "test/profile.test.ts",
  "test/docs-tables.test.ts",
  "test/start-up.test.ts",
  "test/streams.test.ts",
  "test/exits.test.ts",
  "test/outputs.test.ts",
  "test/robust-cli.test.ts",
  "test/canon-cli.test.ts",
  "test/generate.test.ts",
  "test/newcomer.test.ts",
  "test/cli-refusals.test.ts",
  "test/exit-status.test.ts",
  "test/pool-priority.test.ts",
  "test/verdict-rates.test.ts",
  "test/kernel-vs-cache.test.ts",
];

/**
 * `npm test`'s order: the slow files first, heaviest first as listed above (each took 2–75 s alone
 * on two cores), then the rest; so the last files to finish are short ones. Vitest's own order
 * goes by earlier runs' times, which a clean clone does not have.
 */
class SlowFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const path = file.moduleId.split(sep).join("/");
      const at = SLOW.findIndex((name) => path.endsWith(`/${name}`));
      return at < 0 ? SLOW.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    testTimeout: 120_000,
    // A setup hook gets a test's limit, not Vitest's 10 s: the hooks that load baselines, kernels
    // or a browser take longer than that on two cores busy with other work.
    hookTimeout: 120_000,
    // Vitest's default in a run is one test file fewer than the cores: on 2 cores one file at a
    // time. Most files wait on child processes, so more at a time finish sooner there: with two
    // at a time the files kept about 1.35 of 2 cores busy, and three at a time took `npm test`'s
    // files 0.83–0.95 of the time two did. (The projects take this value: `--maxWorkers` on the
    // command line does not reach them.)
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: SlowFirst },
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: SLOW } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});
