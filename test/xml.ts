/** Test helper: a small well-formedness check for the SVG the reporters write. */
import { expect } from "vitest";

/** Checks that every tag of an XML text is closed in order; returns the element names seen. */
export function checkWellFormed(xml: string): string[] {
  const open: string[] = [];
  const seen: string[] = [];
  for (const [tag, closing, name, selfClosing] of xml.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^<>]*?(\/?)>/g)) {
    if (closing) expect(open.pop(), `closing ${tag}`).toBe(name);
    else if (!selfClosing) open.push(name);
    seen.push(name);
  }
  expect(open).toEqual([]);
  expect(xml.replace(/<[^<>]*>/g, "")).not.toMatch(/[<>]/);
  return seen;
}
