/**
 * Optional peer packages: the npm solvers the bench compares against, and the adapters that put
 * them behind the engine contract. The library never needs them; they are imported only when such
 * a solver is loaded, by a specifier no bundler follows. Neither reports guesses or honours a budget.
 *
 * `npm:dancing-links` (every size): a grid of side N is exact cover over 4N² columns (cell filled,
 * row-digit, column-digit, box-digit), one sparse row per clue and per candidate of an empty cell,
 * whose data is `cell · N + digit − 1`.
 *
 * `npm:algorithm.ts` (box sizes 2–5): `@algorithm.ts/sudoku`'s `SudokuSolver` (DLX over arrays),
 * whose `solve()` stops at the first solution, so it counts at most 1 and cannot prove uniqueness.
 */
import type { Grid } from "../model/puzzle.js";
import { nodeBuiltin } from "../kernel/kernel-source.js";
import { gridTables } from "../model/shape.js";
import type { SearchStats, SolverEngine } from "./solver.js";
import { candidateMasks, coverColumns } from "./units.js";

/** An npm package a comparison solver wraps, at the version the adapter was written for. */
export interface PeerPackage {
  name: string;
  version: string;
}

/** `npm install dancing-links@4.3.10` */
export function installCommand(peer: PeerPackage): string {
  return `npm install ${peer.name}@${peer.version}`;
}

/** Why a solver over `peer` cannot load here: the package is not installed, and how to install it. */
function missingPeerMessage(peer: PeerPackage): string {
  return `needs the optional package ${peer.name}, which is not installed: ${installCommand(peer)}`;
}

/** The registry fields of a row over `peer`: `peer`, and `unavailable` when it is not installed (in a browser: not mapped). */
export function peerFields(peer: PeerPackage): { peer: PeerPackage; unavailable?: string } {
  const unmapped = unmappedPeerMessage(peer);
  if (unmapped !== undefined) return { peer, unavailable: unmapped };
  return peerInstalled(peer) ? { peer } : { peer, unavailable: missingPeerMessage(peer) };
}

/** The parts of a page's globals read here (the library's types take no DOM lib). */
interface PageGlobals {
  document?: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> };
  WorkerGlobalScope?: unknown;
}

/**
 * Why `peer` cannot load in this browser, where a bare name resolves only through the page's import map: the page maps no
 * such name, or this is a Web Worker, which takes no import map. Undefined outside a browser (Node decides by its
 * node_modules folders), and on a page whose import map maps the name.
 */
function unmappedPeerMessage(peer: PeerPackage): string | undefined {
  if (nodeBuiltin("node:fs") !== undefined) return undefined;
  const page = globalThis as PageGlobals;
  const byName = `needs the optional package ${peer.name}, which it imports by name`;
  const mapIt = `import map that maps ${peer.name} to the package's module`;
  if (page.document === undefined)
    return page.WorkerGlobalScope === undefined
      ? undefined
      : `${byName}: a Web Worker cannot, as it takes no import map (use it on the page, with an ${mapIt})`;
  return pageMaps(page.document, peer.name) ? undefined : `${byName}: this page cannot, as it has no ${mapIt}`;
}

/** True when one of the page's import maps (`<script type="importmap">`, in `imports` or a scope) maps `name`, or a prefix of it ending in `/`. */
function pageMaps(document: NonNullable<PageGlobals["document"]>, name: string): boolean {
  for (const script of Array.from(document.querySelectorAll('script[type="importmap"]'))) {
    let map: { imports?: unknown; scopes?: unknown };
    try {
      map = JSON.parse(script.textContent ?? "") as typeof map;
    } catch {
      continue; // the browser ignores a map it cannot parse
    }
    const tables = [map?.imports, ...(map?.scopes !== null && typeof map?.scopes === "object" ? Object.values(map.scopes) : [])];
    for (const table of tables) {
      if (table === null || typeof table !== "object") continue;
      if (Object.keys(table).some((key) => key === name || (key.endsWith("/") && name.startsWith(key)))) return true;
    }
  }
  return false;
}

/**
 * True when `peer` is in a node_modules folder beside one of this package's parent folders, or when the runtime cannot tell
 * before importing (a bundle with no file URL; a browser is told by {@link unmappedPeerMessage}). Only `import.meta.url` is
 * read: bundlers warn of other uses in classic workers (`import.meta.resolve` would tell a page's mapped names too).
 */
