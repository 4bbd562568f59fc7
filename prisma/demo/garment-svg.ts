/**
 * Garment silhouettes for the demo catalogue: one SVG per (garment type, colour, pattern), 600×800,
 * a light neutral studio background, the garment filled in its colour with soft shading, seams,
 * collars, buttons, pockets and ribbing drawn over it. Rendered to JPEG by ./images.server.ts.
 */

export const GARMENT_KINDS = [
  "tshirt",
  "polo",
  "shirt",
  "hoodie",
  "sweater",
  "cardigan",
  "jacket",
  "coat",
  "blazer",
  "jeans",
  "trousers",
  "shorts",
  "dress",
  "skirt",
] as const;
export type GarmentKind = (typeof GARMENT_KINDS)[number];

export const PATTERNS = ["solid", "stripes", "check", "dots"] as const;
export type Pattern = (typeof PATTERNS)[number];

export const IMAGE_WIDTH = 600;
export const IMAGE_HEIGHT = 800;

// ---------------------------------------------------------------------------------------------
// Colour helpers

function rgb(hex: string): [number, number, number] {
  const h = hex.replace("#", "");
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

function toHex([r, g, b]: [number, number, number]): string {
  const c = (v: number) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, "0");
  return `#${c(r)}${c(g)}${c(b)}`;
}

/** Mixes towards white (amount > 0) or black (amount < 0). */
export function shade(hex: string, amount: number): string {
  const [r, g, b] = rgb(hex);
  const target = amount >= 0 ? 255 : 0;
  const t = Math.abs(amount);
  return toHex([r + (target - r) * t, g + (target - g) * t, b + (target - b) * t]);
}

export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

interface Palette {
  base: string;
  /** Seams and outlines: darker on light fabric, lighter on dark fabric. */
  seam: string;
  /** Insides (back of the neck, hood lining). */
  inner: string;
  /** Ribbing / bands, slightly different from the base. */
  band: string;
  button: string;
  /** Contrast colour for patterns and drawstrings. */
  contrast: string;
  dark: boolean;
  denim: boolean;
  /** A piece of the garment's fabric (colour plus pattern), e.g. a collar leaf, lapel or pocket. */
  fabric: (d: string, fill?: string) => string;
}

function palette(hex: string, denim: boolean, patterned: boolean): Palette {
  const lum = luminance(hex);
  const dark = lum < 0.12;
  const seam = dark ? shade(hex, 0.32) : shade(hex, -0.3);
  return {
    fabric: (d, fill = hex) =>
      `<path d="${d}" fill="${fill}"/>` +
      (patterned ? `<path d="${d}" fill="url(#pat)"/>` : "") +
      `<path d="${d}" fill="none" stroke="${seam}" stroke-width="1.6" stroke-linejoin="round"/>`,
    base: hex,
    seam,
    inner: dark ? shade(hex, -0.45) : shade(hex, -0.38),
    band: dark ? shade(hex, 0.06) : shade(hex, -0.07),
    button: dark ? "#e9e4da" : lum > 0.55 ? shade(hex, -0.45) : shade(hex, -0.5),
    contrast: lum < 0.35 ? "#f1ece1" : lum > 0.6 ? "#1f2a44" : "#f7f3ea",
    dark,
    denim,
  };
}

// ---------------------------------------------------------------------------------------------
// Geometry per garment

interface Shape {
  /** Pieces behind the garment (back of a hood, inside of a neckline), filled darker. */
  back: string[];
  /** The garment's outline pieces: filled with the colour, the pattern and the shading. */
  main: string[];
  /** Detail markup drawn on top (seams, stitching, buttons, pockets). */
  details: (p: Palette) => string;
  /** Soft fold lines (drawn blurred, inside the garment). */
  folds: string[];
  /** Whether the fabric is a knit (adds a fine rib texture). */
  knit?: boolean;
}

const stitch = (d: string, color: string, width = 1.6, opacity = 0.8) =>
  `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-dasharray="5 4" stroke-linecap="round" opacity="${opacity}"/>`;
const seamLine = (d: string, color: string, width = 2, opacity = 0.55) =>
  `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round" opacity="${opacity}"/>`;
const button = (x: number, y: number, r: number, p: Palette) =>
  `<circle cx="${x}" cy="${y}" r="${r}" fill="${p.button}" stroke="${shade(p.button, -0.3)}" stroke-width="1"/>` +
  `<circle cx="${x - r * 0.3}" cy="${y - r * 0.3}" r="${r * 0.35}" fill="#ffffff" opacity="0.25"/>` +
  `<circle cx="${x - r * 0.28}" cy="${y}" r="0.9" fill="${shade(p.button, -0.5)}"/><circle cx="${x + r * 0.28}" cy="${y}" r="0.9" fill="${shade(p.button, -0.5)}"/>`;
const rivet = (x: number, y: number) =>
  `<circle cx="${x}" cy="${y}" r="3.2" fill="#b88a3e" stroke="#7d5b22" stroke-width="0.8"/>`;

