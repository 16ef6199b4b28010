/**
 * The recipes of docs/cli.md's "Beyond one machine" (GNU parallel, a Kubernetes Indexed Job,
 * Spark and Hadoop Streaming) are checked, not run: the shell parses (`bash -n`), the Python
 * compiles, the YAML parses into an Indexed Job whose completion index becomes `--shard K/N`
 * with N = completions, and every `sudoku-wasm solve|merge` option they use exists.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../src/cli/main.js";

const cliDoc = readFileSync(new URL("../docs/cli.md", import.meta.url), "utf8");
const section = cliDoc.slice(cliDoc.indexOf("\n## Beyond one machine"), cliDoc.indexOf("\n## ", cliDoc.indexOf("\n## Beyond one machine") + 1));
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, language, code]) => ({ language, code }));
const python = spawnSync("python3", ["--version"]).status === 0;
const pyyaml = python && spawnSync("python3", ["-c", "import yaml"]).status === 0;

/** Runs `command` with `input` on standard input; returns its status, output and errors. */
function check(command: string, args: string[], input: string) {
  const result = spawnSync(command, args, { input, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The long options of every `sudoku-wasm solve|merge` command in `text` (backslash-continued lines joined). */
function usedOptions(text: string): { command: string; option: string }[] {
  const joined = text.replace(/\\\n/g, " ");
  return [...joined.matchAll(/sudoku-wasm(?:@\S+)? (solve|merge)([^;|'\n]*)/g)].flatMap(([, command, rest]) =>
    [...rest.matchAll(/(?:^|\s)(--[a-z-]+)/g)].map(([, option]) => ({ command, option })),
  );
}

const program = await buildProgram();
const known = (command: string) => new Set(program.commands.find((c) => c.name() === command)!.options.map((option) => option.long));

describe("docs/cli.md: Beyond one machine", () => {
  it("has the GNU parallel, Kubernetes, Spark and Hadoop recipes", () => {
    expect(blocks.map((block) => block.language)).toEqual(["sh", "yaml", "python", "sh"]);
  });

  it("the shell recipes parse", () => {
    for (const block of blocks.filter((b) => b.language === "sh")) {
      const parsed = check("bash", ["-n"], block.code);
      expect(parsed.status, parsed.stderr).toBe(0);
    }
  });

  it.skipIf(!python)("the Python recipe compiles (needs python3)", () => {
    const compiled = check("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], blocks.find((b) => b.language === "python")!.code);
    expect(compiled.status, compiled.stderr).toBe(0);
  });

  it.skipIf(!pyyaml)("the YAML is an Indexed Job whose completion index is the shard of N = completions (needs python3 with PyYAML)", () => {
    const yaml = blocks.find((b) => b.language === "yaml")!.code;
    const parsed = check("python3", ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))"], yaml);
    expect(parsed.status, parsed.stderr).toBe(0);
    const job = JSON.parse(parsed.stdout);
    expect(job).toMatchObject({ apiVersion: "batch/v1", kind: "Job", spec: { completionMode: "Indexed", template: { spec: { restartPolicy: "Never" } } } });
    const script: string = job.spec.template.spec.containers[0].args.join(" ");
    expect(script).toContain(`--shard "$JOB_COMPLETION_INDEX/${job.spec.completions}"`);
    expect(script).toContain("--resume");
    expect(usedOptions(script).length).toBeGreaterThan(3);
    for (const { command, option } of usedOptions(script)) expect(known(command), `${command} ${option}`).toContain(option);
  });

  it("every solve and merge option the recipes use exists", () => {
    const used = blocks.flatMap((block) => usedOptions(block.code));
    expect(used.length).toBeGreaterThan(10);
    for (const { command, option } of used) expect(known(command), `${command} ${option}`).toContain(option);
  });
});
