/**
 * Shards over real hosts: two OpenSSH servers, each in its own network namespace joined to
 * this one by a veth pair (10.x.y.2 "alpha", 10.x.y+1.2 "beta"), with keys made here. GNU
 * parallel runs 4 `solve --resume --shard K/4` jobs over ssh on them, one at a time each; alpha
 * is killed in the middle (every process in its namespace: sshd and the solve it runs, SIGKILL),
 * so its job stops with a partial shard and its next job cannot connect. `parallel
 * --resume-failed` with the same joblog runs those jobs again on beta, where `--resume` goes on
 * from the complete records (and takes over the dead run's lock at once, though the killed solve
 * may still be a zombie: its parent died with it, and init reaps orphans when it gets to them).
 * `merge` must then give the one-run output byte for byte (SHA-256).
 *
 * Needs root, `ip netns`, Debian's openssh-server and openssh-client, and GNU parallel. Where
 * any is missing the test says why and skips; .ci/run installs the packages and sets
 * SUDOKU_WASM_REQUIRE_SSH=1, so there a missing piece fails instead.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, scratchFolder } from "./cli-run.js";
import { writePuzzles } from "../bench/corpus.js";

const { dir } = scratchFolder("sudoku-ssh-");
const SSHD = "/usr/sbin/sshd";
const required = process.env.SUDOKU_WASM_REQUIRE_SSH === "1";

/** Runs a command to the end; throws with its stderr unless it exits 0. */
function sh(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: status ${result.status}: ${result.stderr}${result.error ?? ""}`);
  return result.stdout;
}

/** Why the test cannot run here, or null when it can. */
function missing(): string | null {
  if (process.getuid?.() !== 0) return "it needs root (ip netns, sshd)";
  for (const tool of [SSHD, "/usr/bin/ssh", "/usr/bin/ssh-keygen"])
    if (!existsSync(tool)) return `${tool} is missing (Debian: apt-get install openssh-server openssh-client)`;
  if (spawnSync("parallel", ["--version"]).status !== 0) return "GNU parallel is missing (Debian: apt-get install parallel)";
  const probe = `sudoku-probe-${process.pid}`;
  const added = spawnSync("ip", ["netns", "add", probe], { encoding: "utf8" });
  if (added.status !== 0) return `network namespaces are not allowed here (ip netns add: ${(added.stderr || String(added.error)).trim()})`;
  spawnSync("ip", ["netns", "del", probe]);
  return null;
}
const why = missing();

/** One host: a network namespace with an address and an sshd in it. */
interface Host {
  name: string;
  namespace: string;
  address: string;
  sshd?: ChildProcess;
}

const tag = process.pid % 100_000;

/**
 * The second octet and the first of two third octets of the hosts' networks (10.S.T.0/24 and
 * 10.S.T+1.0/24, S 200–249): from this process's pid, past any that an address here already
 * uses, so that the same test run beside this one (another checkout's suite) gets networks of
 * its own; two veths in one /24 would route one run's ssh to the other's host.
 */
function freeNetworks(): [number, number] {
  const used = spawnSync("ip", ["-o", "-4", "addr", "show"], { encoding: "utf8" }).stdout ?? "";
  const slots = 50 * 127;
  for (let n = 0; n < slots; n++) {
    const slot = (process.pid + n) % slots;
    const [second, third] = [200 + (slot % 50), 2 * Math.floor(slot / 50) + 1];
    if (![third, third + 1].some((t) => used.includes(` 10.${second}.${t}.`))) return [second, third];
  }
  return [200 + (process.pid % 50), 1];
}
const [subnet, firstNetwork] = freeNetworks();
const network = (k: number) => `10.${subnet}.${firstNetwork + k}`;
const hosts: Host[] = ["alpha", "beta"].map((name, k) => ({ name, namespace: `sudoku-${tag}-${name}`, address: `${network(k)}.2` }));

/** Makes the host's namespace, its veth pair and its sshd (keys and configuration in `dir`). */
function startHost(host: Host, k: number): void {
  const [outside, inside] = [`sw${tag}${host.name[0]}0`, `sw${tag}${host.name[0]}1`];
  sh("ip", ["netns", "add", host.namespace]);
  sh("ip", ["link", "add", outside, "type", "veth", "peer", "name", inside]);
  sh("ip", ["link", "set", inside, "netns", host.namespace]);
  sh("ip", ["addr", "add", `${network(k)}.1/24`, "dev", outside]);
  sh("ip", ["link", "set", outside, "up"]);
  const inNamespace = (...args: string[]) => sh("ip", ["netns", "exec", host.namespace, ...args]);
  inNamespace("ip", "addr", "add", `${host.address}/24`, "dev", inside);
  inNamespace("ip", "link", "set", inside, "up");
  inNamespace("ip", "link", "set", "lo", "up");
  const config = join(dir, `sshd-${host.name}.conf`);
  writeFileSync(
    config,
    [
      `ListenAddress ${host.address}`,
      `HostKey ${join(dir, "host_key")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      `PidFile ${join(dir, `sshd-${host.name}.pid`)}`,
      "StrictModes no",
      "UsePAM no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "",
    ].join("\n"),
  );
  host.sshd = spawn("ip", ["netns", "exec", host.namespace, SSHD, "-D", "-e", "-f", config], { stdio: "ignore" });
}