/** Vertical rib lines between two lines (for cuffs and hems), clipped by the caller's polygon. */
function ribBand(poly: string, x0: number, x1: number, y0: number, y1: number, p: Palette, step = 7): string {
  const lines: string[] = [];
  for (let x = x0; x <= x1; x += step) lines.push(`M${x} ${y0 - 20}L${x} ${y1 + 20}`);
  const id = `rb${x0}${y0}`;
  return (
    `<clipPath id="${id}"><path d="${poly}"/></clipPath>` +
    `<path d="${poly}" fill="${p.band}"/>` +
    `<path d="${lines.join("")}" clip-path="url(#${id})" stroke="${p.seam}" stroke-width="1.2" opacity="0.35"/>` +
    seamLine(poly, p.seam, 1.4, 0.45)
  );
}

function tshirt(): Shape {
  const body =
    "M240 140 C265 172 335 172 360 140 L425 162 C455 175 480 200 498 236 L522 300 L448 326 L430 292 L432 655 C360 664 240 664 168 655 L170 292 L152 326 L78 300 L102 236 C120 200 145 175 175 162 Z";
  return {
    back: ["M240 140 C268 122 332 122 360 140 C335 170 265 170 240 140 Z"],
    main: [body],
    folds: ["M210 330 C230 420 215 520 235 620", "M392 360 C375 450 392 540 372 640", "M300 220 C296 300 306 380 298 460"],
    details: (p) =>
      seamLine("M240 140 C265 172 335 172 360 140", p.band, 11, 1) +
      seamLine("M240 140 C265 172 335 172 360 140", p.seam, 1.5, 0.5) +
      stitch("M247 148 C270 174 330 174 353 148", p.seam, 1.2, 0.6) +
      seamLine("M425 162 C420 210 425 258 430 292", p.seam) +
      seamLine("M175 162 C180 210 175 258 170 292", p.seam) +
      stitch("M512 290 L444 314", p.seam) +
      stitch("M88 290 L156 314", p.seam) +
      stitch("M170 640 C240 649 360 649 430 640", p.seam),
  };
}

function polo(): Shape {
  const t = tshirt();
  return {
    ...t,
    details: (p) =>
      t.details(p) +
      // placket
      `<path d="M288 156 L312 156 L312 262 L288 262 Z" fill="${p.band}" stroke="${p.seam}" stroke-width="1.4" opacity="0.95"/>` +
      button(300, 185, 5.5, p) +
      button(300, 220, 5.5, p) +
      button(300, 252, 5.5, p) +
      // flat knit collar
      `<path d="M240 140 C236 156 244 186 262 206 L298 160 C280 158 258 152 240 140 Z" fill="${p.band}" stroke="${p.seam}" stroke-width="1.5"/>` +
      `<path d="M360 140 C364 156 356 186 338 206 L302 160 C320 158 342 152 360 140 Z" fill="${p.band}" stroke="${p.seam}" stroke-width="1.5"/>` +
      seamLine("M250 180 C256 190 258 196 262 202", p.seam, 1.2, 0.4) +
      seamLine("M350 180 C344 190 342 196 338 202", p.seam, 1.2, 0.4) +
      // sleeve ribs
      ribBand("M512 288 L522 300 L448 326 L441 313 Z", 440, 525, 286, 328, p, 6) +
      ribBand("M88 288 L78 300 L152 326 L159 313 Z", 75, 160, 286, 328, p, 6),
  };
}

function shirt(): Shape {
  const body =
    "M245 132 L300 150 L355 132 L420 158 C452 172 470 200 478 240 L520 540 L468 556 L428 320 L432 628 C432 665 380 672 300 680 C220 672 168 665 168 628 L172 320 L132 556 L80 540 L122 240 C130 200 148 172 180 158 Z";
  return {
    back: ["M245 132 C270 116 330 116 355 132 L300 150 Z"],
    main: [body],
    folds: ["M212 330 C228 420 214 520 230 640", "M388 340 C374 450 390 540 372 650", "M470 300 C482 380 490 450 500 520", "M130 300 C118 380 110 450 100 520"],
    details: (p) =>
      // yoke and sleeve seams
      seamLine("M180 158 C230 178 370 178 420 158", p.seam, 1.4, 0.35) +
      seamLine("M420 158 C418 220 424 280 428 320", p.seam) +
      seamLine("M180 158 C182 220 176 280 172 320", p.seam) +
      // cuffs
      seamLine("M512 500 L461 514", p.seam, 1.8, 0.6) +
      seamLine("M88 500 L139 514", p.seam, 1.8, 0.6) +
      button(498, 522, 4.5, p) +
      button(102, 522, 4.5, p) +
      // placket and buttons
      seamLine("M292 156 L292 676", p.seam, 1.4, 0.5) +
      seamLine("M308 154 L308 676", p.seam, 1.4, 0.5) +
      [214, 284, 354, 424, 494, 564].map((y) => button(300, y, 6, p)).join("") +
      // chest pocket
      p.fabric("M340 252 L396 252 L396 306 L368 318 L340 306 Z") +
      stitch("M343 262 L393 262", p.seam, 1.2, 0.6) +
      // collar leaves over the band
      p.fabric("M245 132 L300 150 L282 198 L232 166 Z", shade(p.base, p.dark ? 0.05 : -0.04)) +
      p.fabric("M355 132 L300 150 L318 198 L368 166 Z", shade(p.base, p.dark ? 0.05 : -0.04)) +
      stitch("M248 142 L296 157 L281 190", p.seam, 1, 0.5) +
      stitch("M352 142 L304 157 L319 190", p.seam, 1, 0.5) +
      stitch("M172 612 C180 650 230 660 300 668 C370 660 420 650 428 612", p.seam, 1.3, 0.55),
  };
}

