/**
 * The engines one thread solves on, by grid side N, each loaded when the first record of its size comes. By default 9×9 is
 * the 9×9 kernel, loaded at once (it also scans the CLI's lines); the other sizes share one N×N kernel instance (forBox).
 */
import { SHAPE_9, shapeOfSide } from "../model/shape.js";
import { type SizeEngine, type SolverEngine, solvesBatches, writesRecords } from "../solvers/solver.js";
import { WasmKernel } from "../kernel/wasm.js";
import { type SolverInfo, solvers, solversBySize } from "../solvers/registry.js";

/** The engines one thread solves on, by grid side N; each WASM engine has its own memory (or shares its instance's, see {@link ThreadEngines}). */
export interface BatchEngines {
  get(size: number): SizeEngine | undefined;
  /** What writes the thread's records (every output format): the 9×9 engine when it is the kernel, else a kernel instance for that alone. */
  readonly writer: RecordsWriter;
  /** Present where engines load on first use: loads those of `sides` not loaded yet; null when every one is loaded already. */
  loadMissing?(sides: Iterable<number>): Promise<void> | null;
}

/** An engine that writes records (the 9×9 kernel, {@link SolverEngine.writeRecords}). */
export type RecordsWriter = SolverEngine & Required<Pick<SolverEngine, "writeRecords">>;

const noop = (): void => {};

/** A thread's engines, loaded on first use (see the header): a map of those loaded so far. */
export class ThreadEngines extends Map<number, SizeEngine> implements BatchEngines {
  /** The loads in progress, one after another (two sizes of one instance must not both make it). */
  private loading: Promise<void> = Promise.resolve();
  /** Engines made so far (instances, for a kernel): a size served by an instance already made makes none. */
  made = 0;
  /** {@link BatchEngines.writer}, set by {@link open}. */
  writer!: RecordsWriter;

  private constructor(private readonly rows: ReadonlyMap<number, SolverInfo>) {
    super();
  }

  /**
   * The engines of `solve --solver ids`: 9×9 and each id's first size loaded, the rest readied, so a bad id or missing kernel
   * fails now; a RangeError names the batch solvers when an engine solves one puzzle per call.
   */
  static async open(ids: readonly string[] = []): Promise<ThreadEngines> {
    const engines = new ThreadEngines(solversBySize(ids));
    await Promise.all([...new Set(engines.rows.values())].map((info) => info.prepare?.()));
    const first = [SHAPE_9.size];
    for (const [size, info] of engines.rows) if (ids.includes(info.id) && !first.some((side) => engines.rows.get(side) === info)) first.push(size);
    await engines.load(first);
    const nine = engines.get(SHAPE_9.size)!.engine;
    engines.writer = writesRecords(nine) ? nine : await recordsWriter();
    return engines;
  }

  /** {@link BatchEngines.loadMissing}: a load of the sides of `sides` whose engines are not loaded yet, or null when there are none. */
  loadMissing(sides: Iterable<number>): Promise<void> | null {
    const missing = [...sides].filter((side) => !this.has(side));
    return missing.length === 0 ? null : this.load(missing);
  }

  /** Loads the engines of `sides` not loaded yet. */
  load(sides: Iterable<number>): Promise<void> {
    const wanted = [...sides];
    const loaded = this.loading.then(async () => {
      for (const side of wanted) if (!this.has(side)) this.set(side, await this.loadOne(side));
    });
    this.loading = loaded.catch(noop);
    return loaded;
  }

  /** Every size's engine, all loaded (the library's batches, records-task.ts, read their records on the worker: any size may come). */
  async all(): Promise<this> {
    await this.load(this.rows.keys());
    return this;
  }

  /** True when every size's engine is loaded (see {@link all}). */
  get whole(): boolean {
    return this.size === this.rows.size;
  }

  private async loadOne(size: number): Promise<SizeEngine> {
    const info = this.rows.get(size);
    const shape = shapeOfSide(size);
    if (info === undefined || shape === undefined) throw new RangeError(`no solver takes ${size}×${size} grids`);
    let engine: SolverEngine | null = null;
    for (const entry of this.values()) {
      if (entry.id === info.id && entry.engine.forBox) engine ??= entry.engine.forBox(shape.box);
    }
    if (engine === null) {
      engine = await info.load(size);
      this.made++;
      if (!solvesBatches(engine)) {
        const batchIds = await batchSolverIds();
        const variants = batchIds.includes("wasm") && solvers.some((row) => row.kernelBuild !== undefined && row.id !== "wasm" && !row.unavailable);
        const named = [...batchIds, ...(variants ? ["a kernel variant (wasm:<name>)"] : [])];
        throw new RangeError(
          `solver '${info.id}' solves one puzzle per call; \`solve --solver\` and a pool take a solver that solves batches: ${named.join(", ")}`,
        );
      }
    }
    return { id: info.id, engine, reportsGuesses: info.capabilities.guesses };
  }
}

/** A 9×9 kernel instance to write records with, where the thread's engines have none. */
export async function recordsWriter(): Promise<RecordsWriter> {
  const kernel = await WasmKernel.create();
  if (!writesRecords(kernel)) throw new Error("sudoku-wasm: the 9×9 kernel build has no record writer (writeRecords)");
  return kernel;
}

/** Loads the engine of every size for `solve --solver ids` at once (the library's pool reads its records on this thread). */
export async function loadBatchEngines(ids: readonly string[] = []): Promise<ReadonlyMap<number, SizeEngine>> {
  return (await ThreadEngines.open(ids)).all();
}

/** The loadable registry ids whose engines solve batches, less the kernel's variants (loading them all would fetch every variant's file). */
async function batchSolverIds(): Promise<string[]> {
  const ids: string[] = [];
  for (const info of solvers) {
    if (info.unavailable || (info.kernelBuild !== undefined && info.id !== "wasm")) continue;
    try {
      if (solvesBatches(await info.load(info.sizes[0]))) ids.push(info.id);
    } catch {
      // not loadable here: not offered
    }
  }
  return ids;
}