/** Kills every process in the host's namespace with SIGKILL (its sshd, the sessions and the jobs they run); returns how many. */
function killHost(host: Host): number {
  const pids = sh("ip", ["netns", "pids", host.namespace]).split("\n").filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return pids.length;
}

function removeHost(host: Host): void {
  if (spawnSync("ip", ["netns", "pids", host.namespace]).status !== 0) return;
  killHost(host);
  spawnSync("ip", ["netns", "del", host.namespace]); // its veth end goes with it, and so the pair
}

afterAll(() => hosts.forEach(removeHost));

/** The SHA-256 of a file, read as a stream. */
async function sha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest("hex");
}

/** Runs the CLI here to the end; returns its stderr, or throws with it unless the status is 0. */
function solveHere(args: string[]): string {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`sudoku-wasm ${args.join(" ")}: status ${result.status}\n${result.stderr}`);
  return result.stderr;
}

describe("GNU parallel over real ssh, a host killed in the middle", () => {
  const title = "4 shards on 2 sshd hosts in network namespaces; alpha killed mid-run; --resume-failed finishes on beta; merge equals one run, byte for byte";
  if (why !== null) {
    if (required) it(title, () => expect.fail(`SUDOKU_WASM_REQUIRE_SSH=1, but ${why}`));
    else it.skip(`${title} (skipped: ${why})`, () => {});
    return;
  }

  it(title, async () => {
    const transcript: string[] = [];
    const note = (line: string) => void transcript.push(line);
    try {
      await runHosts(note);
    } finally {
      console.log(transcript.join("\n"));
      hosts.forEach(removeHost);
    }
  }, 300_000); // 400,000 puzzles solved here, then twice over the hosts: 85 s on two loaded cores
});