function hoodie(): Shape {
  const body =
    "M215 162 C250 184 350 184 385 162 L425 170 C458 183 476 210 484 250 L522 560 L466 574 L428 330 L430 672 L170 672 L172 330 L134 574 L78 560 L116 250 C124 210 142 183 175 170 Z";
  return {
    back: [],
    main: ["M212 168 C196 86 256 50 300 50 C344 50 404 86 388 168 C360 190 240 190 212 168 Z", body],
    folds: ["M215 360 C230 430 220 500 232 600", "M385 360 C372 430 382 500 368 600", "M476 320 C488 400 494 470 505 540", "M124 320 C112 400 106 470 95 540"],
    knit: true,
    details: (p) =>
      // hood opening and lining
      `<path d="M242 160 C236 102 270 80 300 80 C330 80 364 102 358 160 C330 182 270 182 242 160 Z" fill="${p.inner}"/>` +
      seamLine("M242 160 C236 102 270 80 300 80 C330 80 364 102 358 160", p.band, 9, 1) +
      seamLine("M300 52 L300 80", p.seam, 1.4, 0.4) +
      seamLine("M425 170 C422 230 426 290 428 330", p.seam) +
      seamLine("M175 170 C178 230 174 290 172 330", p.seam) +
      // drawstrings
      `<path d="M282 176 C280 210 284 250 278 290" fill="none" stroke="${p.contrast}" stroke-width="5" stroke-linecap="round"/>` +
      `<path d="M318 176 C320 210 316 250 322 292" fill="none" stroke="${p.contrast}" stroke-width="5" stroke-linecap="round"/>` +
      `<rect x="274" y="286" width="8" height="16" rx="2" fill="#b8b4ad"/><rect x="318" y="288" width="8" height="16" rx="2" fill="#b8b4ad"/>` +
      // kangaroo pocket
      `<path d="M212 468 L388 468 L414 596 L186 596 Z" fill="${p.base}" opacity="0.001"/>` +
      seamLine("M236 468 L364 468 L392 530 L404 596 M236 468 L208 530 L196 596", p.seam, 1.8, 0.55) +
      stitch("M240 476 L360 476", p.seam, 1.2, 0.5) +
      seamLine("M208 530 C214 505 226 486 236 470 M392 530 C386 505 374 486 364 470", p.inner, 2.5, 0.7) +
      // cuffs and hem rib
      ribBand("M170 630 L430 630 L430 672 L170 672 Z", 170, 430, 630, 672, p) +
      ribBand("M516 514 L522 560 L466 574 L460 528 Z", 458, 524, 512, 576, p, 6) +
      ribBand("M84 514 L78 560 L134 574 L140 528 Z", 76, 142, 512, 576, p, 6),
  };
}

function sweater(): Shape {
  const body =
    "M238 148 C264 180 336 180 362 148 L425 166 C458 180 476 208 484 248 L522 560 L466 574 L428 330 L430 662 L170 662 L172 330 L134 574 L78 560 L116 248 C124 208 142 180 175 166 Z";
  return {
    back: ["M238 148 C266 128 334 128 362 148 C336 178 264 178 238 148 Z"],
    main: [body],
    folds: ["M215 360 C230 430 220 520 232 610", "M385 360 C372 430 382 520 368 610", "M476 320 C488 400 494 470 505 540", "M124 320 C112 400 106 470 95 540"],
    knit: true,
    details: (p) =>
      seamLine("M238 148 C264 180 336 180 362 148", p.band, 14, 1) +
      seamLine("M238 148 C264 180 336 180 362 148", p.seam, 1.3, 0.45) +
      seamLine("M245 160 C268 188 332 188 355 160", p.seam, 1.1, 0.35) +
      seamLine("M425 166 C420 230 426 290 428 330", p.seam) +
      seamLine("M175 166 C180 230 174 290 172 330", p.seam) +
      ribBand("M170 618 L430 618 L430 662 L170 662 Z", 170, 430, 618, 662, p) +
      ribBand("M516 514 L522 560 L466 574 L460 528 Z", 458, 524, 512, 576, p, 6) +
      ribBand("M84 514 L78 560 L134 574 L140 528 Z", 76, 142, 512, 576, p, 6),
  };
}

