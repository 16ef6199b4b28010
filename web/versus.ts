/**
 * The page's "vs wasm" cell: how a row's speed compares with the WASM kernel's on the same
 * dataset, as "2.47× slower" or, when the row is the faster, "1.56× faster" (never "0.64× slower").
 */
export function versusWasm(wasmPerSecond: number, rowPerSecond: number): string {
  const times = (ratio: number) => ratio.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return wasmPerSecond >= rowPerSecond ? `${times(wasmPerSecond / rowPerSecond)}× slower` : `${times(rowPerSecond / wasmPerSecond)}× faster`;
}
