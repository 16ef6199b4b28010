/** The web page's "vs wasm" cell (web/versus.ts): slower or faster, never a ratio below 1. */
import { describe, expect, it } from "vitest";
import { versusWasm } from "../web/versus.js";

describe("versusWasm", () => {
  it("says how many times slower a row is than the kernel", () => {
    expect(versusWasm(57_256, 23_200)).toBe("2.47× slower");
    expect(versusWasm(1000, 1000)).toBe("1.00× slower");
  });
  it("says faster, not '0.64× slower', for a row faster than the kernel", () => {
    expect(versusWasm(490, 769)).toBe("1.57× faster");
  });
});