function cardigan(): Shape {
  const s = sweater();
  return {
    ...s,
    back: ["M238 148 C266 128 334 128 362 148 L300 340 Z"],
    main: ["M238 148 L300 340 L362 148 L425 166 C458 180 476 208 484 248 L522 560 L466 574 L428 330 L430 662 L170 662 L172 330 L134 574 L78 560 L116 248 C124 208 142 180 175 166 Z"],
    details: (p) =>
      seamLine("M425 166 C420 230 426 290 428 330", p.seam) +
      seamLine("M175 166 C180 230 174 290 172 330", p.seam) +
      ribBand("M170 618 L430 618 L430 662 L170 662 Z", 170, 430, 618, 662, p) +
      ribBand("M516 514 L522 560 L466 574 L460 528 Z", 458, 524, 512, 576, p, 6) +
      ribBand("M84 514 L78 560 L134 574 L140 528 Z", 76, 142, 512, 576, p, 6) +
      // button bands along the V and down the front
      `<path d="M238 148 L252 146 L306 330 L306 662 L294 662 L294 340 Z" fill="${p.band}" stroke="${p.seam}" stroke-width="1.3"/>` +
      `<path d="M362 148 L348 146 L306 330 L306 662 L300 662 L300 340 Z" fill="${p.band}" stroke="${p.seam}" stroke-width="1.3" opacity="0.9"/>` +
      [362, 420, 478, 536, 594].map((y) => button(300, y, 6, p)).join("") +
      // patch pockets
      p.fabric("M200 500 L270 500 L270 580 L200 580 Z") +
      p.fabric("M330 500 L400 500 L400 580 L330 580 Z") +
      ribBand("M200 500 L270 500 L270 512 L200 512 Z", 200, 270, 500, 512, p, 5) +
      ribBand("M330 500 L400 500 L400 512 L330 512 Z", 330, 400, 500, 512, p, 5),
  };
}

function jacket(): Shape {
  const body =
    "M232 132 L368 132 L430 160 C465 176 482 208 490 250 L528 560 L470 574 L432 330 L436 640 L164 640 L168 330 L130 574 L72 560 L110 250 C118 208 135 176 170 160 Z";
  return {
    back: [],
    main: [body, "M228 108 C270 98 330 98 372 108 L376 158 C332 172 268 172 224 158 Z"],
    folds: ["M205 340 C222 420 210 500 222 600", "M395 340 C378 420 390 500 378 600", "M482 320 C494 400 500 470 510 540", "M118 320 C106 400 100 470 90 540"],
    details: (p) =>
      // stand collar
      seamLine("M224 158 C268 172 332 172 376 158", p.seam, 1.6, 0.6) +
      stitch("M228 118 C270 108 330 108 372 118", p.seam, 1.1, 0.5) +
      // zip
      `<path d="M300 104 L300 640" stroke="${shade(p.seam, p.dark ? 0.1 : -0.1)}" stroke-width="7" stroke-dasharray="2 2" opacity="0.85"/>` +
      `<path d="M300 104 L300 640" stroke="${p.seam}" stroke-width="1.2" opacity="0.6"/>` +
      `<rect x="294" y="176" width="12" height="26" rx="3" fill="#a9a6a0" stroke="#6d6a65" stroke-width="1"/>` +
      seamLine("M430 160 C426 230 430 290 432 330", p.seam) +
      seamLine("M170 160 C174 230 170 290 168 330", p.seam) +
      // chest pockets with flaps
      p.fabric("M196 262 L262 262 L262 290 L229 298 L196 290 Z") +
      p.fabric("M338 262 L404 262 L404 290 L371 298 L338 290 Z") +
      button(229, 287, 4.5, p) +
      button(371, 287, 4.5, p) +
      // welt pockets
      seamLine("M192 440 L222 540", p.inner, 5, 0.7) +
      seamLine("M408 440 L378 540", p.inner, 5, 0.7) +
      // hem and cuff bands
      ribBand("M164 604 L436 604 L436 640 L164 640 Z", 164, 436, 604, 640, p) +
      ribBand("M523 518 L528 560 L470 574 L465 532 Z", 463, 530, 516, 576, p, 6) +
      ribBand("M77 518 L72 560 L130 574 L135 532 Z", 70, 137, 516, 576, p, 6),
  };
}

