// Records what a build is made of, at build time, in build/facts.js (+ .d.ts): the package
// version, the commit, the asc version, each kernel target's flags and the kernel variants.
// An installed package has no asconfig.json, no git and no assembly/, so whatever reports a
// build (the bench environment, `solvers`, the web page) reads these facts instead.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";

const root = new URL("../", import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, root), "utf8"));

/** "optimizeLevel=3 shrinkLevel=0 converge noAssert runtime=stub …" for one asconfig target. */
function targetFlags(config, target) {
  const flags = { ...config.options, ...config.targets[target] };
  delete flags.outFile;
  delete flags.textFile;
  return Object.entries(flags)
    .map(([key, value]) => (value === true ? key : `${key}=${Array.isArray(value) ? value.join(",") : String(value)}`))
    .join(" ");
}

/** The output of a git command in the package root, or null (no git, not a checkout). */
function git(...args) {
  try {
    return execFileSync("git", args, { cwd: root, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

const config = json("asconfig.json");
const facts = {
  version: json("package.json").version,
  commit: git("rev-parse", "--short=12", "HEAD"),
  /** True when the working tree had uncommitted changes at build time. */
  dirty: (git("status", "--porcelain", "--untracked-files=no") ?? "") !== "",
  assemblyscript: json("node_modules/assemblyscript/package.json").version,
  flags: Object.fromEntries(Object.keys(config.targets).map((target) => [target, targetFlags(config, target)])),
  variants: json("assembly/variants.json").variants,
};

mkdirSync(new URL("build/", root), { recursive: true });
writeFileSync(
  new URL("build/facts.js", root),
  `// Written by scripts/build-facts.mjs at build time; do not edit.\nexport const buildFacts = ${JSON.stringify(facts, null, 2)};\n`,
);
writeFileSync(
  new URL("build/facts.d.ts", root),
  `// Written by scripts/build-facts.mjs at build time; do not edit.
export declare const buildFacts: {
  /** package.json's version. */
  version: string;
  /** The commit built (12 hex digits), or null outside a git checkout. */
  commit: string | null;
  /** True when the working tree had uncommitted changes. */
  dirty: boolean;
  /** The AssemblyScript compiler's version. */
  assemblyscript: string;
  /** asc flags per asconfig.json target (release, debug, general, general-debug). */
  flags: Record<string, string>;
  /** assembly/variants.json's variants, the default first. */
  variants: {
    /** "" for the default kernel, else the suffix of its registry id \`wasm:<name>\`. */
    name: string;
    /** The asc \`--use\` constants that make it. */
    use: Record<string, number>;
    description: string;
  }[];
};
`,
);
