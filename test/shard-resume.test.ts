/**
 * Bulk runs of `sudoku-wasm solve`, format by format: `--shard K/N` outputs that
 * `sudoku-wasm merge` joins into the one-run output byte for byte (1, 2, 3 and 7 shards), records
 * that keep the whole run's index and line, merge's refusals of shards out of order, missing or
 * cut off, and `--resume` finishing an output cut anywhere into the uninterrupted one. Most runs
 * are in this process (the CLI's src/, on the main thread); a few spawn bin/sudoku-wasm.mjs.
 */
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, runCliInProcess as run, scratchFolder } from "./cli-run.js";
import { fixtureAnswers } from "./fixture.js";
import { relabelledPuzzles } from "../bench/corpus.js";
import { Random } from "../src/model/prng.js";

const { dir, file } = scratchFolder("sudoku-shard-resume-");
const cli = (args: string[], input?: string) => runCli(args, { input });

const { solved, multiple, unsolvable } = fixtureAnswers();

/** A corpus with every status and two files, so shards cross file edges. */
const MIXED = [solved, "# a comment", unsolvable, "", multiple, solved.replace(".", "z"), "55" + solved.slice(2)];
const part1 = file("part1.txt", Array.from({ length: 150 }, () => MIXED.join("\n")).join("\n") + "\n" + relabelledPuzzles(700, 3));
const part2 = file("part2.txt", relabelledPuzzles(333, 4));
const FORMATS = ["line", "grid", "jsonl", "csv"] as const;

/** The output of a main-thread run of `args` (written with -o to a scratch file). */
async function output(args: string[]): Promise<string> {
  const path = join(dir, "scratch.out");
  const { status, stderr } = await run(["solve", "--threads", "0", ...args, "-o", path]);
  expect(status, stderr).toBeLessThan(2);
  return readFileSync(path, "utf8");
}

