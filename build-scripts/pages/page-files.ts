import { fileForPageUrl } from '../../src/site/i18n/paths.js';
import { FolderFiles, type WriteStats } from '../output/folder-files.js';

export type PageStats = WriteStats;

/** Writes pages (and their small data files) under the tree folder. */
export class PageFiles {
  private readonly out: FolderFiles;

  constructor(readonly treeDir: string) {
    this.out = new FolderFiles(treeDir);
  }

  get stats(): PageStats {
    return this.out.stats;
  }

  write(url: string, text: string): void {
    this.out.write(fileForPageUrl(url), text);
  }
}