function coat(): Shape {
  const body =
    "M238 128 L362 128 L432 156 C468 170 486 205 494 245 L534 600 L478 612 L436 330 L452 742 L148 742 L164 330 L122 612 L66 600 L106 245 C114 205 132 170 168 156 Z";
  return {
    back: ["M238 128 C270 112 330 112 362 128 L300 290 Z"],
    main: [body],
    folds: ["M205 360 C222 450 200 560 214 720", "M395 360 C378 450 400 560 386 720", "M486 320 C498 400 506 480 516 570", "M114 320 C102 400 94 480 84 570"],
    details: (p) => {
      const lapel = shade(p.base, p.dark ? 0.06 : -0.05);
      return (
        `<path d="M300 290 L238 128 L362 128 Z" fill="${p.inner}"/>` +
        // lapels (peak)
        p.fabric("M238 128 L196 176 L214 196 L196 232 L292 352 L300 292 Z", lapel) +
        p.fabric("M362 128 L404 176 L386 196 L404 232 L308 352 L300 292 Z", lapel) +
        seamLine("M214 196 L238 190", p.seam, 1.6, 0.6) +
        seamLine("M386 196 L362 190", p.seam, 1.6, 0.6) +
        // front edge (double-breasted overlap)
        seamLine("M318 350 L322 742", p.seam, 1.8, 0.6) +
        [392, 470, 548].map((y) => button(262, y, 7.5, p) + button(340, y, 7.5, p)).join("") +
        seamLine("M432 156 C428 230 432 290 436 330", p.seam) +
        seamLine("M168 156 C172 230 168 290 164 330", p.seam) +
        // flap pockets
        p.fabric("M172 536 L248 530 L250 562 L174 568 Z") +
        p.fabric("M352 530 L428 536 L426 568 L350 562 Z") +
        // belt
        p.fabric("M162 418 L438 418 L439 446 L161 446 Z", shade(p.base, p.dark ? 0.04 : -0.04)) +
        stitch("M164 424 L436 424 M164 440 L436 440", p.seam, 1, 0.45) +
        `<rect x="282" y="412" width="40" height="40" rx="4" fill="none" stroke="${p.button}" stroke-width="4"/>` +
        stitch("M510 580 L472 592 M90 580 L128 592", p.seam, 1.2, 0.6) +
        stitch("M150 726 L450 726", p.seam, 1.2, 0.5)
      );
    },
  };
}

function blazer(): Shape {
  const body =
    "M240 130 L360 130 L428 156 C462 170 480 202 488 242 L526 560 L472 572 L432 326 L440 610 L332 612 C318 580 306 546 300 508 C294 546 282 580 268 612 L160 610 L168 326 L128 572 L74 560 L112 242 C120 202 138 170 172 156 Z";
  return {
    back: ["M240 130 C270 114 330 114 360 130 L300 300 Z"],
    main: [body],
    folds: ["M205 340 C220 420 206 500 216 590", "M395 340 C380 420 394 500 384 590", "M480 320 C492 400 498 470 508 540", "M120 320 C108 400 102 470 92 540"],
    details: (p) => {
      const lapel = shade(p.base, p.dark ? 0.06 : -0.05);
      return (
        `<path d="M300 300 L240 130 L360 130 Z" fill="${p.inner}"/>` +
        `<path d="M285 134 L300 300 L315 134 Z" fill="#f4f1ea" opacity="0.9"/>` +
        // notch lapels
        p.fabric("M240 130 L202 184 L226 196 L210 214 L294 380 L300 300 Z", lapel) +
        p.fabric("M360 130 L398 184 L374 196 L390 214 L306 380 L300 300 Z", lapel) +
        seamLine("M300 380 L300 508", p.seam, 1.6, 0.55) +
        button(300, 420, 7, p) +
        button(300, 478, 7, p) +
        seamLine("M428 156 C424 226 428 286 432 326", p.seam) +
        seamLine("M172 156 C176 226 172 286 168 326", p.seam) +
        // breast welt and flap pockets
        `<path d="M344 300 L394 292 L395 302 L345 310 Z" fill="${p.seam}" opacity="0.45"/>` +
        p.fabric("M180 486 L250 484 L250 508 L180 510 Z") +
        p.fabric("M350 484 L420 486 L420 510 L350 508 Z") +
        [520, 532, 544].map((y) => button(500 + (y - 520) * 0.25, y, 3.5, p) + button(100 - (y - 520) * 0.25, y, 3.5, p)).join("")
      );
    },
  };
}