function peerInstalled(peer: PeerPackage): boolean {
  const fs = nodeBuiltin<{ existsSync(path: URL): boolean }>("node:fs");
  const here: string | undefined = import.meta.url; // (not inside `new URL(…)`, which bundlers take for an asset to copy); none in a classic-script or CommonJS bundle
  if (fs === undefined || typeof here !== "string" || !here.startsWith("file:")) return true;
  for (let folder = new URL(".", here); ; ) {
    if (fs.existsSync(new URL(`node_modules/${peer.name}/package.json`, folder))) return true;
    const parent = new URL("..", folder);
    if (parent.href === folder.href) return false;
    folder = parent;
  }
}

/** Imports `peer`, or throws an Error naming the solver and the install command. */
async function importPeer<Module>(solverId: string, peer: PeerPackage): Promise<Module> {
  const specifier = peer.name; // a variable, so bundlers leave the import to run time
  try {
    return (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as Module;
  } catch (error) {
    if (nodeBuiltin("node:fs") === undefined)
      throw new Error(
        `solver '${solverId}' could not import the optional package ${peer.name}, which it imports when it loads, by name: outside Node the page must map that name (an import map) to the package's module (${error instanceof Error ? error.message : String(error)})`,
        { cause: error },
      );
    if (peerInstalled(peer)) throw error; // installed but broken: the real error says more
    throw new Error(`solver '${solverId}' ${missingPeerMessage(peer)}`, { cause: error });
  }
}

// ─── The adapters ────────────────────────────────────────────────────────────

/** The packages the adapters were written for. */
export const DANCING_LINKS_PEER: PeerPackage = { name: "dancing-links", version: "4.3.10" };
export const ALGORITHM_TS_PEER: PeerPackage = { name: "@algorithm.ts/sudoku", version: "4.0.3" };

// The parts of the packages the adapters use: their own types stay out of ours, so they need not be installed.
interface DancingLinksModule {
  DancingLinks: new () => {
    createSolver(options: { columns: number }): {
      addSparseConstraint(data: number, columns: number[]): void;
      find(limit: number): { data: number }[][];
    };
  };
}
interface AlgorithmTsModule {
  SudokuSolver: new (options: { childMatrixWidth: number }) => { solve(board: number[], answer: number[]): boolean };
}

/** `dancing-links@4` solving the exact-cover encoding of grids of box size `box` (2–5); imports the package (an Error with the install command when it is missing). */
export async function dancingLinksEngine(solverId: string, box: number): Promise<SolverEngine> {
  const { DancingLinks } = await importPeer<DancingLinksModule>(solverId, DANCING_LINKS_PEER);
  const factory = new DancingLinks();
  const tables = gridTables(box);
  const side = tables.size;
  const masks = new Uint32Array(tables.cells);
  return {
    /** Counts up to `limit` with the package's `find(limit)`; the budget cannot be honoured. */
    countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats): number {
      const solver = factory.createSolver({ columns: 4 * tables.cells });
      /** Adds the row of placing `digit` in `cell`: a fresh array of its 4 columns (the package keeps it). */
      const addRow = (cell: number, digit: number): void => {
        const columns = [0, 0, 0, 0];
        coverColumns(tables, cell, digit, columns);
        solver.addSparseConstraint(cell * side + digit - 1, columns);
      };
      candidateMasks(tables, puzzle, masks);
      for (let cell = 0; cell < tables.cells; cell++) {
        if (puzzle[cell] !== 0) addRow(cell, puzzle[cell]);
        for (let digit = 1; digit <= side; digit++) {
          if ((masks[cell] >>> digit) & 1) addRow(cell, digit);
        }
      }
      const found = solver.find(limit);
      if (found.length > 0) {
        for (const { data } of found[0]) solution[Math.floor(data / side)] = (data % side) + 1;
      }
      stats.guesses = NaN;
      stats.timedOut = false;
      return found.length;
    },
  };
}

/** `@algorithm.ts/sudoku@4` for box size `box`; imports the package (an Error with the install command when it is missing). */
export async function algorithmTsEngine(solverId: string, box: number): Promise<SolverEngine> {
  const { SudokuSolver } = await importPeer<AlgorithmTsModule>(solverId, ALGORITHM_TS_PEER);
  const solver = new SudokuSolver({ childMatrixWidth: box });
  const board = new Array<number>(box ** 4).fill(-1);
  const answer = new Array<number>(box ** 4).fill(-1);
  return {
    /** 1 when the package finds a solution (written to `solution`), else 0: it stops at the first, whatever the limit. */
    countSolutions(puzzle: Grid, _limit: number, solution: Grid, stats: SearchStats): number {
      for (let cell = 0; cell < board.length; cell++) board[cell] = puzzle[cell] - 1;
      const found = solver.solve(board, answer);
      if (found) {
        for (let cell = 0; cell < board.length; cell++) solution[cell] = answer[cell] + 1;
      }
      stats.guesses = NaN;
      stats.timedOut = false;
      return found ? 1 : 0;
    },
  };
}
