import { mkdirSync, writeFileSync } from 'node:fs';

export interface WriteStats {
  files: number;
  bytes: number;
}

/**
 * Writes text files (strings, or bytes already encoded) under one folder, making each subfolder once and counting what it wrote: what
 * the JSON tree and the pages share. Plain synchronous writes: for 200k small files they beat
 * streams and promise-based fs (the per-call overhead is what dominates), and a string goes out
 * without a Buffer of our own to allocate.
 */
export class FolderFiles {
  readonly stats: WriteStats = { files: 0, bytes: 0 };
  private readonly createdDirs = new Set<string>();

  constructor(readonly root: string) {}

  /** `rel` is already normal (built from the site's URL helpers): plain concatenation spares path.join's parsing per file. */
  write(rel: string, text: string | Uint8Array): void {
    const file = `${this.root}/${rel}`;
    const dir = file.slice(0, file.lastIndexOf('/'));
    if (!this.createdDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.createdDirs.add(dir);
    }
    writeFileSync(file, text);
    this.stats.files++;
    this.stats.bytes += typeof text === 'string' ? Buffer.byteLength(text) : text.byteLength;
  }
}
