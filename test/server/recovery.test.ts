import { mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { jsonLogger } from '../../server/kit/logger.js';
import { publishedSnapshotSource } from '../../server/kit/snapshot-source.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { linkCopy } from '../helpers/link-copy.js';

/**
 * The shim must ride out a brief loss of the `current` link (an operator moving folders, a restore):
 * 502 while it is gone, served again within a second of its return, one log line each way.
 */
describe('recovery after the current snapshot goes missing', () => {
  let root: string;
  let server: RunningServer;
  let clock = 0;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'esg-recovery-'));
    const source = currentSnapshotDir(demoSnapshotsDir)!;
    linkCopy(source, join(root, 'snap'), { shared: ['tree'] });
    symlinkSync('snap', join(root, 'current'));
    const snapshots = publishedSnapshotSource(root, { now: () => clock, logger: jsonLogger((l) => lines.push(JSON.parse(l))) });
    server = await startServer(root, { snapshots });
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers 502 while the link is gone, and 200 again within a second of its return, logging each change once', async () => {
    const status = async (path: string) => (await getJson(server.base + path)).status;
    expect(await status('/api/v1/company/D1101')).toBe(200);

    renameSync(join(root, 'current'), join(root, 'current.bak'));
    clock += 1000;
    expect(await status('/api/v1/company/D1101')).toBe(502);
    expect(await status('/readyz')).toBe(503);
    clock += 1000;
    expect(await status('/api/v1/ranking?limit=3')).toBe(502);

    renameSync(join(root, 'current.bak'), join(root, 'current'));
    clock += 999;
    expect(await status('/api/v1/company/D1101'), 'looked again less than a second ago').toBe(502);
    clock += 1;
    expect(await status('/api/v1/company/D1101')).toBe(200);
    expect(await status('/readyz')).toBe(200);
    expect(await status('/api/v1/ranking?limit=3')).toBe(200);

    const messages = lines.map((l) => l.message as string);
    expect(messages.filter((m) => m.startsWith('snapshot unavailable'))).toHaveLength(1);
    expect(messages.filter((m) => m.startsWith('snapshot readable again'))).toHaveLength(1);
  });
});
