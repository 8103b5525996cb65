import { mkdirSync, writeFileSync } from 'node:fs';
import { fileForPageUrl } from '../../src/site/paths.js';

export interface PageStats {
  files: number;
  bytes: number;
}

/** Writes pages (and their small data files) under the tree folder, making each folder once. */
export class PageFiles {
  readonly stats: PageStats = { files: 0, bytes: 0 };
  private readonly createdDirs = new Set<string>();

  constructor(readonly treeDir: string) {}

  write(url: string, text: string): void {
    const file = `${this.treeDir}/${fileForPageUrl(url)}`;
    const dir = file.slice(0, file.lastIndexOf('/'));
    if (!this.createdDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.createdDirs.add(dir);
    }
    writeFileSync(file, text);
    this.stats.files++;
    this.stats.bytes += Buffer.byteLength(text);
  }
}
