/**
 * POSIX ustar headers (IEEE 1003.1-1988, as GNU and BSD tar read them), for regular files only.
 * Every field that could vary between machines or runs is fixed: owner 0/0 with no user or group
 * names, mode 0644, the caller's mtime. So the same files always give the same bytes.
 */

const BLOCK = 512;

export interface UstarPath {
  name: Buffer;
  prefix: Buffer;
}

/**
 * Splits a relative posix path into ustar's `prefix` (≤ 155 bytes) and `name` (≤ 100 bytes) at a `/`,
 * choosing the shortest prefix that fits. Paths that cannot be split throw: there is no silent
 * truncation, and no GNU or pax extension (readers would need to support it).
 */
export function splitUstarPath(path: string): UstarPath {
  if (path === '' || path.startsWith('/') || path.endsWith('/') || path.split('/').some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`archive path ${JSON.stringify(path)} is not a clean relative path`);
  }
  if (path.includes('\0')) throw new Error(`archive path ${JSON.stringify(path)} contains NUL`);
  const bytes = Buffer.from(path, 'utf8');
  if (bytes.length <= 100) return { name: bytes, prefix: Buffer.alloc(0) };
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x2f) continue;
    if (bytes.length - i - 1 > 100) continue; // the name part is still too long: try a later slash
    if (i > 155) break; // the shortest prefix that leaves a short enough name is already too long
    return { name: bytes.subarray(i + 1), prefix: bytes.subarray(0, i) };
  }
  throw new Error(`archive path too long for ustar (name ≤ 100 bytes after the last usable "/", prefix ≤ 155): ${path}`);
}

/** An octal number in a field of `len` bytes: len − 1 zero-padded digits and a NUL. */
function octal(h: Buffer, offset: number, len: number, value: number): void {
  const digits = value.toString(8).padStart(len - 1, '0');
  if (!Number.isSafeInteger(value) || value < 0 || digits.length > len - 1) throw new Error(`value ${value} does not fit a ${len}-byte ustar field`);
  h.write(digits, offset, 'ascii');
  h[offset + len - 1] = 0;
}

/** The 512-byte header of a regular file of `size` bytes. */
export function ustarFileHeader(path: string, size: number, mtimeSeconds: number): Buffer {
  const { name, prefix } = splitUstarPath(path);
  const h = Buffer.alloc(BLOCK, 0);
  name.copy(h, 0); // name[100]: NUL-terminated unless exactly 100 bytes
  octal(h, 100, 8, 0o644); // mode
  octal(h, 108, 8, 0); // uid
  octal(h, 116, 8, 0); // gid
  octal(h, 124, 12, size); // size (up to 8 GiB − 1)
  octal(h, 136, 12, mtimeSeconds); // mtime
  h.fill(0x20, 148, 156); // chksum counts as eight spaces while it is computed
  h.write('0', 156, 'ascii'); // typeflag: regular file; linkname[100] stays empty
  h.write('ustar\0', 257, 'ascii'); // magic
  h.write('00', 263, 'ascii'); // version; uname[32] and gname[32] stay empty: no user names
  octal(h, 329, 8, 0); // devmajor
  octal(h, 337, 8, 0); // devminor
  prefix.copy(h, 345); // prefix[155]
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0'), 148, 'ascii');
  h[154] = 0;
  h[155] = 0x20;
  return h;
}

/** Zero bytes that bring `size` bytes of file data up to a whole block. */
export function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest, 0);
}

/** The end of an archive: two zero blocks, then zeros up to tar's usual 10240-byte record. */
export function endOfArchive(bytesSoFar: number): Buffer {
  const RECORD = 20 * BLOCK;
  const withEnd = bytesSoFar + 2 * BLOCK;
  const total = Math.ceil(withEnd / RECORD) * RECORD;
  return Buffer.alloc(total - bytesSoFar, 0);
}
