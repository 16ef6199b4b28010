/**
 * One writer per output file: a `solve -o FILE` run holds an exclusive lock on FILE while it
 * writes, so a second run of the same output (say a restarted pod beside a slow one, both with
 * `--resume`) is refused before it reads or writes anything.
 *
 * The lock is proper-lockfile's folder `FILE.lock`, whose mtime the holder refreshes; beside it
 * `FILE.lock.owner` names the holder ({@link ownerRecord}). A second run takes the lock over at
 * once when that owner is provably gone (a pid of this boot and pid namespace that no longer runs,
 * is a zombie, or is another process now), never while it is provably alive (stopped included),
 * and otherwise (another machine or namespace) only once the lock is stale ({@link staleMs}). A
 * holder writes its record as soon as it has the lock, so a lock whose record has not appeared
 * 2 s after it is found was left by a run killed in between, and is taken over then.
 *
 * `--take-lock` takes it whatever its owner. A takeover first puts a copy of FILE in its place, so
 * a previous holder still running writes into a file no name reaches; a holder that finds its lock
 * taken drops what it has not written and exits 2, never removing the new holder's lock.
 */
import { closeSync, copyFileSync, existsSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as fs from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { OutputWriteError, attempt, failedOutput, stopBeforeStreamExit } from "./errors.js";
import { statOf } from "./same-file.js";

/** The environment variable that sets the stale time in ms (for tests: at least 2000). */
export const STALE_MS_VARIABLE = "SUDOKU_WASM_LOCK_STALE_MS";

/** After how long without a refresh a lock whose owner cannot be checked is stale (another run may take it), in ms: 30 s. */
export function staleMs(): number {
  const set = Number(process.env[STALE_MS_VARIABLE]);
  return Number.isSafeInteger(set) && set >= 2000 ? set : 30_000;
}

/** How often the holder refreshes its lock, in ms: 5 s, or a third of a shorter stale time (at least 1 s). */
const refreshMs = (): number => Math.max(1000, Math.min(5000, Math.floor(staleMs() / 3)));

/** What the holder of an output lock can do with it. */
export interface OutputLock {
  /** Registers the stream writing the output: when the lock is found taken, it is destroyed at once, before anything else. */
  guard(stream: NodeJS.WritableStream): void;
  /** Throws unless this run still holds the lock and the output is still the file it wrote (call it before reporting success). */
  verify(): void;
  /** Releases the lock, unless another run has taken it; a second call does nothing. */
  release(): Promise<void>;
  /** Verifies, then puts the file `temporary` (beside the output) in the output's place, and holds that file from now on. */
  replaceWith(temporary: string): void;
  /** True when the lock made the output (it was missing): a run refused before writing it calls {@link abandon}. */
  readonly made: boolean;
  /** Releases the lock, and removes the output when the lock made it (nothing was there before the run). */
  abandon(): Promise<void>;
}

const NO_LOCK: OutputLock = {
  guard: () => {},
  verify: () => {},
  release: async () => {},
  replaceWith: () => {
    throw new Error("no output file is locked: nothing to replace");
  },
  made: false,
  abandon: async () => {},
};

/** How a second run can take over on purpose, as its refusal says. */
const TAKE_OVER_HINT = "to take it over anyway (that run then stops, writing nothing more to it), add --take-lock";

/**
 * Takes the lock on output file `path` (made empty when missing, so every spelling locks the same
 * file), or throws a one-line reason when another run holds it (`takeOver`: whatever its owner).
 * Standard output and non-regular files are not locked. `keep`: a takeover keeps the file's bytes.
 */
export async function lockOutput(
  path: string | undefined,
  options: {
    takeOver?: boolean;
    keep?: boolean;
    /** False for a command without --take-lock: its refusals do not offer it. */
    offersTakeOver?: boolean;
    /** True when the output is replaced by a rename (merge), not written in place: the file's other names keep their bytes. */
    replaced?: boolean;
  } = {},
): Promise<OutputLock> {
  if (path === undefined) {
    refuseLockedStandardOutput();
    return NO_LOCK;
  }
  let made = false;
  const stats = statOf(path);
  if (stats !== null) {
    if (!stats.isFile()) return NO_LOCK;
    // The lock is by name: a run writing the file by another of its names would not meet it.
    if (stats.nlink > 1 && !options.replaced)
      throw new Error(
        `'${path}' has ${stats.nlink} names (hard links): a run writing it by another name would not meet this run's lock; write to a file of one name`,
      );
  } else {
    try {
      closeSync(openSync(path, "a"));
      made = true;
    } catch (error) {
      throw new OutputWriteError(path, error);
    }
  }
  const real = realpathSync(path);
  const owner = `${real}.lock.owner`;
  const held = new HeldLock(path, owner);
  let release = await held.take();
  const tookOver = release === undefined;
  if (release === undefined) {
    // A run writes its owner record as soon as it holds the lock: a lock whose record does not appear within
    // OWNER_RECORD_WAIT_MS is one a run left that was killed between the two, taken over as a gone owner's.
    const ownerless = !options.takeOver && !existsSync(owner) && !(await appears(owner, OWNER_RECORD_WAIT_MS));
    if (!options.takeOver && !ownerless) checkTakeOver(path, owner, `${real}.lock`, options.offersTakeOver === false ? "" : TAKE_OVER_HINT);
    rmSync(`${real}.lock`, { recursive: true, force: true });
    release = await held.take();
    if (release === undefined) {
      throw new Error(`'${path}' is being written by another run, which took its lock ${path}.lock a moment ago: one run per output file`);
    }
  }
  try {
    const leftBehind = tookOver || existsSync(owner);
    replaceAtomically(owner, owner, (temporary) => writeFileSync(temporary, `${held.record}\n`)); // first: the lock is never long without it
    // A lock or record left behind: a new file (a copy with `keep`, else empty) in place of the output, so the old holder's
    // file descriptor writes where no name reaches, never into the new holder's bytes.
    if (leftBehind)
      replaceAtomically(real, path, (temporary) =>
        options.keep ? copyFileSync(real, temporary) : writeFileSync(temporary, "", { mode: statSync(real).mode & 0o777 }),
      );
  } catch (error) {
    await release().catch(() => {});
    throw error; // replaceAtomically's OutputWriteError
  }
  held.holds(real, release, made);
  return held;
}

/**
 * Throws when standard output is a file whose lock is there (`solve … >> FILE` beside `solve -o FILE`), which only its
 * name tells: Linux's /proc gives it; elsewhere nothing is checked.
 */
function refuseLockedStandardOutput(): void {
  const target = attempt(() => readlinkSync("/proc/self/fd/1"));
  if (target !== undefined && statOf(target)?.isFile() && isLocked(target))
    throw new Error(
      `standard output is '${target}', whose lock ${target}.lock is there: another run is writing it, or was stopped or killed before its end; one run per output file`,
    );
}

/** True when the lock of the output at `path` is there: a run is writing it, or stopped or was killed before its end. */
export function isLocked(path: string): boolean {
  return attempt(() => existsSync(`${realpathSync(path)}.lock`)) ?? false; // (false: no such file)
}

/** How long a run waits for the owner record of a lock that has none yet, in ms (a holder writes it at once: see {@link lockOutput}). */
const OWNER_RECORD_WAIT_MS = 2000;

/** Resolves true once `path` exists, false when it has not within `ms`. */
async function appears(path: string, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 25))) if (existsSync(path)) return true;
  return existsSync(path);
}

