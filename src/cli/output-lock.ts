/**
 * One writer per output file: a `solve -o FILE` run holds an exclusive lock on FILE while it
 * writes, so a second run of the same output (a restarted pod beside a slow one, both with
 * `--resume`) is refused before it reads or writes anything, instead of appending the same
 * records again.
 *
 * The lock is proper-lockfile's: a folder `FILE.lock` made atomically (mkdir), whose mtime
 * the holder refreshes every {@link REFRESH_MS}. A run that dies without removing it (SIGKILL,
 * a lost machine) leaves a lock that goes stale after {@link STALE_MS}, and the next run takes
 * it over: a crashed run never blocks the next one for longer than that. The mtime works across
 * machines sharing the folder, where a pid in a file would not. On one machine the next run
 * need not wait: the holder writes who it is to `FILE.lock.owner` (see {@link ownerRecord}),
 * and a lock whose owner is a process of this machine's process space that no longer runs is
 * taken over at once. "No longer runs" includes a zombie: a process killed with its parent
 * (`kill -9` of a whole ssh session) stays in the process table, and answers `kill(pid, 0)`,
 * until init reaps it, which in a container can take seconds or never happen. (Two runs taking
 * over one dead run's lock in the same instant can both win; everything else is refused.) A
 * fresh lock without an owner file a second after it was seen is one whose holder died between
 * locking and writing it, and is taken over too.
 */
import { closeSync, existsSync, openSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { hostname } from "node:os";
import { OutputWriteError, failedOutput } from "./errors.js";

/** After how long without a refresh a lock is stale (another run may take it), in ms. */
export const STALE_MS = 30_000;
/** How often the holder refreshes its lock, in ms. */
const REFRESH_MS = 5_000;

/** Releases a lock taken by {@link lockOutput}; a second call does nothing. */
export type ReleaseLock = () => Promise<void>;

/**
 * Takes the lock on output file `path` (made empty when it does not exist yet, so links and
 * `./` spellings lock the same file), or throws a one-line reason when another run holds it.
 * Standard output and outputs that are no regular file (`/dev/null`, a pipe) are not locked.
 */
export async function lockOutput(path: string | undefined): Promise<ReleaseLock> {
  const none: ReleaseLock = async () => {};
  if (path === undefined) return none;
  try {
    if (!statSync(path).isFile()) return none;
  } catch {
    try {
      closeSync(openSync(path, "a"));
    } catch (error) {
      throw new OutputWriteError(path, error);
    }
  }
  const owner = `${realpathSync(path)}.lock.owner`;
  let release: () => Promise<void>;
  try {
    release = await takeLock(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw new OutputWriteError(`${path}.lock`, error);
    if (!(await ownerIsGone(owner))) {
      throw new Error(
        `'${path}' is being written by another run (its lock ${path}.lock is fresh): one run per output file. ` +
          `If no run is writing it, the lock goes stale ${STALE_MS / 1000} s after that run stopped, and the next run takes it over`,
      );
    }
    rmSync(`${realpathSync(path)}.lock`, { recursive: true, force: true }); // the lock of a run of this host that has died
    release = await takeLock(path);
  }
  writeFileSync(owner, `${ownerRecord()}\n`);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    rmSync(owner, { force: true });
    await release().catch(() => {}); // already gone (compromised, or removed by hand): nothing to release
  };
}

/** proper-lockfile's lock on `path` (imported here: only a run with `-o` locks); a lock lost while held (another run took it) stops the run. */
async function takeLock(path: string): Promise<() => Promise<void>> {
  const { default: lockfile } = await import("proper-lockfile");
  return lockfile.lock(path, {
    stale: STALE_MS,
    update: REFRESH_MS,
    onCompromised: (error) => failedOutput(new Error(`lost the lock on '${path}' (${error.message}): another run may be writing it; stopped`)),
  });
}

/** How long a fresh lock may be without its owner file before its holder is taken to have died right after locking, in ms. */
const OWNER_WAIT_MS = 1000;

/**
 * What kind of process space the runs share with `kill(pid, 0)`: this kernel's boot (two
 * machines never share one) and its pid namespace (two containers of one machine may not),
 * `BOOT_ID/PID_NAMESPACE`; `-` where /proc does not tell (not Linux, or a /proc of another
 * pid namespace), and then the host name alone decides.
 */
function processSpace(): string {
  try {
    if (procStat("self")?.pid !== process.pid) return "-";
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const namespace = /^pid:\[(\d+)\]$/.exec(readlinkSync("/proc/self/ns/pid"))?.[1];
    return boot !== "" && namespace !== undefined ? `${boot}/${namespace}` : "-";
  } catch {
    return "-";
  }
}

/**
 * The owner file's line: `HOST PID SPACE START`, the host name, the pid, the {@link
 * processSpace} and the start time of the process (in clock ticks after boot, from /proc; `-`
 * where it does not tell), which tells a pid reused by a later process from the owner. Files
 * of earlier versions hold only `HOST PID`.
 */
function ownerRecord(): string {
  const space = processSpace();
  const start = space === "-" ? undefined : procStat("self")?.start;
  return `${hostname()} ${process.pid} ${space} ${start ?? "-"}`;
}

/** The pid, state letter (`R`, `S`, `Z` for a zombie …) and start time of a process, from /proc/PID/stat; undefined when there is none. */
function procStat(pid: number | "self"): { pid: number; state: string; start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // `PID (COMMAND) STATE PPID …`, the start time 19 fields after the state; COMMAND may hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { pid: Number.parseInt(text, 10), state: fields[0], start: fields[19] };
}

/**
 * True when the owner file names a process of this process space that no longer runs (gone,
 * a zombie, or its pid now another process's), or when there is still none {@link
 * OWNER_WAIT_MS} after the lock was seen (every run writes it at once after locking, on any
 * host: its holder died in between).
 */
async function ownerIsGone(owner: string): Promise<boolean> {
  if (!existsSync(owner)) await delay(OWNER_WAIT_MS);
  let text: string;
  try {
    text = readFileSync(owner, "utf8");
  } catch {
    return true;
  }
  const [host, pidText, space = "-", start = "-"] = text.trim().split(" ");
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  const here = processSpace();
  if (space !== "-" && here !== "-" ? space !== here : host !== hostname()) return false; // its pid means nothing here: left to the mtime
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH"; // EPERM: a live process of another user
  }
  if (here === "-") return false;
  const stat = procStat(pid);
  return stat === undefined || stat.state === "Z" || stat.state === "X" || (start !== "-" && stat.start !== start);
}
