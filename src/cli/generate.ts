/**
 * `sudoku-wasm generate`: seeded unique puzzles, one per line. With `--manifest` the run is recorded
 * in a JSON manifest: the command that remakes the file, its seed, count, clue range and guesses.
 */
import { createHash } from "node:crypto";
import { accessSync, chmodSync, constants, existsSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import type { Command } from "commander";
import { createSolver, findSolver } from "../index.js";
import { formatPuzzle } from "../model/puzzle.js";
import { commaGrouped, counted } from "../model/whole-number.js";
import { packageRoot } from "../kernel/paths.js";
import { countsSolutions, solvers } from "../solvers/registry.js";
import { kernelUrl } from "../kernel/wasm.js";
import { OutputWriteError, writePaced, writeStderr } from "../cli-kit/errors.js";
import { InterruptWatch } from "../cli-kit/progress.js";
import { closeOutput, openOutput } from "../cli-kit/output.js";
import { lockOutput, replaceAtomically, whileLocked } from "../cli-kit/output-lock.js";
import { type OptionRow, solverIdList, tableCommand, wholeNumber } from "../cli-kit/options.js";
import { shellWord } from "../cli-kit/resume.js";
import {
  GENERATE_DEFAULTS,
  GaveUp,
  GRADING_REFERENCE,
  PuzzleJudge,
  SYMMETRIES,
  dependsOnGuesses,
  generateAttempts,
  round2,
  resolveGenerateOptions,
  CorpusTally,
  FigureTally,
  type CorpusSummary,
  type GenerateOptions,
  type GenerateSettings,
} from "../generate/generate.js";

/** The options as commander gives them: the generator's (`--harden` its hardenSteps), and the command's own. */
type GenerateFlags = Omit<GenerateOptions, "hardenSteps"> & {
  harden: number;
  solver: string;
  /** The --graders list, trimmed, empty items dropped. */
  graders?: string[];
  output?: string;
  manifest?: string;
  progress?: boolean;
  quiet?: boolean;
};

const GENERATE_OPTIONS: readonly OptionRow[] = [
  { flags: "-n, --count <n>", description: "puzzles to make", default: 100, parse: wholeNumber(1) },
  {
    flags: "-s, --seed <seed>",
    description: "PRNG seed, 0 to 2^32-1 (same seed and options, same output)",
    default: GENERATE_DEFAULTS.seed,
    parse: wholeNumber(0, 0xffffffff),
  },
  { flags: "--symmetry <kind>", description: "symmetry of the clue pattern", default: GENERATE_DEFAULTS.symmetry, choices: SYMMETRIES },
  {
    flags: "--minimal",
    description:
      "remove clues until none can go (the default without --clues; with --symmetry, until no symmetric pair or orbit can go: a single clue still may); with --clues, keep minimal puzzles of exactly that many clues (at most 72: every row of a minimal puzzle holds an empty cell)",
  },
  { flags: "--clues <n>", description: "stop removing clues at this many", parse: wholeNumber(17, 81) },
  {
    flags: "--harden <steps>",
    description: "hill-climbing moves per climb toward more guesses (0: none)",
    default: GENERATE_DEFAULTS.hardenSteps,
    parse: wholeNumber(0),
  },
  {
    flags: "--restarts <n>",
    description: "climbs per puzzle, each from a new grid; the hardest is kept",
    default: GENERATE_DEFAULTS.restarts,
    parse: wholeNumber(1),
  },
  {
    flags: "--presentations <k>",
    description: "climb on the mean guesses over k views of each puzzle (itself and random relabellings), so it cannot win on the solver's tie-breaking order",
    default: GENERATE_DEFAULTS.presentations,
    parse: wholeNumber(1),
  },
  {
    flags: "--min-guesses <n>",
    description: "keep only puzzles needing at least this many guesses",
    default: GENERATE_DEFAULTS.minGuesses,
    parse: wholeNumber(0),
  },
  { flags: "--max-guesses <n>", description: "keep only puzzles needing at most this many guesses", parse: wholeNumber(0) },
  { flags: "--max-attempts <n>", description: "give up after this many attempts (default 1000 + 100 x count)", parse: wholeNumber(1) },
  { flags: "--solver <id>", description: "registry solver that counts solutions and guesses", default: "wasm" },
  {
    flags: "--graders <ids>",
    description:
      "comma-separated registry solvers whose guesses grade difficulty (hardening, guess filters, the summary): each relative to its mean on fixed reference puzzles, every family (id before ':') weighing the same, in the first one's guesses; e.g. wasm,wasm:cells,wasm:first,dlx (the bundled tiers); default: the --solver",
    parse: solverIdList,
  },
  { flags: "-o, --output <file>", description: "write the puzzles to this file instead of standard output ('-o -' means standard output too)" },
  { flags: "--manifest <file>", description: "record the run (command, seed, count, clue range, guesses) in this JSON manifest; needs --output" },
  { flags: "--progress", description: "show a progress bar on standard error (default: when it is a terminal and --output is given)" },
  { flags: "-q, --quiet", description: "print no summary on standard error" },
];

export function generateCommand(): Command {
  const description = "make seeded unique Sudoku puzzles (one per line, '.' for empty), optionally minimal, symmetric or hardened toward more solver guesses";
  const command = tableCommand("generate", description, GENERATE_OPTIONS);
  return command.action(async (flags: GenerateFlags) => runGenerate(flags, command));
}

/** How often the generator lets the event loop turn, in ms, between attempts: a signal is heard only in a turn. */
const TURN_MS = 50;

/** Generates, writes, and (with --manifest) records one run. */
async function runGenerate(flags: GenerateFlags, command: Command): Promise<void> {
  const options: GenerateOptions = { ...flags, hardenSteps: flags.harden };
  if (flags.maxGuesses !== undefined && (flags.minGuesses ?? 0) > flags.maxGuesses) {
    return command.error(`error: --min-guesses (${flags.minGuesses}) is above --max-guesses (${flags.maxGuesses}): the guess range is empty`);
  }
  let settings: GenerateSettings;
  try {
    settings = resolveGenerateOptions(options);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return command.error(`error: ${error.message}`);
  }
  if (flags.manifest && !flags.output) return command.error("error: --manifest needs --output FILE (a file, not standard output: the manifest records it)");
  if (flags.manifest && resolve(flags.manifest) === resolve(flags.output!)) return command.error("error: --manifest and --output name the same file");
  if (flags.manifest) checkManifest(flags.manifest); // a file that is no manifest, or cannot be written, fails now, before the puzzles are written
  const graderIds = flags.graders ?? [flags.solver];
  if (!countsSolutions(findSolver(flags.solver))) {
    return command.error(`error: ${flags.solver} stops at the first solution, so it cannot prove a puzzle unique`);
  }
  const blind = graderIds.find((id) => !findSolver(id).capabilities.guesses);
  if (blind && (flags.graders !== undefined || dependsOnGuesses(settings))) {
    return command.error(`error: ${blind} reports no guesses, which --graders, hardening and guess filters grade by`);
  }
  const kernel = kernelFingerprint(flags.solver); // of the binary about to be loaded, before a rebuild can replace it
  const engine = (await createSolver({ solver: flags.solver })).engine;
  const graders = await Promise.all(graderIds.map(async (id) => ({ id, engine: id === flags.solver ? engine : (await createSolver({ solver: id })).engine })));
  const judge = new PuzzleJudge(engine, graders);
  const lock = await lockOutput(flags.output, { offersTakeOver: false }); // one writer per output file, as solve and canon take it
  try {
    const out = await openOutput(flags.output);
    lock.guard(out);
    const where = flags.output ?? "standard output";
    const showProgress = flags.progress ?? (Boolean(flags.output) && process.stderr.isTTY === true);
    const barOptions = { format: "generate [{bar}] {value}/{total} puzzles | {duration_formatted}", noTTYOutput: true, notTTYSchedule: 2000 }; // --progress to a log too, as solve
    const bar = showProgress ? new (await import("cli-progress")).SingleBar(barOptions) : null;
    bar?.start(settings.count, 0);
    // the summary's figures, kept as the puzzles come: a run of any length holds no list of them
    const made = new CorpusTally();
    const costs = graderIds.map(() => new FigureTally());
    const started = performance.now();
    // Ctrl-C or SIGTERM stops between attempts (an attempt of a long --harden climb is not cut), and every puzzle made is
    // written whole: a hardening run's hours are not lost. A second signal ends the process at once: the loop turns between
    // a climb's moves too, so the signal is heard there.
    const interrupts = new InterruptWatch();
    interrupts.onForcedExit(() => bar?.stop());
    let gaveUp: GaveUp | undefined;
    try {
      let turn = performance.now();
      try {
        for (const generated of generateAttempts(judge, options)) {
          if (generated) {
            await writePaced(out, formatPuzzle(generated.puzzle) + "\n"); // stops at once when the reader has gone (`| head`)
            made.add(generated.clues, generated.guesses);
            if (graderIds.length > 1) judge.costs(generated.puzzle).forEach((cost, g) => costs[g].add(cost));
            bar?.increment();
          }
          if (performance.now() - turn >= TURN_MS) {
            await new Promise((resolve) => setImmediate(resolve));
            turn = performance.now();
          }
          if (interrupts.signal !== null && generated !== undefined) break; // (undefined: a move within an attempt)
        }
      } catch (error) {
        if (!(error instanceof GaveUp)) throw error;
        gaveUp = error; // the puzzles made are written whole all the same
      }
      await closeOutput(out);
      lock.verify(); // no success over bytes another run may have written
    } finally {
      bar?.stop();
      interrupts.close();
    }
    const seconds = (performance.now() - started) / 1000;
    if (gaveUp !== undefined) {
      // the puzzles made are written whole; the manifest is left as it was
      const { count, attempts } = gaveUp;
      writeStderr(
        `sudoku-wasm: gave up after ${counted(attempts, "attempt")} (--max-attempts): ${commaGrouped(made.count)} of ${counted(count, "puzzle")} made, written whole to ${where}; loosen the clue target or guess range${staleManifest(flags)}\n`,
      );
      process.exitCode = GAVE_UP_STATUS;
      return;
    }
    if (interrupts.signal !== null && made.count < settings.count) {
      writeStderr(
        `sudoku-wasm: stopped by ${interrupts.signal}: the first ${counted(made.count, "puzzle")} written whole to ${where} (the same options make them first again)${staleManifest(flags)}\n`,
      );
      process.exitCode = interrupts.exitStatus!;
      return;
    }
    const summary = made.summary();
    const grading = graderIds.length > 1 ? gradingSummary(graderIds, judge.referenceMeans(), costs) : undefined;
    if (flags.manifest) {
      // the --output file's entry (--manifest needs --output, checked above)
      await addToManifest(flags.manifest, {
        file: relative(dirname(resolve(flags.manifest)), resolve(flags.output!)),
        command: commandLine(flags, settings),
        seed: settings.seed,
        ...summary,
        kernel,
        ...(grading ? { grading } : {}),
        solver: flags.solver,
        ...(flags.graders ? { graders: flags.graders } : {}),
        dependsOnGuesses: dependsOnGuesses(settings),
      });
    }
    if (!flags.quiet) {
      process.stderr.write(
        `generated ${counted(summary.count, "puzzle")} in ${seconds.toFixed(2)} s (${(summary.count / seconds).toFixed(1)}/s, ` +
          `${judge.searches} searches); clues ${summary.clues.min}-${summary.clues.max}; ` +
          (Number.isNaN(summary.guesses.mean)
            ? "guesses n/a\n"
            : `${grading ? "grade" : "guesses"} mean ${summary.guesses.mean}, median ${summary.guesses.median}\n`),
      );
      if (grading) {
        const each = Object.entries(grading.graders).map(([id, g]) => `${id} ${g.mean} (median ${g.median}, reference ${g.reference})`);
        process.stderr.write(`guesses per grader, mean: ${each.join("; ")}\n`);
      }
    }
    if (interrupts.signal !== null) {
      writeStderr(
        `sudoku-wasm: ${interrupts.signal} came after the last puzzle was made, so the run finished: ${counted(made.count, "puzzle")} written whole to ${where}\n`,
      );
      process.exitCode = interrupts.exitStatus!;
    }
  } finally {
    await lock.release();
  }
}

/** What a run that ends without all its puzzles says of its --manifest, which it leaves as it was. */
function staleManifest(flags: GenerateFlags): string {
  return flags.manifest ? `; ${flags.manifest} is not updated, so its entry for ${flags.output}, if any, no longer describes it` : "";
}

/** The exit status of a run that gave up after --max-attempts: fewer puzzles than asked, as solve's 1 for records without an answer. */
const GAVE_UP_STATUS = 1;

// ─── The manifest ───────────────────────────────────────────────────────────

/** One corpus in a manifest: how it was made and what it holds. */
export interface ManifestEntry extends CorpusSummary {
  /** The file, relative to the manifest's folder. */
  file: string;
  /** The command that remakes the file byte for byte (run from the package root). */
  command: string;
  seed: number;
  /** Registry id of the solver that counted solutions (and guesses, without graders). */
  solver: string;
  /** Registry ids whose guesses graded the puzzles, when not just the solver. */
  graders?: string[];
  /** With several graders: each one's guesses on the corpus and on the reference (the summary's guesses are then grades). */
  grading?: GradingSummary;
  /** sha256 of the solver's WASM binary (first 16 hex digits), or null for a TypeScript solver. */
  kernel: string | null;
  /** True when the file's content follows the solver's guess counts (hardening or guess filters). */
  dependsOnGuesses: boolean;
}

/** How several graders graded a corpus: per grader, its guesses on the corpus and its reference mean. */
export interface GradingSummary {
  /** The reference puzzles (GRADING_REFERENCE in src/generate/generate.ts). */
  reference: { seed: number; count: number };
  /** Per grader id: mean and median guesses on the corpus, and mean guesses on the reference. */
  graders: Record<string, { mean: number; median: number; reference: number }>;
}

/** Per-grader figures of a run graded by several graders. */
function gradingSummary(ids: readonly string[], referenceMeans: readonly number[], costs: readonly FigureTally[]): GradingSummary {
  const graders: GradingSummary["graders"] = {};
  ids.forEach((id, g) => {
    const { mean, median } = costs[g].figures();
    graders[id] = { mean, median, reference: round2(referenceMeans[g]) };
  });
  return { reference: { ...GRADING_REFERENCE }, graders };
}

/** A manifest: one entry per corpus, easiest (fewest mean guesses) first. */
export interface Manifest {
  description: string;
  files: ManifestEntry[];
}

const MANIFEST_DESCRIPTION =
  "Corpora made by `sudoku-wasm generate`; each entry's command remakes its file. Guesses are the solver's at limit 2 (see datasets/README.md).";

/** A path as written in a command: relative to the package root when inside it. */
function commandPath(path: string): string {
  const fromRoot = relative(packageRoot(), resolve(path));
  return fromRoot.startsWith("..") ? resolve(path) : fromRoot;
}

/** The canonical command line that remakes a run (defaults left out). */
function commandLine(flags: GenerateFlags, settings: GenerateSettings): string {
  const parts = ["sudoku-wasm generate", `--count ${settings.count}`, `--seed ${settings.seed}`];
  if (settings.symmetry !== GENERATE_DEFAULTS.symmetry) parts.push(`--symmetry ${settings.symmetry}`);
  if (settings.minimal) parts.push("--minimal");
  if (settings.clues !== undefined) parts.push(`--clues ${settings.clues}`);
  if (settings.hardenSteps > 0) {
    parts.push(`--harden ${settings.hardenSteps}`, `--restarts ${settings.restarts}`, `--presentations ${settings.presentations}`);
  }
  if (settings.minGuesses > 0) parts.push(`--min-guesses ${settings.minGuesses}`);
  if (settings.maxGuesses !== Infinity) parts.push(`--max-guesses ${settings.maxGuesses}`);
  if (flags.maxAttempts !== undefined) parts.push(`--max-attempts ${flags.maxAttempts}`);
  if (flags.solver !== "wasm") parts.push(`--solver ${flags.solver}`);
  if (flags.graders) parts.push(`--graders ${flags.graders.join(",")}`); // one word: `--graders "wasm, dlx"` would not remake the file
  if (flags.output) parts.push(`--output ${shellWord(commandPath(flags.output))}`); // a name with a space or a quote is one word
  if (flags.manifest) parts.push(`--manifest ${shellWord(commandPath(flags.manifest))}`);
  return parts.join(" ");
}

/** First 16 hex digits of the sha256 of the solver's WASM binary, or null for solvers that are not WASM. */
function kernelFingerprint(solver: string): string | null {
  const build = solvers.find((info) => info.id === solver)?.kernelBuild;
  if (build === undefined) return null;
  const bytes = readFileSync(kernelUrl(build));
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}

/**
 * Reads a manifest, or an empty one when the file does not exist yet; an Error naming the file when it is not one (not JSON, or an
 * entry without its file or guesses). A solver that reports no guesses records them as null (n/a): such an entry is one.
 */
export function readManifest(path: string): Manifest {
  if (!existsSync(path)) return { description: MANIFEST_DESCRIPTION, files: [] };
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path, "utf8")) as Manifest;
  } catch (error) {
    throw new Error(`--manifest '${path}' cannot be read as a manifest: ${(error as Error).message}`);
  }
  const bad = Array.isArray(manifest?.files)
    ? manifest.files.findIndex((entry) => typeof entry?.file !== "string" || !(typeof entry.guesses?.mean === "number" || entry.guesses?.mean === null))
    : -2;
  if (bad !== -1) {
    const why = bad === -2 ? "it has no list of files" : `its entry ${bad + 1} has no file or no guesses`;
    throw new Error(`--manifest '${path}' is not a manifest of sudoku-wasm generate: ${why}`);
  }
  return manifest;
}

