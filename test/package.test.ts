/**
 * The package as a user gets it: `npm pack`, then a fresh folder with only that tarball
 * installed. From there an ES module script, a CommonJS script, the type checker (strict, with
 * and without the DOM lib), esbuild bundles for Node and for the browser (run in headless
 * Chromium, and in Firefox ESR where it is installed) and `npm exec sudoku-wasm -- solve` must
 * all work, and the tarball must hold nothing that needs a devDependency.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createContext, runInContext } from "node:vm";
import { build } from "esbuild";
import { build as viteBuild } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalize } from "../src/canon/canon.js";
import { isValidSolution, parsePuzzle } from "../src/model/puzzle.js";
import { serveFolder, servedUrl } from "../bench/static-server.js";
import { type BrowserName, FIREFOX_PATH, chromiumRequired, hasChromium, hasFirefox, withPage } from "./browser.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const FOUR = "..3..4.22...4..1";
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

let work: string;
let app: string;
let shipped: string[];
let tarball: string;
/** What `npm install` of the tarball printed on standard error. */
let installErrors: string;
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const CLI_DOC = readFileSync(join(ROOT, "docs/cli.md"), "utf8");

/** The standard output of a command; a failure throws with its output, so the test report shows why. */
function run(command: string, args: string[], options: { cwd?: string; input?: string } = {}): string {
  try {
    return execFileSync(command, args, { cwd: options.cwd ?? app, input: options.input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

/** The standard error of a command that must fail (in `app`); one that succeeds throws. */
function runFailure(command: string, args: string[], input: string): string {
  try {
    execFileSync(command, args, { cwd: app, input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    return (error as { stderr: string }).stderr;
  }
  throw new Error(`${command} ${args.join(" ")} succeeded; it should have failed`);
}

/** {@link run}, without blocking: for commands that may run side by side. */
async function runAsync(command: string, args: string[]): Promise<string> {
  try {
    return (await promisify(execFile)(command, args, { cwd: app, encoding: "utf8" })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

/** Checks the JSON line a solve script prints: the 9×9 puzzle solved correctly, and the 4×4 one. */
function expectSolved(output: string): void {
  const { nine, four } = JSON.parse(output.trim().split("\n").at(-1)!);
  expect(nine.status).toBe("solved");
  expect(isValidSolution(parsePuzzle(PUZZLE), parsePuzzle(nine.solution))).toBe(true);
  expect(four).toMatchObject({ status: "solved", solution: "1234341221434321" });
}

const SOLVE_BODY = `
const solver = await createSolver(KERNELS);
const print = (r) => ({ status: r.status, solution: r.solution });
const result = { nine: print(solver.solve(${JSON.stringify(PUZZLE)})), four: print(solver.solve(${JSON.stringify(FOUR)})) };
globalThis.result = result;
console.log(JSON.stringify(result));
`;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "sudoku-wasm-package-"));
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], { cwd: ROOT }));
  tarball = join(work, packed.filename);
  shipped = packed.files.map((file: { path: string }) => file.path);
  console.log(`tarball ${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${shipped.length} files`);
  app = join(work, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "fresh-app", version: "1.0.0", private: true }));
  const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(work, packed.filename)], { cwd: app, encoding: "utf8" });
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stdout}${install.stderr}`);
  installErrors = install.stderr;
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("holds LICENSE, the metadata and the kernels, and no source maps or declarations of bench code", () => {
    expect(shipped).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "package.json",
        "bin/sudoku-wasm.mjs",
        "dist/cli/main.mjs",
        "dist/cli/worker.mjs",
        "dist/src/index.js",
        "dist/src/index.d.ts",
        "dist/build/release.wasm",
        "dist/build/general.wasm",
        "dist/build/facts.js",
      ]),
    );
    expect(shipped.filter((path) => path.endsWith(".map") || path.endsWith(".wat"))).toEqual([]);
    expect(shipped.filter((path) => path.startsWith("dist/bench/") && path.endsWith(".d.ts"))).toEqual([]);
  });

  it("holds every file that README.md and the shipped docs link to (the links work in the installed package)", () => {
    const markdown = shipped.filter((path) => path.endsWith(".md"));
    expect(markdown).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", "docs/cli.md", "docs/library.md"]));
    const dead: string[] = [];
    for (const file of markdown) {
      for (const [, target] of readFileSync(join(ROOT, file), "utf8").matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue; // a URL
        const path = posix.normalize(posix.join(posix.dirname(file), target));
        if (!shipped.includes(path) && !shipped.some((shippedPath) => shippedPath.startsWith(`${path}/`))) dead.push(`${file} → ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it("holds what a user loads and not the repo's own profile kernels (debug builds, the variants)", () => {
    expect(shipped).toEqual(
      expect.arrayContaining([
        "dist/src/pool/solver-pool.js",
        "dist/src/pool/solver-pool.d.ts",
        "dist/src/pool/worker-entry.cjs",
        "dist/build/release.js",
        "dist/build/canon.wasm",
        "dist/build/general.wasm",
      ]),
    );
    expect(shipped.filter((path) => /debug\.wasm$|\/variants\//.test(path))).toEqual([]);
  });

  it("names no made-up URL, and `npm publish --dry-run` corrects nothing and warns of nothing but the login it skips", () => {
    expect(JSON.stringify(manifest)).not.toMatch(/\.example\b|example\.(com|org)/);
    expect(Object.values(manifest.bin as Record<string, string>).filter((path) => path.startsWith("./"))).toEqual([]); // what `npm pkg fix` would remove
    const publish = spawnSync("npm", ["publish", "--dry-run", "--json"], { cwd: ROOT, encoding: "utf8" });
    const warnings = publish.stderr.split("\n").filter((line) => /warn/i.test(line) && !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
  }, 120_000);

  it("installs without a warning (no install script: the build runs before packing, `prepack`)", () => {
    expect(installErrors.split("\n").filter((line) => /warn/i.test(line))).toEqual([]);
    expect(manifest.scripts.prepare).toBeUndefined();
  });

  it("imports only shipped files, dependencies, optional peers and Node builtins from every module", () => {
    const allowed = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies ?? {})]);
    const problems: string[] = [];
    for (const path of shipped.filter((p) => p.endsWith(".js") || p.endsWith(".mjs"))) {
      const text = readFileSync(join(app, "node_modules", "sudoku-wasm", path), "utf8");
      for (const [, specifier] of text.matchAll(/(?:^|[\s;])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm)) {
        if (specifier === undefined) continue;
        if (specifier.startsWith(".")) {
          const target = posix.join(posix.dirname(path), specifier);
          if (!shipped.includes(target)) problems.push(`${path} imports ${specifier}, which is not shipped`);
        } else {
          const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
          if (!allowed.has(name) && !builtinModules.includes(specifier.replace(/^node:/, ""))) problems.push(`${path} imports ${specifier}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("a fresh folder with only the tarball installed", () => {
  it("runs an ES module script", () => {
    writeFileSync(join(app, "esm.mjs"), `import { createSolver } from "sudoku-wasm";\n${SOLVE_BODY.replace("KERNELS", "")}`);
    expectSolved(run("node", ["esm.mjs"]));
  });

  it("runs a CommonJS script: require() of the ES module entry (Node ≥ 20.19)", () => {
    writeFileSync(join(app, "cjs.cjs"), `const { createSolver } = require("sudoku-wasm");\n(async () => {\n${SOLVE_BODY.replace("KERNELS", "")}\n})();`);
    expectSolved(run("node", ["cjs.cjs"]));
  });

  it("runs the pool (sudoku-wasm/pool) from an ES module and from CommonJS", () => {
    const body = `const pool = await createPool({ threads: 2 });
const records = await pool.solveMany([${JSON.stringify(PUZZLE)}, ${JSON.stringify(FOUR)}, "bad"]);
await pool.close();
console.log(JSON.stringify(records.map((r) => r.status)));`;
    writeFileSync(join(app, "pool.mjs"), `import { createPool } from "sudoku-wasm/pool";\n${body}`);
    writeFileSync(join(app, "pool.cjs"), `const { createPool } = require("sudoku-wasm/pool");\n(async () => {\n${body}\n})();`);
    for (const file of ["pool.mjs", "pool.cjs"]) expect(JSON.parse(run("node", [file]).trim())).toEqual(["solved", "solved", "invalid"]);
  }, 60_000);

  it("compiles and runs README's TypeScript snippets: a CommonJS project's .ts (module nodenext), an ES module's .mts (module node16)", async () => {
    const blocks = [...README.matchAll(/```ts\n(\/\/ TypeScript (in a CommonJS project|as an ES module)[^\n]*\n[\s\S]*?)```/g)];
    expect(blocks.map((block) => block[2])).toEqual(["in a CommonJS project", "as an ES module"]);
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    for (const [, code, kind] of blocks) {
      const commonJs = kind === "in a CommonJS project";
      const folder = join(app, commonJs ? "ts-cjs" : "ts-esm");
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "ts-app", version: "1.0.0", type: "commonjs" })); // as `npm init -y` writes it
      const file = commonJs ? "main.ts" : "main.mts";
      writeFileSync(join(folder, file), code);
      const compilerOptions = {
        strict: true,
        target: "es2022",
        module: commonJs ? "nodenext" : "node16",
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules", "@types")],
        outDir: "out",
      };
      writeFileSync(join(folder, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [file] }));
      run("node", [tsc, "-p", folder]);
      expect(run("node", [join(folder, "out", commonJs ? "main.js" : "main.mjs")])).toMatch(/solved/);
    }
  }, 300_000); // two tsc runs, which took 87 s on two loaded cores

  it("runs README's ES module and CommonJS snippets as they are written (copied into a .mjs and a .cjs file)", () => {
    const blocks = [...README.matchAll(/```js\n(\/\/ (ES module|CommonJS)[^\n]*\n[\s\S]*?)```/g)];
    expect(blocks.map((block) => block[2])).toEqual(["ES module", "CommonJS"]);
    for (const [, code, kind] of blocks) {
      const name = kind === "CommonJS" ? "readme.cjs" : "readme.mjs";
      writeFileSync(join(app, name), code);
      expect(run("node", [name])).toMatch(/status: 'solved'/);
    }
  });

  it("runs docs/cli.md's Kubernetes recipe with the tarball on the shared volume (two of its shards, then merge)", () => {
    const yaml = CLI_DOC.slice(CLI_DOC.indexOf("**Kubernetes Indexed Job**"));
    const script = /- >-\n((?: {14}\S.*\n)+)/
      .exec(yaml)![1]
      .replace(/\s*\n\s*/g, " ")
      .trim();
    const volume = join(work, "data");
    mkdirSync(join(volume, "out"), { recursive: true });
    copyFileSync(tarball, join(volume, `sudoku-wasm-${manifest.version}.tgz`));
    writeFileSync(join(volume, "corpus.txt"), `${PUZZLE}\n${FOUR}\n${PUZZLE}\n`);
    const shards = [0, 1].map((index) => {
      const command = script.replaceAll("/data/", `${volume}/`).replace(/\/64"/, '/2"');
      execFileSync("sh", ["-c", command], {
        cwd: work,
        env: { ...process.env, JOB_COMPLETION_INDEX: String(index), npm_config_prefer_offline: "true" },
        stdio: "pipe",
      });
      return join(volume, "out", `shard-${index}.jsonl`);
    });
    const merged = run("npm", ["exec", "--offline", "sudoku-wasm", "--", "merge", ...shards])
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(merged.map((record: { status: string; index: number }) => [record.index, record.status])).toEqual([
      [0, "solved"],
      [1, "solved"],
      [2, "solved"],
    ]);
  }, 300_000); // the shards and the merge from the tarball: 69 s on two loaded cores

  it("lists the npm solvers as unavailable with their install command, and says so when one is asked for", () => {
    writeFileSync(
      join(app, "peers.mjs"),
      `import { createSolver, solvers } from "sudoku-wasm";
const rows = solvers.filter((s) => s.peer).map((s) => ({ id: s.id, unavailable: s.unavailable }));
let error = null;
try { await createSolver({ solver: "npm:dancing-links" }); } catch (e) { error = e.message; }
console.log(JSON.stringify({ rows, error }));`,
    );
    const { rows, error } = JSON.parse(run("node", ["peers.mjs"]));
    expect(rows).toEqual([
      { id: "npm:dancing-links", unavailable: expect.stringContaining("npm install dancing-links@4.3.10") },
      { id: "npm:algorithm.ts", unavailable: expect.stringContaining("npm install @algorithm.ts/sudoku@4.0.3") },
    ]);
    expect(error).toContain("npm install dancing-links@4.3.10");
  });

  it("lists the kernel variants (not shipped) as unavailable, and says why when one is asked for; the default kernel loads", () => {
    writeFileSync(
      join(app, "variants.mjs"),
      `import { createSolver, solvers } from "sudoku-wasm";
const rows = solvers.filter((s) => s.id.startsWith("wasm")).map((s) => ({ id: s.id, unavailable: s.unavailable }));
let error = null;
try { await createSolver({ solver: "wasm:naked" }); } catch (e) { error = e.message; }
const status = (await createSolver({ solver: "wasm" })).solve("${PUZZLE}").status;
console.log(JSON.stringify({ rows, error, status }));`,
    );
    const { rows, error, status } = JSON.parse(run("node", ["variants.mjs"]));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows[0]).toEqual({ id: "wasm" });
    for (const row of rows.slice(1)) expect(row.unavailable).toContain("the npm package ships the default kernels only");
    expect(error).toMatch(/^solver 'wasm:naked' cannot load: its kernel file is not here: .*`npm run build`/);
    expect(status).toBe("solved");
  });

  it("type-checks under --strict with plain --lib es2022 (no Node or DOM types), with --types node, and with the DOM lib (the pool too), without skipLibCheck", async () => {
    writeFileSync(
      join(app, "check.mts"),
      `import { createSolver, solvers, compileKernel, WasmKernel, type SolverId, type SolveRecord, type KernelSource } from "sudoku-wasm";
const id: SolverId = "bitmask";
const source: KernelSource = new URL("https://example.org/release.wasm");
const solver = await createSolver({ solver: id, general: "ts", kernels: { general: source } });
const record: SolveRecord = solver.solve("${PUZZLE}", { limit: 2 });
const status: "solved" | "unsolvable" | "multiple" | "invalid" | "timeout" | "error" = record.status;
const unavailable: string | undefined = solvers[0].unavailable;
const kernel = await WasmKernel.create(await compileKernel());
kernel.input(1).fill(0);
// @ts-expect-error a record has no such field
record.nope;
// @ts-expect-error general is "wasm" or "ts"
await createSolver({ general: "gpu" });
// @ts-expect-error one string is no list of puzzles (it iterates its characters)
solver.solveMany("${PUZZLE}");
// options given as null read as not given, as the docs say
await createSolver({ solver: null, general: null, kernels: null });
solver.solveMany(["${PUZZLE}"], { limit: null, budget: null, alphabet: null });
console.log(status, unavailable, kernel.run(1, 2).counts[0]);
`,
    );
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const common = ["--strict", "--noEmit", "--target", "es2022", "check.mts"];
    const node = ["--types", "node", "--typeRoots", join(ROOT, "node_modules", "@types"), "--module", "nodenext", "--moduleResolution", "nodenext"];
    // A browser project: the DOM lib and no Node types at all (`types: []` needs a tsconfig).
    // With the "browser" condition, as a bundler resolves the package for a page: the pool's declarations are the browser pool's.
    const browser = {
      strict: true,
      noEmit: true,
      target: "es2022",
      lib: ["es2022", "dom"],
      types: [],
      module: "esnext",
      moduleResolution: "bundler",
      customConditions: ["browser"],
    };
    writeFileSync(
      join(app, "tsconfig.browser.json"),
      JSON.stringify({ compilerOptions: browser, files: ["check.mts", "check-pool.mts", "check-web-pool.mts"] }),
    );
    writeFileSync(
      join(app, "check-web-pool.mts"),
      `// @ts-expect-error the browser's pool has no hook for a worker file (Node's test hook)\nimport { usePoolWorker } from "sudoku-wasm/pool";\nconsole.log(usePoolWorker);\n`,
    );
    // Plain ES2022: neither Node's types nor the DOM's; the declarations must not need their URL.
    writeFileSync(
      join(app, "plain.mts"),
      `import { createSolver, type KernelSource } from "sudoku-wasm";\nconst source: KernelSource = "https://example.org/release.wasm";\nexport const count: number = (await createSolver({ kernels: { wasm: source } })).solve("${PUZZLE}").count;\n`,
    );
    // The pool's too: its web streams and abort signals are declared in the package.
    writeFileSync(
      join(app, "plain-pool.mts"),
      `import { createPool } from "sudoku-wasm/pool";
const pool = await createPool({ threads: 1 });
export const statuses: string[] = [];
for await (const record of pool.solveStream(["${PUZZLE}"])) statuses.push(record.status);
`,
    );
    const plain = { strict: true, noEmit: true, target: "es2022", lib: ["es2022"], types: [], module: "nodenext", moduleResolution: "nodenext" };
    writeFileSync(join(app, "tsconfig.plain.json"), JSON.stringify({ compilerOptions: plain, files: ["plain.mts", "plain-pool.mts"] }));
    // The pool: with Node's types, and in the browser project above (its declarations need no Node type).
    writeFileSync(
      join(app, "check-pool.mts"),
      `import type { SolveRecord } from "sudoku-wasm";
import { createPool, type SolverPool } from "sudoku-wasm/pool";
const pool: SolverPool = await createPool({ threads: 1, solver: "wasm", batchSize: 10 });
const records: SolveRecord[] = await pool.solveMany(["${PUZZLE}"], { limit: 2 });
const streamed: AsyncIterable<SolveRecord> = pool.solveStream((async function* () { yield "${PUZZLE}"; })());
// a web ReadableStream (the DOM lib's, or Node's global one), of lines or of bytes
const web: AsyncIterable<SolveRecord> = pool.solveStream(new ReadableStream<string>({ start: (c) => c.close() }));
const bytes: AsyncIterable<SolveRecord> = pool.solveStream(new ReadableStream<Uint8Array>({ start: (c) => c.close() }));
// @ts-expect-error threads is a number
await createPool({ threads: "2" });
// @ts-expect-error one string is no list of puzzles, for the pool either
await pool.solveMany("${PUZZLE}");
await (await createPool({ threads: null, solver: null, batchSize: null, kernels: { wasm: null } })).close();
await pool.close();
console.log(records, streamed, web, bytes);
`,
    );
    await Promise.all([
      runAsync("node", [tsc, "-p", "tsconfig.plain.json"]),
      runAsync("node", [tsc, ...common, "check-pool.mts", "--lib", "es2022", ...node]), // the pool with the rest: the same options
      runAsync("node", [tsc, ...common, "--lib", "es2022,dom", ...node]),
      runAsync("node", [tsc, "-p", "tsconfig.browser.json"]),
    ]);
  }, 300_000); // four tsc runs at once, which took 54 s on two loaded cores

  it('type-checks both entries in a CommonJS project under "module": "commonjs" (TypeScript\'s node10 resolution, which reads no exports)', async () => {
    writeFileSync(
      join(app, "legacy.ts"),
      `import { createSolver, type SolveRecord } from "sudoku-wasm";
import { createPool, type SolverPool } from "sudoku-wasm/pool";
async function main(): Promise<void> {
  const record: SolveRecord = (await createSolver()).solve("${PUZZLE}");
  const pool: SolverPool = await createPool({ threads: 1 });
  console.log(record, await pool.solveMany(["${PUZZLE}"]));
  await pool.close();
}
void main();
`,
    );
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const types = ["--types", "node", "--typeRoots", join(ROOT, "node_modules", "@types")];
    await runAsync("node", [tsc, "--strict", "--noEmit", "--target", "es2022", "--module", "commonjs", ...types, "legacy.ts"]);
  }, 120_000);

  it("runs `npm exec sudoku-wasm -- solve` on standard input", () => {
    const output = run("npm", ["exec", "--offline", "sudoku-wasm", "--", "solve", "--threads", "1"], { input: `${PUZZLE}\n${FOUR}\n` });
    const [nine, four] = output.trim().split("\n");
    expect(isValidSolution(parsePuzzle(PUZZLE), parsePuzzle(nine))).toBe(true);
    expect(four).toBe("1234341221434321");
  }, 60_000);

  it("says which build it is: `sudoku-wasm --version` gives the version, commit, asc version and kernel flags recorded at build time", () => {
    const line = run("npm", ["exec", "--offline", "sudoku-wasm", "--", "--version"]).trim();
    const asc = JSON.parse(readFileSync(join(ROOT, "node_modules", "assemblyscript", "package.json"), "utf8")).version;
    expect(line).toMatch(new RegExp(`^sudoku-wasm ${manifest.version} \\([0-9a-f]{12}(, modified)?\\), asc ${asc} runtime=stub .*optimizeLevel=3`));
  }, 60_000);

  it("refuses `solve --solver mrv` for what it is, not for an optional package that is missing", () => {
    const error = runFailure("npm", ["exec", "--offline", "sudoku-wasm", "--", "solve", "--solver", "mrv"], `${PUZZLE}\n`);
    expect(error).toContain("solver 'mrv' solves one puzzle per call; `solve --solver` and a pool take a solver that solves batches: wasm, general-wasm");
    expect(error).not.toMatch(/wasm:[a-z<]/); // the variants are not in the package
    expect(error).not.toContain("optional package");
  }, 60_000);

  describe("bundled by esbuild", () => {
    let out: string;
    beforeAll(() => {
      out = join(app, "out");
      mkdirSync(out);
      // esbuild does not copy what `new URL(…, import.meta.url)` points at: copy the kernels
      // (exported as sudoku-wasm/kernels/*.wasm) beside the bundle and pass their URLs.
      const require = createRequire(join(app, "package.json"));
      for (const kernel of ["release", "general"]) copyFileSync(require.resolve(`sudoku-wasm/kernels/${kernel}.wasm`), join(out, `${kernel}.wasm`));
      const kernels = `{ kernels: { wasm: new URL("./release.wasm", import.meta.url), general: new URL("./general.wasm", import.meta.url) } }`;
      writeFileSync(
        join(app, "bundled.mjs"),
        `import { createSolver, solvers } from "sudoku-wasm";\n${SOLVE_BODY.replace("KERNELS", kernels)}\nresult.ids = solvers.map((s) => s.id);\n`,
      );
    });

    it("for Node: builds and solves", async () => {
      await build({
        absWorkingDir: app,
        entryPoints: ["bundled.mjs"],
        bundle: true,
        platform: "node",
        format: "esm",
        outfile: join(out, "node.mjs"),
        logLevel: "silent",
      });
      expectSolved(run("node", [join(out, "node.mjs")]));
    });

    it("the pool for Node: builds and solves, its workers running the installed package's files", async () => {
      const kernels = `{ threads: 2, kernels: { wasm: new URL("./release.wasm", import.meta.url), general: new URL("./general.wasm", import.meta.url) } }`;
      const script = `import { createPool } from "sudoku-wasm/pool";
const pool = await createPool(${kernels});
const print = (r) => ({ status: r.status, solution: r.solution });
const [nine, four] = (await pool.solveMany([${JSON.stringify(PUZZLE)}, ${JSON.stringify(FOUR)}])).map(print);
await pool.close();
console.log(JSON.stringify({ nine, four }));`;
      writeFileSync(join(app, "bundled-pool.mjs"), script);
      await build({
        absWorkingDir: app,
        entryPoints: ["bundled-pool.mjs"],
        bundle: true,
        platform: "node",
        format: "esm",
        outfile: join(out, "pool.mjs"),
        logLevel: "silent",
      });
      expectSolved(run("node", [join(out, "pool.mjs")]));
    });

    it("the pool for Node as CommonJS (no import.meta): builds and solves with the kernels passed", async () => {
      const read = (kernel: string) => `require("node:fs").readFileSync(${JSON.stringify(join(out, `${kernel}.wasm`))})`;
      const script = `const { createPool } = require("sudoku-wasm/pool");
(async () => {
  const pool = await createPool({ threads: 2, kernels: { wasm: ${read("release")}, general: ${read("general")} } });
  const print = (r) => ({ status: r.status, solution: r.solution });
  const [nine, four] = (await pool.solveMany([${JSON.stringify(PUZZLE)}, ${JSON.stringify(FOUR)}])).map(print);
  await pool.close();
  console.log(JSON.stringify({ nine, four }));
})();`;
      writeFileSync(join(app, "bundled-pool.cjs"), script);
      await build({
        absWorkingDir: app,
        entryPoints: ["bundled-pool.cjs"],
        bundle: true,
        platform: "node",
        format: "cjs",
        outfile: join(out, "pool.cjs"),
        logLevel: "silent",
      });
      expectSolved(run("node", [join(out, "pool.cjs")]));
    });

    /** Bundles bundled.mjs for the browser into out/browser.js with a page that loads it; returns the bundle's inputs. */
    async function browserBundle(): Promise<string[]> {
      const result = await build({
        absWorkingDir: app,
        entryPoints: ["bundled.mjs"],
        bundle: true,
        platform: "browser",
        format: "esm",
        outfile: join(out, "browser.js"),
        metafile: true,
        logLevel: "silent",
      });
      writeFileSync(join(out, "index.html"), `<!doctype html><script type="module" src="./browser.js"></script>`);
      return Object.keys(result.metafile.inputs);
    }

    it.skipIf(!hasChromium && !chromiumRequired)(
      "for the browser: builds with no Node module in it, and solves in Chromium, listing the solvers a page can load (no kernel variant)",
      async () => {
        const inputs = await browserBundle();
        expect(inputs.filter((path) => path.startsWith("node:") || (!path.includes("node_modules/sudoku-wasm/") && path !== "bundled.mjs"))).toEqual([]);
        const output = await resultInBrowser(out, "chromium");
        expectSolved(output);
        const { ids } = JSON.parse(output) as { ids: string[] };
        expect(ids).toEqual(expect.arrayContaining(["wasm", "general-wasm", "bitmask"]));
        expect(ids.filter((id) => id.startsWith("wasm:"))).toEqual([]); // the variants are in no package, and a page is served none
      },
      60_000,
    );

    it("for Node as CommonJS (no import.meta): builds and solves with the kernels passed", async () => {
      const kernels = `{ kernels: { wasm: require("node:fs").readFileSync(${JSON.stringify(join(out, "release.wasm"))}), general: require("node:fs").readFileSync(${JSON.stringify(join(out, "general.wasm"))}) } }`;
      writeFileSync(join(app, "bundled.cjs"), `const { createSolver } = require("sudoku-wasm");\n(async () => {${SOLVE_BODY.replace("KERNELS", kernels)}})();`);
      await build({
        absWorkingDir: app,
        entryPoints: ["bundled.cjs"],
        bundle: true,
        platform: "node",
        format: "cjs",
        outfile: join(out, "node.cjs"),
        logLevel: "silent",
      });
      expectSolved(run("node", [join(out, "node.cjs")]));
    });

    it("for Node as CommonJS without the kernels passed: createSolver rejects saying to pass them", async () => {
      writeFileSync(
        join(app, "unpassed.cjs"),
        `require("sudoku-wasm").createSolver().then(() => console.log("loaded"), (error) => console.log(error.message));`,
      );
      await build({
        absWorkingDir: app,
        entryPoints: ["unpassed.cjs"],
        bundle: true,
        platform: "node",
        format: "cjs",
        outfile: join(out, "unpassed.cjs"),
        logLevel: "silent",
      });
      expect(run("node", [join(out, "unpassed.cjs")])).toMatch(
        /no import\.meta\.url .*pass the kernels yourself .*createSolver\(\{ kernels: \{ wasm, general \} \}\)/,
      );
    });

    it("as a classic script (an IIFE bundle: no import.meta), loads and lists the solvers it can load (no kernel variant), with Node's process and without", async () => {
      writeFileSync(join(app, "classic.mjs"), `import { solvers } from "sudoku-wasm";\nglobalThis.ids = solvers.map((s) => s.id);`);
      const outfile = join(out, "classic.js");
      await build({ absWorkingDir: app, entryPoints: ["classic.mjs"], bundle: true, platform: "browser", format: "iife", outfile, logLevel: "silent" });
      for (const node of [{}, { process }]) {
        const page: { ids?: string[] } = createContext({ ...node, URL, TextDecoder, TextEncoder, WebAssembly });
        runInContext(readFileSync(outfile, "utf8"), page);
        expect(page.ids).toEqual(expect.arrayContaining(["wasm", "general-wasm", "bitmask"]));
        expect(page.ids!.filter((id) => id.startsWith("wasm:"))).toEqual([]); // no variant file is found without import.meta.url, nor served to a page
      }
    });

    it("for the browser: solves in Firefox ESR too", async (context) => {
      if (!hasFirefox) context.skip(`no Firefox ESR at ${FIREFOX_PATH} (apt-get install firefox-esr)`);
      await browserBundle();
      expectSolved(await resultInBrowser(out, "firefox"));
    }, 60_000);
  });

  it.skipIf(!hasChromium && !chromiumRequired)(
    "bundled by Vite without configuration: the kernels are copied and load in Chromium",
    async () => {
      const root = join(app, "vite-app");
      mkdirSync(root);
      writeFileSync(join(root, "index.html"), `<!doctype html><script type="module" src="./main.js"></script>`);
      writeFileSync(join(root, "main.js"), `import { createSolver } from "sudoku-wasm";\n${SOLVE_BODY.replace("KERNELS", "")}`);
      await viteBuild({ root, configFile: false, logLevel: "silent", build: { outDir: "dist", target: "es2022" } });
      expectSolved(await resultInBrowser(join(root, "dist"), "chromium"));
    },
    60_000,
  );

  it.skipIf(!hasChromium && !chromiumRequired)(
    "canonicalize bundled by Vite without configuration: the minlex kernel is copied and loads in Chromium",
    async () => {
      const root = join(app, "vite-canon");
      mkdirSync(root);
      writeFileSync(join(root, "index.html"), `<!doctype html><script type="module" src="./main.js"></script>`);
      writeFileSync(
        join(root, "main.js"),
        `import { canonicalize } from "sudoku-wasm";\nglobalThis.result = await canonicalize([${JSON.stringify(PUZZLE)}]).catch((error) => error.message);\n`,
      );
      await viteBuild({ root, configFile: false, logLevel: "silent", build: { outDir: "dist", target: "es2022" } });
      expect(JSON.parse(await resultInBrowser(join(root, "dist"), "chromium"))).toEqual(await canonicalize([PUZZLE]));
    },
    60_000,
  );

  it.skipIf(!hasChromium && !chromiumRequired)(
    "an npm solver asked for in a page built by Vite, its optional package not mapped: the error names the solver, the package and what to do",
    async () => {
      const root = join(app, "vite-peer");
      mkdirSync(root);
      writeFileSync(join(root, "index.html"), `<!doctype html><script type="module" src="./main.js"></script>`);
      writeFileSync(
        join(root, "main.js"),
        `import { createSolver } from "sudoku-wasm";\nglobalThis.result = await createSolver({ solver: "npm:dancing-links" }).then(() => "loaded", (error) => error.message);\n`,
      );
      await viteBuild({ root, configFile: false, logLevel: "silent", build: { outDir: "dist", target: "es2022" } });
      expect(JSON.parse(await resultInBrowser(join(root, "dist"), "chromium"))).toMatch(
        /^solver 'npm:dancing-links' could not import the optional package dancing-links, .*import map/,
      );
    },
    60_000,
  );

  it("bundled into a Vite SSR build (ssr.noExternal): the kernels are not copied; kept external, or with the kernels copied and passed, it solves, canonicalize too", async () => {
    // Vite rewrites `new URL(…, import.meta.url)` in client builds only: a server bundle looks for the kernels beside itself
    const root = join(app, "vite-ssr");
    mkdirSync(root);
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "ssr-app", private: true, type: "module" }));
    writeFileSync(join(root, "server.js"), `import { createSolver } from "sudoku-wasm";\n${SOLVE_BODY.replace("KERNELS", "")}`);
    const kernel = 'const kernel = (name) => new URL("./" + name + ".wasm", import.meta.url);\n';
    writeFileSync(
      join(root, "server-kernels.js"),
      `import { canonicalize, createSolver } from "sudoku-wasm";\n${kernel}${SOLVE_BODY.replace("KERNELS", '{ kernels: { wasm: kernel("release"), general: kernel("general") } }')}` +
        `result.canon = await canonicalize([${JSON.stringify(PUZZLE)}], { kernels: { canon: kernel("canon") } });\nconsole.log(JSON.stringify(result));\n`,
    );
    const ssrBuild = (entry: string, outDir: string, ssr: { noExternal: true; external?: string[] }) =>
      viteBuild({ root, configFile: false, logLevel: "silent", ssr, build: { ssr: entry, outDir, target: "node20" } });

    await ssrBuild("server.js", "bundled", { noExternal: true });
    expect(runFailure("node", [join(root, "bundled", "server.js")], "")).toMatch(/sudoku-wasm: missing kernel file:\S*\/build\/(release|general)\.wasm/);

    // kept external (Vite's default; with noExternal: true, named in ssr.external): the installed package finds its kernels
    await ssrBuild("server.js", "external", { noExternal: true, external: ["sudoku-wasm"] });
    expect(readFileSync(join(root, "external", "server.js"), "utf8")).toMatch(/from "sudoku-wasm"/);
    expectSolved(run("node", [join(root, "external", "server.js")]));

    // bundled whole, the kernels copied beside the server and passed: it runs from a folder with no node_modules above it
    const deployed = join(work, "ssr-deployed");
    await ssrBuild("server-kernels.js", deployed, { noExternal: true });
    const require = createRequire(join(app, "package.json"));
    for (const name of ["release", "general", "canon"]) copyFileSync(require.resolve(`sudoku-wasm/kernels/${name}.wasm`), join(deployed, `${name}.wasm`));
    writeFileSync(join(deployed, "package.json"), JSON.stringify({ type: "module" }));
    const output = run("node", [join(deployed, "server-kernels.js")], { cwd: deployed });
    expectSolved(output);
    expect(JSON.parse(output.trim().split("\n").at(-1)!).canon).toEqual(await canonicalize([PUZZLE]));
  }, 60_000);

  /** The pool page (POOL_PAGE) built by Vite without configuration, once; the warnings the build printed. */
  let poolApp: Promise<{ dist: string; warnings: string[] }> | undefined;
  const buildPoolApp = () =>
    (poolApp ??= (async () => {
      const root = join(app, "vite-pool");
      mkdirSync(root);
      writeFileSync(join(root, "index.html"), `<!doctype html><script type="module" src="./main.js"></script>`);
      writeFileSync(join(root, "main.js"), POOL_PAGE);
      const warnings: string[] = [];
      const logger = {
        info() {},
        warn: (message: string) => warnings.push(message),
        warnOnce: (message: string) => warnings.push(message),
        error: (message: string) => warnings.push(message),
        clearScreen() {},
        hasErrorLogged: () => false,
        hasWarned: false,
      };
      await viteBuild({ root, configFile: false, logLevel: "warn", customLogger: logger, build: { outDir: "dist", target: "es2022" } });
      return { dist: join(root, "dist"), warnings };
    })());

  /** What the pool page found in `name`, served without and with cross-origin isolation. */
  async function expectPoolPage(name: BrowserName): Promise<void> {
    const { dist } = await buildPoolApp();
    for (const isolated of [false, true]) {
      const result = JSON.parse(await resultInBrowser(dist, name, isolated));
      expect(result).toEqual({
        isolated,
        threads: 2,
        records: 600,
        statuses: ["invalid", "multiple", "solved", "unsolvable"],
        many: true,
        streamed: true,
        bytes: true,
        closed: true,
      });
    }
  }

  it.skipIf(!hasChromium && !chromiumRequired)(
    "sudoku-wasm/pool bundled by Vite without configuration or warning: Solver.solveMany's records from Web Workers in Chromium, memory shared or not",
    async () => {
      const { dist, warnings } = await buildPoolApp();
      expect(warnings).toEqual([]);
      expect(readdirSync(join(dist, "assets")).some((file) => /^web-pool-worker.*\.js$/.test(file))).toBe(true);
      await expectPoolPage("chromium");
    },
    120_000,
  );

  it.skipIf(!hasChromium && !chromiumRequired)(
    "sudoku-wasm/pool in Chromium: a batch whose Web Worker closes itself (no error event) settles, as `error` records once the retry's worker closes too, and the pool goes on",
    async () => {
      const root = join(app, "vite-pool-closing");
      mkdirSync(root);
      writeFileSync(join(root, "index.html"), `<!doctype html><script type="module" src="./main.js"></script>`);
      writeFileSync(join(root, "main.js"), POOL_CLOSING_PAGE);
      await viteBuild({ root, configFile: false, logLevel: "silent", build: { outDir: "dist", target: "es2022" } });
      // The worker module as shipped, made to call self.close() on a batch solved under limit 3 (every worker: the retry's too).
      const assets = join(root, "dist", "assets");
      const worker = join(assets, readdirSync(assets).find((file) => /^web-pool-worker.*\.js$/.test(file))!);
      const closes = `{ const solve = self.onmessage; self.onmessage = (event) => (event.data.kind === "batch" && event.data.task.options.limit === 3 ? self.close() : solve(event)); }`;
      writeFileSync(worker, `${readFileSync(worker, "utf8")}\n${closes}\n`);
      const result = JSON.parse(await resultInBrowser(join(root, "dist"), "chromium"));
      expect(result).toEqual({ closing: ["error"], after: ["solved"] });
    },
    120_000,
  );

  it("sudoku-wasm/pool in Firefox ESR too, memory shared or not", async (context) => {
    if (!hasFirefox) context.skip(`no Firefox ESR at ${FIREFOX_PATH} (apt-get install firefox-esr)`);
    await expectPoolPage("firefox");
  }, 120_000);
});

