/**
 * How a kernel's bytes become a compiled module, the same in Node, browsers, workers, Deno and Bun:
 * a WebAssembly.Module as is, bytes through WebAssembly.compile, a Response through compileStreaming
 * (bytes when it is not application/wasm), a `file:` URL through node:fs (reached through
 * process.getBuiltinModule, so no bundler meets a Node import), any other URL through fetch.
 */

/** A compiled module: `WebAssembly.Module` wherever the lib in use declares it, else `object`. */
export type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer M } } } ? M : object;

/** The part of a fetch `Response` a kernel source needs (the DOM lib and @types/node both satisfy it). */
export interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A WHATWG `URL` where the lib in use declares one, else `never` (plain `lib: es2022` still type-checks). */
export type UrlObject = typeof globalThis extends { URL: { prototype: infer U } } ? U : never;

/** Where a kernel comes from: a compiled module, its bytes, a fetch response (or its promise), or a URL (object or absolute string). */
export type KernelSource = WasmModule | ArrayBuffer | ArrayBufferView | ResponseLike | PromiseLike<ResponseLike> | UrlObject | string;

/**
 * The names a `kernels` option may hold: createSolver and createPool load `wasm` and `general`, canonicalize `canon`; each
 * leaves the others alone, so one object can carry all three, and refuses any other name (a misspelt one would load the file).
 */
export const KERNEL_NAMES = ["wasm", "general", "canon"] as const;

/** What a kernel given may be, and every call that takes one (after "pass it yourself"). */
export const GIVE_KERNELS =
  "(a URL, bytes, a Response or a WebAssembly.Module): createSolver({ kernels: { wasm, general } }), createPool({ kernels }), " +
  "canonicalize(puzzles, { kernels: { canon } }) or WasmKernel.create(source)";

/** What to do when a kernel is not where the package looks (a bundler that does not copy it, e.g. esbuild). */
const PASS_KERNELS = `serve the kernel at that URL, or pass it yourself ${GIVE_KERNELS}`;

/** What to do when a kernel file is not where the package looks in Node (a bundle, or dist/ without build/). */
const MISSING_FILE = `copy it there from the package (sudoku-wasm/kernels/<kernel>.wasm) or pass it yourself ${GIVE_KERNELS}; in a clone of sudoku-wasm, \`npm run build\` makes it`;

/** A Node built-in module (`node:fs`), reached at run time so that no bundler meets a Node import; undefined outside Node (20.16+ has process.getBuiltinModule). */
export function nodeBuiltin<Module>(id: string): Module | undefined {
  return (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(id) as Module | undefined;
}

/** Compiles a kernel from any {@link KernelSource}; errors name the source. */
export async function compileSource(source: KernelSource): Promise<WasmModule> {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source as BufferSource);
  if (typeof source === "string" || source instanceof URL) return compileUrl(kernelUrlOf(source));
  if (typeof (source as PromiseLike<unknown>).then === "function") return compileResponse(await (source as PromiseLike<ResponseLike>));
  if (typeof (source as ResponseLike).arrayBuffer === "function") return compileResponse(source as ResponseLike);
  throw new TypeError("sudoku-wasm: a kernel source is a WebAssembly.Module, bytes, a Response or a URL");
}

/** The URL a kernel source names: relative to the page's base in a browser; a relative string outside a page is a TypeError. */
function kernelUrlOf(source: string | URL): URL {
  const base = (globalThis as { document?: { baseURI?: string } }).document?.baseURI ?? (globalThis as { location?: { href?: string } }).location?.href;
  try {
    return new URL(source, base);
  } catch {
    throw new TypeError(`sudoku-wasm: the kernel source '${String(source)}' is not a URL (an absolute one, or one relative to a page)`);
  }
}

/** The error of a kernel given as `kernels.<key>` that could not be loaded, naming it where the error does not name its source (a CompileError of bad bytes). */
export function givenKernelError(key: "wasm" | "general" | "canon", error: unknown): unknown {
  if (!(error instanceof Error) || error.message.startsWith("sudoku-wasm:")) return error;
  return new Error(`sudoku-wasm: the kernel given as kernels.${key} could not be loaded: ${error.message}`, { cause: error });
}

/** Reads a file: URL with Node's fs, or fetches any other URL. */
async function compileUrl(url: URL): Promise<WebAssembly.Module> {
  if (url.protocol === "file:") {
    // fs/promises on Node; Deno and Bun fetch file: URLs; a browser refuses, and the error below says which URL.
    const fs = nodeBuiltin<typeof import("node:fs/promises")>("node:fs/promises");
    if (fs) {
      const bytes = await fs.readFile(url).catch((error: { code?: string }) => {
        const missing = error.code === "ENOENT";
        throw new Error(`sudoku-wasm: ${missing ? "missing kernel" : "cannot read the kernel"} ${url.href}${missing ? `; ${MISSING_FILE}` : ""}`, {
          cause: error,
        });
      });
      return WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
    }
  }
  let response: ResponseLike;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new Error(`sudoku-wasm: cannot fetch the kernel ${url.href} (${(error as Error).message}); ${PASS_KERNELS}`);
  }
  return compileResponse(response);
}

/**
 * Streams a fetched kernel into the compiler, or compiles its bytes when streaming cannot be used. Bytes that are not
 * WebAssembly (a host that answers a missing file with its index.html gives 200 and a page) are named with their URL and type.
 */
async function compileResponse(response: ResponseLike): Promise<WebAssembly.Module> {
  if (!response.ok) throw new Error(`sudoku-wasm: fetching the kernel ${response.url} gave HTTP ${response.status}; ${PASS_KERNELS}`);
  const type = response.headers.get("content-type")?.split(";")[0].trim() || undefined;
  try {
    if (type === "application/wasm" && typeof WebAssembly.compileStreaming === "function" && typeof Response === "function" && response instanceof Response) {
      return await WebAssembly.compileStreaming(response);
    }
    return await WebAssembly.compile(await response.arrayBuffer());
  } catch (error) {
    if (!(error instanceof Error) || error.name !== "CompileError") throw error;
    const kernel = response.url ? `the kernel ${response.url}` : "the kernel's response";
    throw new Error(`sudoku-wasm: ${kernel} is not WebAssembly${type ? ` (it came as ${type})` : ""}: ${error.message}; ${PASS_KERNELS}`, { cause: error });
  }
}