/** Throws the refusal unless the lock may be taken over: its owner provably gone, or unknown and the lock stale; `hint` ends it ("": none). */
function checkTakeOver(path: string, owner: string, lock: string, hint: string): void {
  const text = attempt(() => readFileSync(owner, "utf8")); // undefined: no record (yet), the mtime decides
  const state = text === undefined ? "unknown" : ownerState(text);
  if (state === "gone") return;
  const pid = text?.split(" ")[1];
  if (state === "stopped") {
    throw new Error(
      `'${path}' is being written by another run (pid ${pid}), which is stopped (Ctrl-Z, SIGSTOP) and keeps its lock ${path}.lock: ` +
        `continue it (fg, or kill -CONT ${pid}) or end it${hint && `; or, ${hint}`}`,
    );
  }
  if (state === "alive") throw new Error(`'${path}' is being written by another run (pid ${pid}): one run per output file${hint && `; ${hint}`}`);
  const changed = attempt(() => statSync(lock).mtimeMs);
  const stale = staleMs();
  if (changed === undefined || Date.now() - changed > stale) return; // (undefined: released meanwhile)
  throw new Error(
    `'${path}' is being written by another run (its lock ${path}.lock is fresh): one run per output file. ` +
      `If no run is writing it, the lock goes stale ${stale / 1000} s after that run stopped, and the next run takes it over${hint && `; ${hint}`}`,
  );
}