/** The multi-host run of the test above; `note` takes each line of its transcript. */
async function runHosts(note: (line: string) => void): Promise<void> {
  {
    sh("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "host_key")]);
    sh("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "id")]);
    writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "id.pub")));
    sh("mkdir", ["-p", "/run/sshd"]); // sshd's privilege separation folder
    hosts.forEach(startHost);
    const sshConfig = join(dir, "ssh_config");
    writeFileSync(
      sshConfig,
      [
        ...hosts.flatMap((host) => [`Host ${host.name}`, `  HostName ${host.address}`]),
        "Host *",
        "  User root",
        `  IdentityFile ${join(dir, "id")}`,
        "  IdentitiesOnly yes",
        "  StrictHostKeyChecking no",
        "  UserKnownHostsFile /dev/null",
        "  BatchMode yes",
        "  LogLevel ERROR",
        "  ConnectTimeout 5",
        "",
      ].join("\n"),
    );
    const ssh = ["ssh", "-F", sshConfig];
    for (const host of hosts) {
      let answer = "";
      for (let attempt = 0; attempt < 100 && answer === ""; attempt++) {
        const result = spawnSync(ssh[0], [...ssh.slice(1), host.name, "ip -brief addr show; hostname"], { encoding: "utf8" });
        if (result.status === 0) answer = result.stdout;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(answer, `ssh to ${host.name} (${host.address})`).toContain(host.address);
      note(`host ${host.name}: namespace ${host.namespace}, sshd on ${host.address}: ${answer.trim().replace(/\s+/g, " ")}`);
    }

    const count = 400_000;
    const input = writePuzzles(join(dir, "puzzles.txt"), count, 23);
    const single = join(dir, "single.txt");
    solveHere(["solve", "--no-progress", "-o", single, input]);
    const shard = (k: number) => join(dir, `shard-${k}.txt`);
    const joblog = join(dir, "joblog");
    const sizeOf = (k: number) => (existsSync(shard(k)) ? statSync(shard(k)).size : 0);
    const parallel = (logins: string, resumeFailed: boolean) =>
      spawn(
        "parallel",
        [
          "--will-cite",
          "--ssh",
          ssh.join(" "),
          "--sshlogin",
          logins,
          "--joblog",
          joblog,
          ...(resumeFailed ? ["--resume-failed"] : []),
          process.execPath,
          BIN,
          "solve",
          "--no-progress",
          "--threads",
          "1",
          "--resume",
          "--shard",
          "{}/4",
          "-o",
          join(dir, "shard-{}.txt"),
          input,
          ":::",
          "0",
          "1",
          "2",
          "3",
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
    /** The status of a parallel run; its stderr goes to the transcript. */
    const ran = (child: ChildProcess) => {
      let stderr = "";
      child.stderr?.on("data", (chunk) => (stderr += chunk));
      return new Promise<number | null>((resolve) =>
        child.on("close", (status) => resolve((stderr.trim() && note(`  parallel's stderr: ${stderr.trim()}`), status))),
      );
    };

    const first = parallel("1/alpha,1/beta", false);
    const firstExit = ran(first);
    const total = statSync(single).size;
    const written = () => [0, 1, 2, 3].reduce((sum, k) => sum + sizeOf(k), 0);
    while (first.exitCode === null && written() < total * 0.15) await new Promise((resolve) => setTimeout(resolve, 10));
    const sizes = [0, 1, 2, 3].map(sizeOf);
    const killed = killHost(hosts[0]);
    note(`killed alpha: SIGKILL to its ${killed} processes when the shards held ${sizes.join(", ")} bytes (of ${total} in all)`);
    const firstStatus = await firstExit;
    const log1 = readFileSync(joblog, "utf8").trim();
    note(`parallel, alpha and beta: status ${firstStatus}; joblog:\n${log1}`);
    const failed = log1
      .split("\n")
      .slice(1)
      .filter((row) => row.split("\t")[6] !== "0");
    expect(firstStatus, "a job on alpha failed").toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    expect(
      failed.every((row) => row.split("\t")[1] === "alpha"),
      "only alpha's jobs failed",
    ).toBe(true);
    const partial = [0, 1, 2, 3].map(sizeOf);
    note(`shard sizes after the kill: ${partial.join(", ")}`);
    for (const k of [0, 1, 2, 3]) {
      // What a killed run leaves: its lock, and its solve perhaps still a zombie (its parent died with it) until init reaps it.
      if (!existsSync(`${shard(k)}.lock.owner`)) continue;
      const owner = readFileSync(`${shard(k)}.lock.owner`, "utf8").trim();
      const pid = owner.split(" ")[1];
      const proc = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, "utf8") : "";
      const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(proc)?.[1];
      note(`shard ${k}'s lock left behind, owner '${owner}': pid ${pid} ${proc ? `state ${field("State")}, parent ${field("PPid")}` : "gone"}`);
    }

    const second = parallel("1/beta", true);
    const secondStatus = await ran(second);
    const log2 = readFileSync(joblog, "utf8").trim();
    note(`parallel --resume-failed, beta only: status ${secondStatus}; joblog:\n${log2}`);
    expect(secondStatus).toBe(0);

    const merged = join(dir, "merged.txt");
    const said = solveHere(["merge", "-o", merged, ...[0, 1, 2, 3].map(shard)]);
    const [one, all] = [await sha256(single), await sha256(merged)];
    note(`merge: ${said.trim()}`);
    note(`sha256 one run ${one}\nsha256 merged  ${all}`);
    expect(all).toBe(one);
  }
}
