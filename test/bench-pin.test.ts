/**
 * The benches' pin (bench/measure/pin.ts): K and the one-thread runs on one core, so that a ratio of two of them is not a
 * ratio of two cores of a virtual machine that runs them at different speeds.
 */
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { choosePin, onPinnedCore, pinText, pinnedCommand } from "../bench/measure/pin.js";

/** The cores this process may run on now, as `taskset -p` says (a hex mask). */
const mask = (): string => /:\s*([0-9a-f]+)\s*$/i.exec(execFileSync("taskset", ["-p", String(process.pid)], { encoding: "utf8" }))![1];
const pinnable = "core" in choosePin(1);

describe("the benches' pin", () => {
  it("pins nothing when told not to, and says why", () => {
    const pin = choosePin(false);
    expect(pin).toEqual({ unpinned: "--no-pin" });
    expect(pinText(pin)).toBe("one-thread runs not pinned (--no-pin)");
    expect(pinnedCommand(pin, ["node", "x.js"])).toEqual(["node", "x.js"]);
  });

  it.skipIf(!pinnable)("refuses a core this process may not run on, and takes the first it may by default", () => {
    expect(() => choosePin(4095)).toThrow(/^--core 4095: this process may run on core 0, 1(, \d+)* only$/);
    expect(choosePin(undefined)).toEqual({ core: 0 });
  });

  it.skipIf(!pinnable)("runs a command on the one core, where it sees one core", () => {
    const pin = choosePin(1);
    expect(pinText(pin)).toBe("one-thread runs and K pinned to core 1");
    const [command, ...args] = pinnedCommand(pin, [process.execPath, "-e", "console.log(require('node:os').availableParallelism())"]);
    expect(execFileSync(command, args, { encoding: "utf8" }).trim()).toBe("1");
  });

  it.skipIf(!pinnable)("runs work in this process on the one core, then gives the cores back", async () => {
    const before = mask();
    const inside = await onPinnedCore(choosePin(1), () => [mask(), availableParallelism()] as const);
    expect(inside).toEqual(["2", 1]);
    expect(mask()).toBe(before);
    await expect(onPinnedCore(choosePin(1), () => Promise.reject(new Error("failed")))).rejects.toThrow("failed");
    expect(mask()).toBe(before);
  });
});