/** How long a run waits for another run's lock on a shared file ({@link whileLocked}), in ms: past the 10 s after which a killed run's lock is stale. */
const SHARED_WAIT_MS = 20_000;

/**
 * Runs `update`, a read, change and write of a small file that several runs share (generate's `--manifest`), while holding the
 * lock `FILE.lock` of the file at `path`, which need not exist yet. A run that finds the lock held waits for it (each holds it
 * a few ms), so no run's change is lost to another's read of the file before it; a lock whose holder was killed goes stale
 * 10 s after it was last refreshed and is taken then. Past {@link SHARED_WAIT_MS}, a one-line reason naming the file.
 */
export async function whileLocked<T>(path: string, update: () => T): Promise<T> {
  const real = attempt(() => realpathSync(path)) ?? resolve(path); // (not made yet: every run names it so)
  const { default: lockfile } = await import("proper-lockfile");
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(real, {
      realpath: false,
      lockfilePath: `${real}.lock`,
      retries: { retries: SHARED_WAIT_MS / 40, factor: 1, minTimeout: 25, maxTimeout: 50, randomize: true }, // 25-50 ms apart
      onCompromised: () => {}, // (held for a few ms; the file is replaced whole by a rename, never half written)
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw new OutputWriteError(`${path}.lock`, error);
    throw new Error(`'${path}' was locked by another run (its lock ${path}.lock) for more than ${SHARED_WAIT_MS / 1000} s: not updated`);
  }
  try {
    return update();
  } finally {
    await release().catch(() => {});
  }
}

/**
 * Puts the file `make` writes (given a temporary name beside `target`) at `target` by a rename: on a
 * failure (a full disk) nothing is left, half-written or empty; the error names `path`.
 */
export function replaceAtomically(target: string, path: string, make: (temporary: string) => void): void {
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    make(temporary);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new OutputWriteError(path, error);
  }
}

/** A lock this run holds (or is taking): the record it wrote, the file it locked, and what happens when it is taken. */
class HeldLock implements OutputLock {
  /** This run's owner record. */
  readonly record = ownerRecord();
  private streams: NodeJS.WritableStream[] = [];
  private file: { real: string; dev: number; ino: number } | undefined;
  /** The lock folder this run made (its inode and birth time): a folder of the same name made by a run that took over is not this run's, whatever its mtime. */
  private folder: { ino: number; birth: number } | undefined;
  private releaseLock: (() => Promise<void>) | undefined;
  /** Takes the release off the list of what a failed write's exit waits for (errors.ts). */
  private unregister: () => void = () => {};
  made = false;
  /** True once the lock is found taken by another run: nothing of it is touched any more. */
  private lost = false;
  private released = false;
  /**
   * proper-lockfile's file system: node's, except that a lost lock is never removed nor refreshed (it is another run's now), and
   * that a removal of the lock ({@link removeLock}) takes this run's owner record with it, in one step.
   */
  private readonly fs = {
    ...fs,
    rmdir: (dir: string, callback: (error: NodeJS.ErrnoException | null) => void) => {
      try {
        this.removeLock(dir);
      } catch (error) {
        return callback(error as NodeJS.ErrnoException);
      }
      callback(null);
    },
    rmdirSync: (dir: string) => this.removeLock(dir),
    utimes: (dir: string, atime: Date, mtime: Date, callback: (error: NodeJS.ErrnoException | null) => void) => {
      if (!this.lost && !this.ownFolder(dir)) this.lose("its lock folder was replaced by another run's");
      return this.lost ? callback(null) : fs.utimes(dir, atime, mtime, callback);
    },
  };