function jeans(): Shape {
  const body = "M195 120 L405 120 L432 745 L322 748 L302 332 L298 332 L278 748 L168 745 Z";
  return {
    back: [],
    main: [body],
    folds: ["M240 360 C236 420 246 470 240 520", "M360 360 C364 420 354 470 360 520", "M230 600 C222 650 228 700 222 740", "M370 600 C378 650 372 700 378 740"],
    details: (p) => {
      const thread = p.denim ? "#d09a4c" : p.seam;
      return (
        seamLine("M195 152 L406 152", p.seam, 1.6, 0.6) +
        stitch("M196 126 L404 126 M196 146 L405 146", thread, 1.3, 0.85) +
        [212, 256, 344, 388].map((x) => `<rect x="${x - 5}" y="116" width="10" height="42" rx="2" fill="${p.band}" stroke="${p.seam}" stroke-width="1"/>`).join("") +
        `<circle cx="300" cy="137" r="7" fill="#b9b6ae" stroke="#7f7b73" stroke-width="1.2"/>` +
        // fly
        seamLine("M300 152 L300 300", p.seam, 1.6, 0.6) +
        stitch("M322 156 L322 262 C322 282 312 292 300 298", thread, 1.4, 0.9) +
        // front pockets
        seamLine("M198 166 C232 170 252 196 258 232", p.seam, 1.8, 0.65) +
        stitch("M198 176 C226 180 244 202 250 232", thread, 1.2, 0.85) +
        seamLine("M402 166 C368 170 348 196 342 232", p.seam, 1.8, 0.65) +
        stitch("M402 176 C374 180 356 202 350 232", thread, 1.2, 0.85) +
        `<path d="M352 170 L384 168 L386 200 L354 202 Z" fill="none" stroke="${thread}" stroke-width="1.2" stroke-dasharray="4 3" opacity="0.85"/>` +
        (p.denim ? rivet(258, 230) + rivet(342, 230) + rivet(200, 166) + rivet(400, 166) : "") +
        // inseam, outseam and hems
        stitch("M302 338 L320 742 M298 338 L280 742", thread, 1.2, 0.7) +
        stitch("M170 728 L278 730 M322 730 L430 728", thread, 1.3, 0.85) +
        (p.denim
          ? `<g clip-path="url(#garment)"><ellipse cx="238" cy="520" rx="40" ry="90" fill="url(#fade)"/><ellipse cx="362" cy="520" rx="40" ry="90" fill="url(#fade)"/>` +
            `<ellipse cx="252" cy="262" rx="44" ry="56" fill="url(#fade)" opacity="0.8"/><ellipse cx="348" cy="262" rx="44" ry="56" fill="url(#fade)" opacity="0.8"/></g>` +
            seamLine("M270 300 L292 318 M272 314 L294 326 M330 300 L308 318 M328 314 L306 326", "#ffffff", 2, 0.2)
          : "")
      );
    },
  };
}

function trousers(): Shape {
  const body = "M190 120 L410 120 L440 748 L322 750 L302 345 L298 345 L278 750 L160 748 Z";
  return {
    back: [],
    main: [body],
    folds: ["M236 380 C232 460 240 540 234 620", "M364 380 C368 460 360 540 366 620"],
    details: (p) =>
      seamLine("M190 154 L411 154", p.seam, 1.6, 0.6) +
      stitch("M192 148 L409 148", p.seam, 1.1, 0.5) +
      [208, 250, 350, 392].map((x) => `<rect x="${x - 4}" y="118" width="8" height="40" rx="2" fill="${p.band}" stroke="${p.seam}" stroke-width="1"/>`).join("") +
      button(300, 136, 6, p) +
      seamLine("M300 154 L300 300", p.seam, 1.5, 0.55) +
      stitch("M318 158 L318 270 C318 286 310 294 300 298", p.seam, 1.2, 0.55) +
      // slant pockets
      seamLine("M200 158 L232 248", p.seam, 2, 0.65) +
      seamLine("M400 158 L368 248", p.seam, 2, 0.65) +
      // pressed creases
      seamLine("M234 250 L220 744", shade(p.base, p.dark ? 0.14 : 0.18), 2.4, 0.55) +
      seamLine("M366 250 L380 744", shade(p.base, p.dark ? 0.14 : 0.18), 2.4, 0.55) +
      seamLine("M302 350 L320 746 M298 350 L280 746", p.seam, 1.2, 0.35) +
      stitch("M162 732 L278 734 M322 734 L438 732", p.seam, 1.1, 0.45),
  };
}

function shorts(): Shape {
  const body = "M188 150 L412 150 L452 462 L318 472 L302 330 L298 330 L282 472 L148 462 Z";
  return {
    back: [],
    main: [body],
    folds: ["M230 340 C226 390 234 420 228 460", "M370 340 C374 390 366 420 372 460"],
    details: (p) =>
      seamLine("M188 184 L413 184", p.seam, 1.6, 0.6) +
      [206, 250, 350, 394].map((x) => `<rect x="${x - 4}" y="148" width="8" height="40" rx="2" fill="${p.band}" stroke="${p.seam}" stroke-width="1"/>`).join("") +
      button(300, 167, 6, p) +
      seamLine("M300 184 L300 300", p.seam, 1.5, 0.55) +
      stitch("M318 188 L318 280 C318 294 310 300 300 304", p.seam, 1.2, 0.55) +
      seamLine("M198 190 L228 270", p.seam, 2, 0.65) +
      seamLine("M402 190 L372 270", p.seam, 2, 0.65) +
      // turn-ups
      `<path d="M151 430 L283 440 L282 472 L148 462 Z" fill="${p.band}" stroke="${p.seam}" stroke-width="1.4"/>` +
      `<path d="M449 430 L317 440 L318 472 L452 462 Z" fill="${p.band}" stroke="${p.seam}" stroke-width="1.4"/>` +
      seamLine("M302 335 L317 438 M298 335 L283 438", p.seam, 1.2, 0.4),
  };
}

