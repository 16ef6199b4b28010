/**
 * Reading the result file `--compare` or `--against` names, checked against docs/bench-result.schema.json (ajv); what is
 * wrong is one line naming the file and the first problem. Apart from json.ts so that the web page does not bundle ajv.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { packagePath } from "../../src/kernel/paths.js";
import type { BenchRun } from "../records.js";
import { SCHEMA_PATH, parseJson, readJson } from "./json.js";

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  validator ??= new Ajv2020({ strict: false, validateFormats: false, allErrors: false }).compile(JSON.parse(readFileSync(packagePath(SCHEMA_PATH), "utf8")));
  return validator;
}

/** "records[3].row must be string": where in the file and what is wrong. */
export function describeSchemaError(error: ErrorObject): string {
  const where = error.instancePath
    .split("/")
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, "/").replace(/~0/g, "~")}`))
    .join("")
    .replace(/^\./, "");
  const allowed = error.keyword === "enum" || error.keyword === "const" ? ` (${JSON.stringify(error.params.allowedValues ?? error.params.allowedValue)})` : "";
  return `${where || "the top level"} ${error.message ?? "is not valid"}${allowed}`;
}

/** The run in the result file at `path`, for `option` (e.g. "--compare"); throws one line naming both and the first problem. */
export function readResultFile(path: string, option: string): BenchRun {
  const source = `${option} ${path}`;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a folder, not a file" : (error as Error).message;
    throw new Error(`${source}: cannot read it (${reason})`);
  }
  const data = readJson(text, source);
  const tagged = data as { format?: unknown; version?: unknown } | null;
  if (tagged?.format === "sudoku-wasm-bench" && (tagged.version === 1 || tagged.version === 2)) {
    const before = tagged.version === 1 ? "timing rounds and samples" : "calibrated rounds (CPU time relative to a calibration work)";
    throw new Error(
      `${source}: a version ${tagged.version} result file, written before ${before}: it cannot be judged; ` +
        "measure the earlier commit again, or use --ref COMMIT",
    );
  }
  if (tagged?.format === "sudoku-wasm-bench" && tagged.version === 3 && !validate()(data)) {
    throw new Error(`${source}: not a bench result as ${SCHEMA_PATH} describes: ${describeSchemaError(validate().errors![0])}`);
  }
  return parseJson(data as object, source);
}