/** A page that solves 600 lines on a pool of two Web Workers and on one thread, and leaves what it found in `globalThis.result`. */
const POOL_PAGE = `import { createPool } from "sudoku-wasm/pool";
import { createSolver } from "sudoku-wasm";
const nine = ${JSON.stringify(PUZZLE)};
// Batches of 50: some with a line of another length (read on the page), the others all of 81 characters (read by the
// worker from their text: among them a \`y\`, which no reader takes for an empty cell, and a repeated clue).
const lines = Array.from({ length: 600 }, (_, i) =>
  i % 97 === 5 ? "bad line" : i % 101 === 7 ? ${JSON.stringify(FOUR)} : i % 89 === 3 ? nine.slice(0, 40) + "." + nine.slice(41).replace("1", ".")
  : i % 83 === 11 ? "y" + nine.slice(1) : i % 79 === 20 ? nine[0] + nine[0] + nine.slice(2) : nine.slice(i % 7) + nine.slice(0, i % 7));
const expected = JSON.stringify((await createSolver()).solveMany(lines, { limit: 2 }));
const pool = await createPool({ threads: 2, batchSize: 50 });
const many = await pool.solveMany(lines, { limit: 2 });
const streamed = [];
for await (const record of pool.solveStream(new ReadableStream({ start(c) { lines.forEach((line) => c.enqueue(line)); c.close(); } }), { limit: 2 })) streamed.push(record);
const bytes = JSON.stringify(await pool.solveMany(new Response(lines.join("\\n")).body, { limit: 2 })) === expected;
await pool.close();
const closed = await pool.solveMany(lines).then(() => false, (error) => /closed/.test(error.message));
globalThis.result = { isolated: globalThis.crossOriginIsolated, threads: pool.threads, records: many.length,
  statuses: [...new Set(many.map((r) => r.status))].sort(), many: JSON.stringify(many) === expected, streamed: JSON.stringify(streamed) === expected, bytes, closed };
`;

