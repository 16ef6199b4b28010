/**
 * The page's "vs wasm" cell: how a row's speed compares with the WASM kernel's on the same
 * dataset, as "2.47× slower" or, when the row is the faster, "1.56× faster" (never "0.64× slower");
 * the bench's wording ({@link formatTimes}).
 */
import { formatTimes } from "../bench/report/format.js";

export function versusWasm(wasmPerSecond: number, rowPerSecond: number): string {
  return formatTimes(wasmPerSecond / rowPerSecond, "slower", "faster");
}
