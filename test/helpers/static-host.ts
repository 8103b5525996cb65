import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/**
 * A static host as a CDN or nginx serves the tree: `try_files $uri.json $uri/index.json $uri =404`,
 * nothing computed, no rewrites. The case suite runs against it to show that every static path of the
 * API really is a file a dumb host can serve.
 */
export interface StaticHost {
  base: string;
  close(): Promise<void>;
}

async function fileAt(path: string): Promise<Buffer | null> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? readFile(path) : null;
}

/** The nginx rule for pinned reads in docs/retention.md: `/api/v1/snapshots/{id}/…` is `…` in snapshot {id}'s own tree. */
const PINNED = /^\/api\/v1\/snapshots\/(\d{4}-\d{2}-\d{2}(?:\.\d+)?)(\/.*)?$/;

export async function startStaticHost(currentTreeDir: string, o: { snapshotsDir?: string } = {}): Promise<StaticHost> {
  const server: Server = createServer(async (req, res) => {
    let uri = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
    let treeDir = currentTreeDir;
    const pinned = o.snapshotsDir ? PINNED.exec(uri) : null;
    if (pinned) {
      treeDir = join(o.snapshotsDir!, pinned[1]!, 'tree');
      uri = `/api/v1${pinned[2] ?? ''}`;
    }
    const root = normalize(join(treeDir, uri));
    let body: Buffer | null = null;
    if (root.startsWith(treeDir)) {
      for (const candidate of [`${root}.json`, join(root, 'index.json'), root]) {
        body = await fileAt(candidate);
        if (body) break;
      }
    }
    res.statusCode = body ? 200 : 404;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