function dress(): Shape {
  const body =
    "M245 126 C270 162 330 162 355 126 L400 138 C420 150 438 170 448 196 L415 216 L398 206 C392 262 386 302 372 338 C420 430 470 580 500 720 C400 748 200 748 100 720 C130 580 180 430 228 338 C214 302 208 262 202 206 L185 216 L152 196 C162 170 180 150 200 138 Z";
  return {
    back: ["M245 126 C272 110 328 110 355 126 C330 158 270 158 245 126 Z"],
    main: [body],
    folds: ["M262 352 C250 480 232 600 214 730", "M300 352 C300 480 300 600 300 740", "M338 352 C350 480 368 600 386 730", "M240 350 C210 460 180 600 150 722", "M360 350 C390 460 420 600 450 722"],
    details: (p) =>
      seamLine("M245 126 C270 162 330 162 355 126", p.seam, 1.6, 0.6) +
      stitch("M251 134 C274 164 326 164 349 134", p.seam, 1.1, 0.5) +
      seamLine("M400 138 C396 166 398 186 398 206 M200 138 C204 166 202 186 202 206", p.seam, 1.6, 0.5) +
      // waist seam with a tie belt
      p.fabric("M226 332 C270 346 330 346 374 332 L376 352 C330 366 270 366 224 352 Z", shade(p.base, p.dark ? 0.05 : -0.06)) +
      p.fabric("M356 350 C368 380 374 420 366 456 L354 452 C360 420 356 384 346 356 Z", shade(p.base, p.dark ? 0.05 : -0.06)) +
      p.fabric("M362 350 C384 372 398 404 398 440 L386 440 C384 408 372 380 354 358 Z", shade(p.base, p.dark ? 0.03 : -0.03)) +
      // darts
      seamLine("M262 240 L270 332 M338 240 L330 332", p.seam, 1.3, 0.35) +
      stitch("M104 706 C200 732 400 732 496 706", p.seam, 1.2, 0.5),
  };
}

function skirt(): Shape {
  const body = "M214 150 L386 150 L396 186 C430 330 470 500 496 652 C400 680 200 680 104 652 C130 500 170 330 204 186 Z";
  const pleats: string[] = [];
  for (let i = 1; i < 9; i++) {
    const xt = 204 + i * 21.5;
    const xb = 104 + i * 43.5;
    pleats.push(`M${xt.toFixed(1)} 188 C${(xt + (xb - xt) * 0.3).toFixed(1)} 380 ${(xt + (xb - xt) * 0.7).toFixed(1)} 520 ${xb.toFixed(1)} ${i === 4 ? 675 : 668}`);
  }
  return {
    back: [],
    main: [body],
    folds: pleats.filter((_, i) => i % 2 === 0),
    details: (p) =>
      `<path d="M214 150 L386 150 L396 186 L204 186 Z" fill="${p.band}" stroke="${p.seam}" stroke-width="1.4"/>` +
      stitch("M212 158 L388 158 M208 179 L392 179", p.seam, 1, 0.45) +
      button(372, 168, 5.5, p) +
      pleats.map((d) => seamLine(d, p.seam, 1.5, 0.45)).join("") +
      pleats.map((d) => `<path d="${d}" transform="translate(4 0)" fill="none" stroke="#ffffff" stroke-width="2" opacity="${p.dark ? 0.08 : 0.18}"/>`).join("") +
      stitch("M110 640 C200 664 400 664 490 640", p.seam, 1.2, 0.5),
  };
}

const SHAPES: Record<GarmentKind, () => Shape> = {
  tshirt,
  polo,
  shirt,
  hoodie,
  sweater,
  cardigan,
  jacket,
  coat,
  blazer,
  jeans,
  trousers,
  shorts,
  dress,
  skirt,
};

/** Shirts, tailoring and bottoms carry vertical stripes; knits, tees and dresses Breton stripes. */
const VERTICAL_STRIPES = new Set<GarmentKind>(["shirt", "blazer", "coat", "trousers", "shorts", "skirt", "jacket"]);

function patternDef(pattern: Pattern, p: Palette, kind: GarmentKind): string {
  switch (pattern) {
    case "stripes":
      return VERTICAL_STRIPES.has(kind)
        ? `<pattern id="pat" width="22" height="40" patternUnits="userSpaceOnUse"><rect x="0" width="5" height="40" fill="${p.contrast}" opacity="0.85"/></pattern>`
        : `<pattern id="pat" width="40" height="26" patternUnits="userSpaceOnUse"><rect y="0" width="40" height="9" fill="${p.contrast}" opacity="0.9"/></pattern>`;
    case "check": {
      const c = p.dark ? shade(p.base, 0.35) : shade(p.base, -0.4);
      return (
        `<pattern id="pat" width="64" height="64" patternUnits="userSpaceOnUse">` +
        `<rect x="0" y="0" width="22" height="64" fill="${c}" opacity="0.35"/>` +
        `<rect x="0" y="0" width="64" height="22" fill="${c}" opacity="0.35"/>` +
        `<rect x="40" y="0" width="3" height="64" fill="${p.contrast}" opacity="0.55"/>` +
        `<rect x="0" y="40" width="64" height="3" fill="${p.contrast}" opacity="0.55"/>` +
        `</pattern>`
      );
    }
    case "dots":
      return (
        `<pattern id="pat" width="36" height="36" patternUnits="userSpaceOnUse">` +
        `<circle cx="9" cy="9" r="4.5" fill="${p.contrast}"/><circle cx="27" cy="27" r="4.5" fill="${p.contrast}"/></pattern>`
      );
    default:
      return "";
  }
}

