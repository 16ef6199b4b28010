/**
 * Host profiling for `--cpu-prof`: a V8 CPU profile of the TypeScript side (and the time spent
 * inside WASM, as the kernel's frames) taken through node:inspector, written as a
 * `.cpuprofile` JSON that Chrome DevTools (Performance → Load profile) and VS Code open.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { dirname } from "node:path";

/** Sampling interval of the profiler, in µs (V8's default is 1000). */
const SAMPLING_INTERVAL_MICROS = 100;

/** Runs `work` under the V8 CPU profiler and writes the profile to `path`, even when `work` throws. */
export async function withCpuProfile<T>(path: string, work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_MICROS });
    await session.post("Profiler.start");
    try {
      return await work();
    } finally {
      const { profile } = await session.post("Profiler.stop");
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify(profile));
    }
  } finally {
    session.disconnect();
  }
}
