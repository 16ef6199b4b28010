// Compile-time constants of the kernel variants, set with `asc --use NAME=value`
// (see assembly/index.ts and the asbuild:variants script). Unset means the default variant.
declare const PROPAGATION: i32;
declare const CELL_ORDER: i32;
declare const BRANCHING: i32;
declare const TRIADS: i32;
declare const FIXED_DIGIT_WEIGHT: u32;
declare const CONFIGURATION_CHOICE: i32;
declare const CONFIGURATION_SCORE: i32;
declare const PROBING: i32;
declare const FISH: i32;
declare const AHEAD_BRANCHES: i32;
declare const HIDDEN_PAIRS: i32;
declare const ROOT_PAIRS: i32;
declare const DIGITS_ABOVE: i32;
declare const DIGITS_ROOT_ABOVE: i32;
declare const LOOKAHEAD: i32;
declare const PROBE_KEEP: i32;
declare const CONFIG_MATCHING: i32;
declare const PROBE_ONCE_PER_PATH: i32;
declare const WEIGHTED_LINES: i32;
declare const DIGIT_TIES: i32;
declare const NAKED_PAIRS: i32;
declare const CARRY_AT: i32;
