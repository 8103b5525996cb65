import { closeSync, fsyncSync, openSync } from 'node:fs';

/** Flushes one file or folder to disk: a folder's fsync makes the renames inside it durable. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