/** Throws when `path` is no manifest, or when it (or, while it does not exist, its folder) cannot be written: a long run should not end there. */
function checkManifest(path: string): void {
  readManifest(path);
  try {
    accessSync(existsSync(path) ? path : dirname(resolve(path)), constants.W_OK);
  } catch (error) {
    throw new OutputWriteError(path, error);
  }
}

/**
 * Adds `entry` to the manifest at `path` (made when missing), in place of an entry of the same file. Runs that share the
 * manifest take turns (its lock), so none loses another's entry; the manifest is replaced whole, never seen half written.
 */
export async function addToManifest(path: string, entry: ManifestEntry): Promise<void> {
  await whileLocked(path, () => {
    const manifest = readManifest(path); // as the last run to hold the lock left it
    const difficulty = (e: ManifestEntry) => (Number.isFinite(e.guesses.mean) ? e.guesses.mean : Infinity); // n/a (NaN, null as read) last
    manifest.files = [...manifest.files.filter((e) => e.file !== entry.file), entry].sort((a, b) => difficulty(a) - difficulty(b) || 0);
    const real = existsSync(path) ? realpathSync(path) : path; // a link to the manifest stays one
    const mode = existsSync(real) ? statSync(real).mode & 0o777 : undefined; // and the manifest keeps its permissions
    replaceAtomically(real, path, (temporary) => {
      writeFileSync(temporary, JSON.stringify(manifest, null, 2) + "\n");
      if (mode !== undefined) chmodSync(temporary, mode);
    });
  });
}
