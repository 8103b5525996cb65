import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export interface Digest {
  bytes: number;
  sha256: string;
}

/** Size and SHA-256 of a file as written to disk, read back in a stream (the SQLite file may be large). */
export async function digestFile(path: string): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}
