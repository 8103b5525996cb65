import { copyFileSync, constants, linkSync } from 'node:fs';

/**
 * Puts the snapshot database into the download folder without doubling disk use when it can: a hard
 * link shares the bytes (the snapshot file is never written again once published). Across file
 * systems, or where links are not allowed, it falls back to a copy. Never overwrites.
 */
export function linkOrCopy(from: string, to: string): 'linked' | 'copied' {
  try {
    linkSync(from, to);
    return 'linked';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw e;
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    return 'copied';
  }
}