/**
 * A soft drop shadow without a blur filter (filters cost librsvg ~5× the render time): the
 * outline stroked several times, wide and faint to narrow, so the edge fades out.
 */
function shadowLayers(paths: string[]): string {
  const d = paths.join(" ");
  return [40, 34, 28, 23, 18, 14, 10, 6, 3]
    .map((w) => `<path d="${d}" fill="#3b342c" stroke="#3b342c" stroke-width="${w}" stroke-linejoin="round" opacity="0.022"/>`)
    .join("");
}

/** A soft fold: a dark crease with a highlight beside it, both feathered by stacked strokes. */
function foldLayers(d: string, color: string): string {
  return (
    [28, 18, 9].map((w) => `<path d="${d}" fill="none" stroke="${color}" stroke-width="${w}" stroke-linecap="round" opacity="0.055"/>`).join("") +
    [16, 7].map((w) => `<path d="${d}" transform="translate(15 0)" fill="none" stroke="#ffffff" stroke-width="${w}" stroke-linecap="round" opacity="0.05"/>`).join("")
  );
}

/** The SVG document of one garment image. `hex` is the fabric colour ("#1f2a44"). */
export function garmentSvg(kind: GarmentKind, hex: string, pattern: Pattern = "solid", opts: { denim?: boolean } = {}): string {
  const shape = SHAPES[kind]();
  const p = palette(hex, opts.denim ?? false, pattern !== "solid");
  const mainPaths = shape.main.map((d) => `<path d="${d}"/>`).join("");
  const fill = shape.main.map((d) => `<path d="${d}" fill="${p.base}"/>`).join("");
  const knit = shape.knit
    ? `<pattern id="knit" width="6" height="8" patternUnits="userSpaceOnUse"><path d="M0 0 L3 4 L6 0 M0 4 L3 8 L6 4" fill="none" stroke="${p.dark ? "#ffffff" : "#000000"}" stroke-width="0.8" opacity="0.07"/></pattern>`
    : `<pattern id="knit" width="4" height="4" patternUnits="userSpaceOnUse"><path d="M0 4 L4 0" stroke="${p.dark ? "#ffffff" : "#000000"}" stroke-width="0.6" opacity="0.035"/></pattern>`;
  const foldColor = p.dark ? "#000000" : shade(p.base, -0.6);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f5f3ef"/><stop offset="0.78" stop-color="#ebe7e1"/><stop offset="1" stop-color="#e2ddd5"/></linearGradient>
<radialGradient id="vig" cx="0.5" cy="0.45" r="0.75"><stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.08"/></radialGradient>
<linearGradient id="hshade" gradientUnits="userSpaceOnUse" x1="66" y1="0" x2="534" y2="0">
<stop offset="0" stop-color="#000" stop-opacity="0.30"/><stop offset="0.18" stop-color="#000" stop-opacity="0.06"/>
<stop offset="0.40" stop-color="#fff" stop-opacity="0.16"/><stop offset="0.62" stop-color="#fff" stop-opacity="0.03"/>
<stop offset="0.84" stop-color="#000" stop-opacity="0.10"/><stop offset="1" stop-color="#000" stop-opacity="0.34"/></linearGradient>
<linearGradient id="vshade" gradientUnits="userSpaceOnUse" x1="0" y1="50" x2="0" y2="750">
<stop offset="0" stop-color="#fff" stop-opacity="0.12"/><stop offset="0.5" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.16"/></linearGradient>
<radialGradient id="fade"><stop offset="0" stop-color="#fff" stop-opacity="0.22"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
<clipPath id="garment">${mainPaths}</clipPath>
${patternDef(pattern, p, kind)}${knit}
</defs>
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#bg)"/>
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#vig)"/>
<g transform="translate(7 12)">${shadowLayers([...shape.back, ...shape.main])}</g>
${shape.back.map((d) => `<path d="${d}" fill="${p.inner}"/>`).join("")}
${fill}
<g clip-path="url(#garment)">
${pattern !== "solid" ? `<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#pat)"/>` : ""}
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#knit)"/>
${shape.folds.map((d) => foldLayers(d, foldColor)).join("")}
</g>
${shape.details(p)}
<g clip-path="url(#garment)">
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#hshade)"/>
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#vshade)"/>
</g>
${shape.main.map((d) => `<path d="${d}" fill="none" stroke="${p.seam}" stroke-width="1.6" stroke-linejoin="round" opacity="0.55"/>`).join("")}
</svg>`;
}
