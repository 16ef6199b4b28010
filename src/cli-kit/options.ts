/**
 * The options tables of the commands: one {@link OptionRow} per option is the source of its help
 * text, default and parser; {@link toOption} makes it a commander Option, {@link tableCommand} a command of them.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { isWhole } from "../model/whole-number.js";

/** One option of a command: its flags, help, default and parsing. */
export interface OptionRow {
  /** Commander flags, e.g. `-t, --threads <n>`. */
  flags: string;
  description: string;
  /** The value when the option is not given. */
  default?: unknown;
  /** How the default reads in --help when it is not a plain value (or when there is no default value). */
  defaultText?: string;
  /** The only values accepted. */
  choices?: readonly string[];
  /** Turns the text given into the value (throws an InvalidArgumentError on bad text). */
  parse?: (text: string) => unknown;
  /** Options this one cannot be given with (attribute names, e.g. `limit`). */
  conflicts?: string | string[];
}

/** The commander Option of a table row; a `defaultText` without a default value is shown in the description. */
export function toOption(row: OptionRow): Option {
  const noValueDefault = row.default === undefined && row.defaultText !== undefined;
  const option = new Option(row.flags, noValueDefault ? `${row.description} (default: ${row.defaultText})` : row.description);
  if (row.default !== undefined) option.default(row.default, row.defaultText);
  if (row.choices) option.choices(row.choices);
  if (row.parse) option.argParser(row.parse);
  if (row.conflicts) option.conflicts(row.conflicts);
  return option;
}

/** The command `name` with its description and the options of `rows`, in order; `-o -` is standard output (as `-` as an input is standard input). */
export function tableCommand(name: string, description: string, rows: readonly OptionRow[]): Command {
  const command = new Command(name).description(description);
  for (const row of rows) command.addOption(toOption(row));
  if (rows.some((row) => row.flags.includes("--output <file>"))) {
    command.hook("preAction", (run) => {
      if (run.getOptionValue("output") === "-") run.setOptionValue("output", undefined); // (a parser cannot give undefined)
    });
  }
  return command;
}

/** A parser of whole numbers from `min` to `max` written in decimal digits (no `1e3`, no sign, no fraction). */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (text: string) => number {
  const range = max === Number.MAX_SAFE_INTEGER ? `from ${min} up` : `from ${min} to ${max}`;
  return (text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || !isWhole(value, min, max)) {
      throw new InvalidArgumentError(`expected a whole number ${range}, got '${text}'`);
    }
    return value;
  };
}

/** A parser of comma-separated items, trimmed, empty ones dropped (`a, b,` → `["a", "b"]`). */
export function commaList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** A parser of comma-separated registry solver ids ({@link commaList}): one or more (`""` or `,` names none, not the default). */
export function solverIdList(text: string): string[] {
  const ids = commaList(text);
  if (ids.length === 0) throw new InvalidArgumentError(`expected registry solver ids separated by commas, got '${text}'`);
  return ids;
}