  constructor(
    private readonly path: string,
    private readonly owner: string,
  ) {}

  /** proper-lockfile's lock on the output (imported here: only a run with `-o` locks), its release; undefined when another run holds it (it never takes one over itself). */
  async take(): Promise<(() => Promise<void>) | undefined> {
    try {
      const { default: lockfile } = await import("proper-lockfile");
      return await lockfile.lock(this.path, {
        stale: 0x7fffffff, // the takeover rule is checkTakeOver's; proper-lockfile's would take a stopped owner's lock
        update: refreshMs(),
        fs: this.fs,
        onCompromised: () => this.lose("its lock folder was removed or replaced"),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ELOCKED") return undefined;
      throw new OutputWriteError(`${this.path}.lock`, error);
    }
  }

  /** Marks the lock held: the output file's identity is remembered, to tell later whether it is still the file this run writes. */
  holds(real: string, release: () => Promise<void>, made: boolean): void {
    this.made = made;
    const { dev, ino } = statSync(real);
    this.file = { real, dev, ino };
    const folder = statSync(`${real}.lock`);
    this.folder = { ino: folder.ino, birth: folder.birthtimeMs };
    this.releaseLock = release;
    this.unregister = stopBeforeStreamExit(() => this.release()); // a failed write's exit releases it too: no lock left behind
  }

  /**
   * Removes this run's owner record, then the lock folder `dir`, synchronously: a signal that ends the run (a second Ctrl-C, during
   * the release or before it: proper-lockfile's removal at exit) cannot come between and leave the record behind. A folder or record
   * another run made is left alone.
   */
  private removeLock(dir: string): void {
    if (this.lost || !this.ownFolder(dir)) return;
    if (this.ownRecord()) rmSync(this.owner, { force: true });
    fs.rmdirSync(dir);
  }

  /** False when `dir` is no longer the lock folder this run made (inode and birth time: a takeover within the second leaves the same mtime). */
  private ownFolder(dir: string): boolean {
    if (this.folder === undefined) return true; // still taking it: proper-lockfile probes the folder's mtime precision
    const now = attempt(() => statSync(dir));
    return now?.ino === this.folder.ino && now.birthtimeMs === this.folder.birth;
  }

  guard(stream: NodeJS.WritableStream): void {
    this.streams.push(stream);
  }

  verify(): void {
    const reason = this.takenBecause();
    if (reason === undefined) return;
    this.lost = true;
    throw this.lostError(reason);
  }

  replaceWith(temporary: string): void {
    this.verify();
    const real = this.file!.real;
    renameSync(temporary, real);
    const { dev, ino } = statSync(real);
    this.file = { real, dev, ino };
  }

  async abandon(): Promise<void> {
    const remove = this.made && !this.released && !this.lost && this.takenBecause() === undefined; // (a taken output is another run's)
    await this.release();
    if (remove) rmSync(this.file!.real, { force: true });
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.unregister();
    if (this.lost || this.takenBecause() !== undefined) {
      this.lost = true;
      return;
    }
    await this.releaseLock?.().catch(() => {}); // already gone (compromised, or removed by hand): nothing to release
    if (this.ownRecord()) rmSync(this.owner, { force: true });
  }

  /** Why the lock is no longer this run's (its record replaced, or the output file replaced), or undefined while it is. */
  private takenBecause(): string | undefined {
    if (this.lost) return "another run took it";
    if (!this.ownRecord()) return `${this.owner} names another run`;
    const now = attempt(() => statSync(this.file!.real));
    if (now === undefined) return "the file was removed";
    if (now.dev !== this.file!.dev || now.ino !== this.file!.ino) return "the file was replaced";
    return undefined;
  }

  /** True when the owner file still holds this run's record. */
  private ownRecord(): boolean {
    return attempt(() => readFileSync(this.owner, "utf8")) === `${this.record}\n`;
  }

  private lostError(reason: string): Error {
    return new Error(`lost the lock on '${this.path}' (${reason}): another run took the output over; stopped, writing nothing more to it`);
  }

  /** The lock was found taken at a refresh: the output stream is dropped at once (its unwritten bytes with it), then the run ends with status 2. */
  private lose(reason: string): void {
    this.lost = true;
    for (const stream of this.streams) (stream as unknown as { destroy(): void }).destroy();
    failedOutput(this.lostError(reason));
  }
}

/**
 * The process space that `kill(pid, 0)` checks hold in, `BOOT_ID/PID_NAMESPACE` (from
 * /proc/self/ns/pid, right even through another namespace's /proc); `-` where it does not tell.
 */
function processSpace(): string {
  const boot = attempt(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim());
  const namespace = attempt(() => /^pid:\[(\d+)\]$/.exec(readlinkSync("/proc/self/ns/pid"))?.[1]);
  return boot && namespace !== undefined ? `${boot}/${namespace}` : "-";
}

/** True when /proc is this pid namespace's (`unshare -p` without `--mount-proc` leaves the parent's): its /proc/PID/stat are this namespace's pids. */
function procIsOwn(): boolean {
  return procStat("self")?.pid === process.pid;
}

/**
 * The owner file's line, `HOST PID SPACE START TOKEN`: the {@link processSpace}, the process's start
 * time (tells a reused pid apart; `-` where /proc is not this namespace's) and a random token.
 */
function ownerRecord(): string {
  const start = procIsOwn() ? procStat("self")?.start : undefined;
  return `${hostname()} ${process.pid} ${processSpace()} ${start ?? "-"} ${randomBytes(8).toString("hex")}`;
}

/** The pid, state letter (`R`, `S`, `T` when stopped, `Z` for a zombie …) and start time of a process, from /proc/PID/stat; undefined when there is none. */
function procStat(pid: number | "self"): { pid: number; state: string; start: string } | undefined {
  const text = attempt(() => readFileSync(`/proc/${pid}/stat`, "utf8"));
  if (text === undefined) return undefined;
  // `PID (COMMAND) STATE PPID …`, the start time 19 fields after the state; COMMAND may hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { pid: Number.parseInt(text, 10), state: fields[0], start: fields[19] };
}

/** What owner record `text` says of its run from here: provably `gone`, `alive` or `stopped`, or `unknown` (the lock's mtime decides). */
export function ownerState(text: string): "gone" | "alive" | "stopped" | "unknown" {
  const [, pidText, space = "-", start = "-"] = text.trim().split(" ");
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0) return "unknown";
  if (space === "-" || space !== processSpace()) return "unknown"; // its pid means nothing here
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return "gone";
  }
  if (!procIsOwn()) return "unknown"; // alive, but /proc cannot tell whether it is a zombie or a later process
  const stat = procStat(pid);
  if (stat === undefined || stat.state === "Z" || stat.state === "X") return "gone";
  if (start === "-") return "unknown";
  if (stat.start !== start) return "gone";
  return stat.state === "T" || stat.state === "t" ? "stopped" : "alive";
}
