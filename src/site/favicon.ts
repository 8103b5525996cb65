/**
 * /favicon.ico, drawn in code so the build needs no binary in the repository: a 32×32 icon (a green
 * disc with a white tick), stored as the ICO format's 32-bit BMP. Browsers ask for /favicon.ico on
 * every site that declares no other icon, and crawlers ask for it anyway; without it each page
 * logged a 404.
 */
const SIZE = 32;
const GREEN = [0x37, 0x7f, 0x1a, 0xff]; // #1a7f37 as B, G, R, A
const WHITE = [0xff, 0xff, 0xff, 0xff];
const TICK: [number, number][] = [
  [9, 16.5],
  [14, 21.5],
  [23.5, 11],
];

function distanceToSegment(x: number, y: number, [ax, ay]: [number, number], [bx, by]: [number, number]): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}

/** The colour of pixel (x, y), y downwards; null for transparent. */
function pixel(x: number, y: number): number[] | null {
  const cx = x + 0.5;
  const cy = y + 0.5;
  if (Math.hypot(cx - SIZE / 2, cy - SIZE / 2) > SIZE / 2 - 0.5) return null;
  const onTick = distanceToSegment(cx, cy, TICK[0]!, TICK[1]!) < 2.2 || distanceToSegment(cx, cy, TICK[1]!, TICK[2]!) < 2.2;
  return onTick ? WHITE : GREEN;
}

export function faviconIco(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  const maskRow = Math.ceil(SIZE / 32) * 4; // 1 bit a pixel, rows padded to 4 bytes
  const mask = Buffer.alloc(maskRow * SIZE);
  for (let row = 0; row < SIZE; row++) {
    const y = SIZE - 1 - row; // BMP rows go bottom-up
    for (let x = 0; x < SIZE; x++) {
      const c = pixel(x, y);
      if (c) Buffer.from(c).copy(pixels, (row * SIZE + x) * 4);
      else mask[row * maskRow + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const info = Buffer.alloc(40); // BITMAPINFOHEADER; the height counts the colour and mask halves
  info.writeUInt32LE(40, 0);
  info.writeInt32LE(SIZE, 4);
  info.writeInt32LE(SIZE * 2, 8);
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(32, 14);
  info.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([info, pixels, mask]);
  const header = Buffer.alloc(6 + 16); // ICONDIR with one ICONDIRENTRY
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}