/** A page whose pool solves a batch under limit 3 (its worker, patched, closes itself then) and then goes on (see its test). */
const POOL_CLOSING_PAGE = `import { createPool } from "sudoku-wasm/pool";
const lines = Array.from({ length: 10 }, () => ${JSON.stringify(PUZZLE)});
const pool = await createPool({ threads: 2, batchSize: 5 });
const closing = await pool.solveMany(lines, { limit: 3 });
const after = await pool.solveMany(lines, { limit: 2 });
await pool.close();
console.log(closing[0].error);
globalThis.result = { closing: [...new Set(closing.map((r) => r.status))], after: [...new Set(after.map((r) => r.status))] };
`;

/**
 * What `folder`/index.html, served over HTTP, leaves in `globalThis.result`, as JSON (from the
 * headless browser named); `isolated`: served cross-origin isolated (its page may share memory).
 */
async function resultInBrowser(folder: string, name: BrowserName, isolated = false): Promise<string> {
  const server = await serveFolder(folder, isolated);
  try {
    return await withPage(
      servedUrl(server, "index.html"),
      async (page) => {
        await page.waitForFunction(() => (globalThis as { result?: unknown }).result !== undefined, { timeout: 30_000 });
        return JSON.stringify(await page.evaluate(() => (globalThis as { result?: unknown }).result));
      },
      name,
    );
  } finally {
    server.close();
  }
}