describe("solve --shard K/N and merge", () => {
  for (const out of FORMATS) {
    it(`${out}: the N shard outputs merge into the one-run output, byte for byte`, async () => {
      const whole = await output(["--out", out, part1, part2]);
      for (const count of [1, 2, 3, 7]) {
        const shards: string[] = [];
        for (let k = 0; k < count; k++) {
          const path = join(dir, `shard-${out}-${k}-of-${count}`);
          const { status } = await run(["solve", "--out", out, "--batch", "64", "--threads", "0", "--shard", `${k}/${count}`, "-o", path, part1, part2]);
          expect(status).toBe(1); // the invalid records
          shards.push(path);
        }
        const merged = join(dir, `merged.${out}`);
        expect((await run(["merge", "-o", merged, ...shards])).stderr).toContain(`${out} records from ${count} shard${count === 1 ? "" : "s"}\n`);
        expect(readFileSync(merged, "utf8")).toBe(whole);
        await run(["merge", "--out", out, "-o", merged, ...shards]);
        expect(readFileSync(merged, "utf8")).toBe(whole);
      }
    });
  }

  it("records keep the index and line of the whole run (and merge, spawned, writes standard output)", async () => {
    const records = async (args: string[]) =>
      (await output(["--out", "jsonl", ...args, part1, part2]))
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
    const whole = await records([]);
    const shard = await records(["--shard", "2/5"]);
    expect(shard).toEqual(whole.filter((record) => record.index % 5 === 2));
    expect(shard.length).toBeGreaterThan(100);
    const shards = [0, 1].map((k) => join(dir, `spawned-${k}`));
    shards.forEach((path, k) => cli(["solve", "--shard", `${k}/2`, "-o", path, part2]));
    expect(cli(["merge", ...shards]).stdout).toBe(cli(["solve", part2]).stdout);
  });

  it("merge refuses shards out of order, missing or cut off; solve refuses a bad --shard and judge formats", async () => {
    const shards: string[] = [];
    for (const k of [0, 1, 2]) {
      shards.push(join(dir, `order-${k}.jsonl`));
      await run(["solve", "--out", "jsonl", "--threads", "0", "--shard", `${k}/3`, "-o", shards[k], part2]);
    }
    const merged = join(dir, "refused");
    const swapped = cli(["merge", "-o", merged, shards[1], shards[0], shards[2]]);
    expect(swapped.status).toBe(2);
    expect(swapped.stderr).toMatch(/^sudoku-wasm: .*order-1\.jsonl: record 1 has index 1, expected 0: give the N shards of one run, shard 0 first\n$/);
    expect(existsSync(merged)).toBe(false); // no half-merged file left
    // an output that was there is replaced whole or not at all: refused, it is left as it was (it was removed), no temporary file beside it
    const kept = file("kept.jsonl", "an earlier merge\n");
    chmodSync(kept, 0o640);
    expect(cli(["merge", "-o", kept, shards[1], shards[0], shards[2]]).status).toBe(2);
    expect(readFileSync(kept, "utf8")).toBe("an earlier merge\n");
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(cli(["merge", "-o", kept, ...shards]).status).toBe(0);
    expect(readFileSync(kept, "utf8")).toBe(await output(["--out", "jsonl", part2]));
    expect(statSync(kept).mode & 0o777).toBe(0o640);
    expect((await run(["merge", "-o", merged, shards[0], shards[2]])).status).toBe(2);
    // a shard cut short at a record's end is named as the one that ran out, not the one after it
    const short = file("short-1.jsonl", readFileSync(shards[1], "utf8").split("\n").slice(0, 100).join("\n") + "\n");
    expect((await run(["merge", "-o", merged, shards[0], short, shards[2]])).stderr).toContain(`${short} ends after 100 records, but ${shards[0]} has more`);
    for (const order of [
      [shards[0], join(dir, "absent.jsonl")],
      [join(dir, "absent.jsonl"), shards[0]],
    ]) {
      const absent = cli(["merge", "-o", merged, ...order]);
      expect(absent.status).toBe(2);
      expect(absent.stderr).toBe(`sudoku-wasm: cannot read '${join(dir, "absent.jsonl")}': ENOENT (no such file or directory)\n`);
    }
    const lines = [0, 1].map((k) => file(`uneven-${k}.txt`, k === 0 ? "a\nb\nc\n" : "a\n"));
    expect((await run(["merge", "-o", merged, ...lines])).stderr).toContain("holds 3 records, more than its place allows (2)");
    const cut = file("cut.txt", "a\nb");
    expect((await run(["merge", "-o", merged, lines[0], cut])).stderr).toContain("ends with a cut-off record");
    for (const bad of ["3/3", "1/0", "-1/2", "a/b", "1"]) {
      const refused = await run(["solve", "--shard", bad, "-o", merged, part2]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("expected K/N with 0 ≤ K < N");
    }
    const judge = cli(["solve", "--format", "poj2676", "--shard", "0/2"], "1\n" + solved.replaceAll(".", "0").match(/.{9}/g)!.join("\n") + "\n");
    expect(judge.status).toBe(2);
    expect(judge.stderr).toContain("--shard does not apply to --format poj2676");
    const resumed = cli(["solve", "--format", "poj2676", "--resume", "-o", join(dir, "judge.txt")], "0\n");
    expect([resumed.status, resumed.stderr]).toEqual([
      2,
      "sudoku-wasm: --resume does not apply to --format poj2676: a judge's output is its own text, with no records to count where to go on; run it again whole\n",
    ]);
  });
});

describe("solve --resume", () => {
  const random = new Random(15);
  for (const out of FORMATS) {
    it(`${out}: an output cut anywhere (whole records or not, shard or not) is finished into the uninterrupted one`, async () => {
      for (const shard of [undefined, "1/3"]) {
        const shardArgs = shard ? ["--shard", shard] : [];
        const whole = await output(["--out", out, ...shardArgs, part1, part2]);
        const bytes = Buffer.from(whole);
        for (const cutAt of [0, 1, bytes.length - 1, random.below(bytes.length), random.below(bytes.length), random.below(bytes.length)]) {
          const path = join(dir, `resume.${out}`);
          writeFileSync(path, bytes.subarray(0, cutAt));
          const resumed = await run(["solve", "--out", out, "--threads", "0", "--batch", "100", ...shardArgs, "--resume", "-o", path, part1, part2]);
          expect([0, 1], resumed.stderr).toContain(resumed.status); // 1 when the records this run solved include invalid ones
          expect(readFileSync(path, "utf8"), `cut at byte ${cutAt}`).toBe(whole);
        }
      }
    });
  }

  it("grid: an output cut inside its first record at any line end, its last row's included, is finished (every size)", async () => {
    const sixteen = // sudoku16_kr100.txt line 1
      "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E";
    for (const [size, puzzles] of [
      [4, ["1.3.3..2.1.34...", "12.434..2.4.4.21"]],
      [9, [solved, multiple, solved]],
      [16, [sixteen, sixteen]],
    ] as const) {
      const input = file(`first-grid-${size}.txt`, puzzles.join("\n") + "\n");
      const whole = await output(["--out", "grid", input]);
      expect(whole.indexOf("\n\n"), `${size}`).toBe(size * (size + 1) - 1); // the first record is solved: N rows, then the empty line
      for (let rows = 0; rows <= size; rows++) {
        const path = join(dir, "first-grid.out");
        writeFileSync(path, whole.slice(0, rows * (size + 1)));
        const resumed = await run(["solve", "--out", "grid", "--threads", "0", "--resume", "-o", path, input]);
        expect(resumed.status, `${size}×${size} cut after ${rows} rows: ${resumed.stderr}`).toBe(0);
        expect(readFileSync(path, "utf8"), `${size}×${size} cut after ${rows} rows`).toBe(whole);
      }
    }
  });

  it("starts afresh without the file; needs -o; refuses a jsonl or csv output of another run", async () => {
    const path = join(dir, "fresh.jsonl");
    rmSync(path, { force: true });
    expect((await run(["solve", "--out", "jsonl", "--threads", "0", "--resume", "-o", path, part2])).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(await output(["--out", "jsonl", part2]));
    const noOutput = cli(["solve", "--resume", part2]);
    expect(noOutput.status).toBe(2);
    expect(noOutput.stderr).toContain("--resume needs -o FILE");
    const other = await run(["solve", "--out", "jsonl", "--threads", "0", "--shard", "1/2", "--resume", "-o", path, part2]);
    expect(other.status).toBe(2);
    expect(other.stderr).toContain(`--resume: ${path} ends with record index 332, but this run's record 332 has index 665`);
  });

  it("refuses an output that holds more records than its input gives, in every format, and adds nothing (nor cuts its cut last record)", async () => {
    const fewer = file("fewer.txt", relabelledPuzzles(333, 4).split("\n").slice(0, 100).join("\n") + "\n");
    for (const out of FORMATS) {
      const path = join(dir, `more-records.${out}`);
      const whole = await output(["--out", out, part2]);
      for (const [text, records] of [
        [whole, 333],
        [whole.slice(0, -20), 332], // killed inside its last record
      ] as const) {
        writeFileSync(path, text);
        const resumed = cli(["solve", "--no-progress", "--threads", "0", "--out", out, "--resume", "-o", path, fewer]);
        expect([resumed.status, resumed.stderr], out).toEqual([
          2,
          `sudoku-wasm: --resume: ${path} holds ${records} records of this run, more than its input gives (100 records in all): was it written with other inputs?\n`,
        ]);
        expect(readFileSync(path, "utf8"), out).toBe(text);
      }
    }
    // one record, of an input of one: "1 record" (it said "1 records")
    const single = join(dir, "single.line");
    writeFileSync(single, (await output(["--out", "line", part2])).split("\n")[0] + "\n");
    const one = cli(["solve", "--no-progress", "--threads", "0", "--out", "line", "--resume", "-o", single, file("one-record.txt", `${solved}\n`)]);
    expect(one.stderr).toBe(`'${single}' was already complete (1 record): every input record is in it already; nothing added\n`);
    const none = cli(["solve", "--no-progress", "--threads", "0", "--out", "line", "--resume", "-o", single, file("no-record.txt", "")]);
    expect([none.status, none.stderr]).toEqual([
      2,
      `sudoku-wasm: --resume: ${single} holds 1 record of this run, more than its input gives (0 records in all): was it written with other inputs?\n`,
    ]);
    // one that holds them all says so, and adds nothing
    const path = join(dir, "complete.line");
    writeFileSync(path, await output(["--out", "line", part2]));
    const complete = cli(["solve", "--no-progress", "--threads", "0", "--out", "line", "--resume", "-o", path, part2]);
    expect([complete.status, complete.stderr]).toEqual([
      0,
      `'${path}' was already complete (333 records): every input record is in it already; nothing added\n`,
    ]);
  });

  it("refuses a jsonl or csv output of another input of as many records: its last record's file and line are not this run's", async () => {
    const other = file("other.txt", relabelledPuzzles(333, 5));
    for (const out of ["jsonl", "csv"]) {
      for (const [input, args] of [
        [other, []],
        [part2, ["--shard", "1/2"]],
      ] as const) {
        const whole = await output(["--out", out, ...args, part2]);
        const lines = whole.split("\n");
        const cut = lines.slice(0, lines.length - 3).join("\n") + "\n"; // the last two records gone
        const path = join(dir, `other-input.${out}`);
        writeFileSync(path, cut);
        const resumed = cli(["solve", "--no-progress", "--threads", "0", "--out", out, ...args, "--resume", "-o", path, input === other ? other : part2]);
        if (input === part2) {
          expect(resumed.status, resumed.stderr).toBe(0); // its own input: finished
          expect(readFileSync(path, "utf8")).toBe(whole);
          continue;
        }
        const records = lines.length - 3 - (out === "csv" ? 1 : 0);
        expect([resumed.status, resumed.stderr], out).toEqual([
          2,
          `sudoku-wasm: --resume: ${path} ends with line ${records} of ${part2}, but this run's record ${records - 1} is line ${records} of ${other}: was it written with other inputs?\n`,
        ]);
        expect(readFileSync(path, "utf8")).toBe(cut);
      }
    }
  });

  it("refuses an output with an empty line no record ends with, in every format, naming the line, and leaves it as it was", async () => {
    for (const out of FORMATS) {
      const whole = await output(["--out", out, part2]);
      const lines = whole.split("\n");
      // after the first 10 records' lines (and csv's header) an empty line, where a record would begin
      const at = out === "grid" ? 100 : out === "csv" ? 11 : 10;
      for (const [text, line] of [
        [[...lines.slice(0, at), "", ...lines.slice(at)].join("\n"), at + 1],
        [lines.slice(0, at).join("\n") + "\n\n", at + 1], // a stray empty line at the end
      ] as const) {
        const path = join(dir, `empty-line.${out}`);
        writeFileSync(path, text);
        const resumed = cli(["solve", "--no-progress", "--threads", "0", "--out", out, "--resume", "-o", path, part2]);
        const what = out === "grid" ? "an empty line after no rows" : "an empty line";
        expect([resumed.status, resumed.stderr], out).toEqual([
          2,
          `sudoku-wasm: --resume: ${path} line ${line} is ${what}, which no ${out} output of sudoku-wasm holds: was the file edited? Remove that line and run again\n`,
        ]);
        expect(readFileSync(path, "utf8")).toBe(text);
      }
    }
  });

  it("refuses an output of another format, or csv of other columns, naming both, and leaves it as it was", async () => {
    const csv = await output(["--out", "csv", part2]);
    const jsonl = await output(["--out", "jsonl", part2]);
    const canonCsv = cli(["canon", "--no-progress", "--out", "csv", "--automorphisms", part2]).stdout;
    const header = "index,file,line,puzzle,status,solution,count,guesses,error";
    const cases = [
      { text: csv, args: ["solve", "--out", "line"], says: `holds the csv header "${header}", but this run writes line records` },
      { text: csv, args: ["solve", "--out", "jsonl"], says: `holds the csv header "${header}", but this run writes jsonl records` },
      { text: jsonl, args: ["solve", "--out", "csv"], says: `holds jsonl records, but this run writes the csv header "${header}"` },
      { text: jsonl, args: ["solve", "--out", "grid"], says: "holds jsonl records, but this run writes grid records" },
      { text: await output(["--out", "grid", part2]), args: ["solve", "--out", "line"], says: "holds grid records, but this run writes line records" },
      // line records are not a grid cut inside its first one (they were taken as one, and the file rewritten as grid)
      { text: await output(["--out", "line", part2]), args: ["solve", "--out", "grid"], says: "holds line records, but this run writes grid records" },
      {
        text: cli(["canon", "--no-progress", "--out", "jsonl", "--automorphisms", part2]).stdout,
        args: ["canon", "--out", "jsonl"],
        says: "holds jsonl records of the fields index,canon,puzzle,file,line,automorphisms,error, but this run writes the fields index,canon,puzzle,file,line,error",
      },
      {
        text: jsonl,
        args: ["canon", "--out", "jsonl"],
        says: "holds jsonl records of the fields index,file,line,puzzle,status,solution,count,guesses,error, but this run writes the fields index,canon,puzzle,file,line,error",
      },
      {
        text: canonCsv,
        args: ["canon", "--out", "csv"],
        says: 'holds the csv header "index,canon,puzzle,file,line,automorphisms,error", but this run writes the csv header "index,canon,puzzle,file,line,error"',
      },
    ];
    for (const { text, args, says } of cases) {
      const path = join(dir, "other-run.out");
      writeFileSync(path, text.slice(0, Math.floor(text.length / 2)));
      const resumed = cli([...args, "--no-progress", "--threads", "0", "--resume", "-o", path, part2]);
      expect([resumed.status, resumed.stderr], args.join(" ")).toEqual([
        2,
        `sudoku-wasm: --resume: ${path} ${says}: go on with the --out and options of the run that wrote it\n`,
      ]);
      expect(readFileSync(path, "utf8")).toBe(text.slice(0, Math.floor(text.length / 2)));
    }
  });

  it("jsonl and csv: an input named another way (./, an absolute path from another folder) goes on under the name the run was begun with", async () => {
    file("named.txt", readFileSync(part1, "utf8"));
    for (const [out, again, cwd] of [
      ["jsonl", "./named.txt", dir],
      ["csv", join(dir, "named.txt"), "/"],
    ] as const) {
      const path = join(dir, `named.${out}`);
      const args = ["--no-progress", "--out", out, "--threads", "0", "--batch", "64", "-o", path];
      const whole = spawnSync(process.execPath, [BIN, "solve", "--no-progress", "--out", out, "named.txt", "-"], {
        cwd: dir,
        input: "",
        encoding: "utf8",
      }).stdout;
      // begun as 'named.txt' from its folder, stopped by SIGINT while it waits on standard input, after some of the file's records
      const child = spawn(process.execPath, [BIN, "solve", ...args, "named.txt", "-"], { cwd: dir, stdio: ["pipe", "ignore", "ignore"] });
      const ended = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      while (!(existsSync(path) && statSync(path).size > 0)) await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill("SIGINT");
      expect(await ended).toBe(130);
      const resumed = spawnSync(process.execPath, [BIN, "solve", ...args, "--resume", again, "-"], { cwd, input: "", encoding: "utf8" });
      expect([0, 1], resumed.stderr).toContain(resumed.status);
      expect(readFileSync(path, "utf8"), out).toBe(whole);
    }
  });

  it("an unfinished run's record: --resume refuses another command line, naming what differs, before writing; merge refuses the shard; the record goes once the run finishes", async () => {
    const input = file("unfinished-input.txt", readFileSync(part1, "utf8"));
    const path = join(dir, "unfinished.line");
    const record = `${path}.run.json`;
    const args = ["--out", "line", "--limit", "3", "--threads", "0", "--batch", "64", "--shard", "1/2", "-o", path, input, "-"];
    // stopped by SIGINT while it waits on standard input (held open, never written), after some records of the file
    const child = spawn(process.execPath, [BIN, "solve", "--no-progress", ...args], { stdio: ["pipe", "ignore", "ignore"] });
    const ended = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    while (!(existsSync(path) && statSync(path).size > 0)) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill("SIGINT");
    expect(await ended).toBe(130);
    expect(existsSync(record)).toBe(true);
    const cut = readFileSync(path, "utf8");
    const recorded = readFileSync(record, "utf8");
    const refusals: [string[], string][] = [
      [["solve", ...args.map((arg, i) => (i === 3 ? "2" : arg))], "was begun with --limit 3; this run has --limit 2"],
      [["solve", ...args.slice(0, 8), ...args.slice(10)], "was begun with --shard 1/2; this run has no --shard"],
      [["solve", ...args.map((arg, i) => (i === 9 ? "0/2" : arg))], "was begun with --shard 1/2; this run has --shard 0/2"], // line records carry no index to tell it
      [["solve", ...args, part2], `was begun on the inputs '${input} -'; this run reads '${input} - ${part2}'`],
      [
        ["solve", "--solver", "dlx", ...args],
        "was begun with --solver 9×9 wasm, 4×4/16×16/25×25 general-wasm; this run has --solver 9×9 dlx, 4×4/16×16/25×25 general-wasm",
      ],
      // the default solvers named are the default: a refusal would only be a nuisance
      [["solve", "--solver", "wasm", ...args.map((arg, i) => (i === 3 ? "2" : arg))], "was begun with --limit 3; this run has --limit 2"],
      [["canon", ...args.slice(0, 2), ...args.slice(4)], "was begun by 'solve', not 'canon'"],
    ];
    for (const [command, says] of refusals) {
      const refused = cli([...command, "--no-progress", "--resume"], "");
      expect([refused.status, refused.stderr], command.join(" ")).toEqual([
        2,
        `sudoku-wasm: --resume: ${path} ${says}: resume with the command that began it (${record} records it), or start again without --resume\n`,
      ]);
    }
    // the input changed in place: its last byte, then a line added
    const text = readFileSync(input, "utf8");
    writeFileSync(input, text.slice(0, -2) + (text.at(-2) === "1" ? "2" : "1") + "\n");
    expect(cli(["solve", ...args, "--no-progress", "--resume"], "").stderr).toContain(
      `was begun on '${input}' with other bytes (the same size, another start or end)`,
    );
    appendFileSync(input, solved + "\n");
    expect(cli(["solve", ...args, "--no-progress", "--resume"], "").stderr).toContain(
      `was begun on '${input}' of ${text.length.toLocaleString("en-US")} bytes; it has`,
    );
    writeFileSync(input, text);
    expect([readFileSync(path, "utf8"), readFileSync(record, "utf8")]).toEqual([cut, recorded]); // nothing written by the refused runs
    const merge = cli(["merge", "-o", join(dir, "unfinished-merged"), path]);
    expect([merge.status, merge.stderr]).toEqual([
      2,
      `sudoku-wasm: shard '${path}' is unfinished (${record} is there): its run stopped before its last record; go on with --resume, then merge\n`,
    ]);
    // the same input named from another working folder (a restarted job's): the same file, resumed
    const fromDir = args.map((arg) => (arg === input ? basename(input) : arg));
    const resumed = runCli(["solve", ...fromDir, "--no-progress", "--resume"], { input: "", cwd: dir });
    expect([0, 1], resumed.stderr).toContain(resumed.status); // 1 when the records it solved include invalid ones
    expect(readFileSync(path, "utf8")).toBe(await output(["--out", "line", "--limit", "3", "--shard", "1/2", input]));
    expect(existsSync(record)).toBe(false);
  });
});
