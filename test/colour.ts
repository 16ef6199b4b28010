/**
 * Colour distance for the chart tests: sRGB to CIELAB and the CIEDE2000 difference, to check that
 * the bench's series colours stay far apart to the eye.
 */

/** A colour in CIELAB (D65): lightness 0–100, then a* and b*. */
export type Lab = [number, number, number];

/** #rrggbb (sRGB) in CIELAB under D65. */
export function toLab(hex: string): Lab {
  const linear = [1, 3, 5].map((i) => {
    const channel = parseInt(hex.slice(i, i + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  const [r, g, b] = linear;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;
/** A hue angle in degrees, 0–360, of the point (a, b); 0 for the grey axis. */
const hueAngle = (b: number, a: number) => (b === 0 && a === 0 ? 0 : ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360);

/**
 * The CIEDE2000 colour difference ΔE00 (CIE 142-2001, as written out by Sharma, Wu and Dalal
 * 2005), with kL = kC = kH = 1: about 1 is just noticeable, 10 and more reads as another colour.
 */
export function colourDifference([L1, a1, b1]: Lab, [L2, a2, b2]: Lab): number {
  const chromaWeight = (c: number) => Math.sqrt(c ** 7 / (c ** 7 + 25 ** 7));
  const g = 0.5 * (1 - chromaWeight((Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2));
  const a1p = (1 + g) * a1;
  const a2p = (1 + g) * a2;
  const c1 = Math.hypot(a1p, b1);
  const c2 = Math.hypot(a2p, b2);
  const h1 = hueAngle(b1, a1p);
  const h2 = hueAngle(b2, a2p);
  const chromatic = c1 * c2 !== 0;
  let dh = chromatic ? h2 - h1 : 0;
  if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  const dL = L2 - L1;
  const dC = c2 - c1;
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin(radians(dh / 2));
  const meanL = (L1 + L2) / 2;
  const meanC = (c1 + c2) / 2;
  let meanH = h1 + h2;
  if (chromatic) meanH = Math.abs(h1 - h2) <= 180 ? meanH / 2 : meanH < 360 ? (meanH + 360) / 2 : (meanH - 360) / 2;
  const t =
    1 -
    0.17 * Math.cos(radians(meanH - 30)) +
    0.24 * Math.cos(radians(2 * meanH)) +
    0.32 * Math.cos(radians(3 * meanH + 6)) -
    0.2 * Math.cos(radians(4 * meanH - 63));
  const rotation = -Math.sin(radians(60 * Math.exp(-(((meanH - 275) / 25) ** 2)))) * 2 * chromaWeight(meanC);
  const sL = 1 + (0.015 * (meanL - 50) ** 2) / Math.sqrt(20 + (meanL - 50) ** 2);
  const sC = 1 + 0.045 * meanC;
  const sH = 1 + 0.015 * meanC * t;
  return Math.sqrt((dL / sL) ** 2 + (dC / sC) ** 2 + (dH / sH) ** 2 + rotation * (dC / sC) * (dH / sH));
}
