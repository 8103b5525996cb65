/**
 * SHA256SUMS in the format `sha256sum -c` reads: `<hex>  <name>` (two spaces: text mode, which on
 * POSIX is the same as binary), one line per file, by name. Names are checked to be plain file
 * names, since sha256sum would escape a backslash or newline and the line would no longer match.
 */
export function sha256sums(entries: readonly { name: string; sha256: string }[]): string {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted
    .map((e) => {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(e.name)) throw new Error(`unexpected file name ${JSON.stringify(e.name)} in SHA256SUMS`);
      if (!/^[0-9a-f]{64}$/.test(e.sha256)) throw new Error(`bad sha256 for ${e.name}`);
      return `${e.sha256}  ${e.name}\n`;
    })
    .join('');
}
