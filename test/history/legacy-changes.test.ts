import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_FILE, LEGACY_CHANGES_MAX_BYTES } from '../../src/snapshot/changes-file.js';
import { ChangesStore } from '../../src/snapshot/changes-store.js';
import { CURRENT_LINK, currentSnapshotDir } from '../../src/snapshot/published.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { queryOf, type ChangesCase } from './changes-expected.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * Snapshots published by builds before changes.sqlite hold their changes in one changes.json, and
 * published snapshots never change: the shim still filters those, with the same bytes the database
 * gives; one too large to hold in its heap is refused (502, saying why) instead of killing the
 * process; and a snapshot with neither is a 502, as before.
 */
const API = '/api/v1';
let root: string;
let current: string;
let legacyJson: string;
const servers: RunningServer[] = [];

/** A snapshots folder whose current snapshot is the evolving demo's second month, with `changes` (if any) in place of its database. */
async function servedWith(name: string, changes: string | null): Promise<RunningServer> {
  const snapshots = join(root, name);
  const id = basename(current);
  mkdirSync(join(snapshots, id), { recursive: true });
  copyFileSync(join(current, 'snapshot.sqlite'), join(snapshots, id, 'snapshot.sqlite'));
  symlinkSync(join(current, 'tree'), join(snapshots, id, 'tree'));
  if (changes !== null) writeFileSync(join(snapshots, id, CHANGES_FILE), changes);
  symlinkSync(id, join(snapshots, CURRENT_LINK));
  const server = await startServer(snapshots);
  servers.push(server);
  return server;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'esg-legacy-changes-'));
  current = currentSnapshotDir(demoSeriesSnapshotsDir)!;
  // What builds before the database wrote: the whole list with each company's industry.
  const store = ChangesStore.open(current);
  try {
    legacyJson = JSON.stringify({ from_snapshot_id: store.fromSnapshotId, changes: [...store.entries()] });
  } finally {
    store.close();
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

describe('filtered /changes of a snapshot published before the changes database', () => {
  it('answers from its changes.json the bytes the database answers', async () => {
    const fromDatabase = await startServer(demoSeriesSnapshotsDir);
    servers.push(fromDatabase);
    const legacy = await servedWith('legacy', legacyJson);
    const industry = (JSON.parse(legacyJson) as { changes: { industry: string }[] }).changes[0]!.industry;
    const cases: ChangesCase[] = [
      { limit: 200 }, { limit: 7, page: 3 }, { cause: 'timeliness', limit: 10, page: 2 }, { industry }, { min_abs_delta: 5, page: 2 },
      { cause: 'flag_raised', industry, min_abs_delta: 5 }, { cause: 'penalty_new', page: 9 },
    ];
    for (const c of cases) {
      const [want, got] = await Promise.all([fromDatabase, legacy].map((s) => getJson(`${s.base}${API}/changes?${queryOf(c)}`)));
      expect(got!.status, queryOf(c)).toBe(200);
      expect(got!.text, queryOf(c)).toBe(want!.text);
    }
  });

  it('refuses one too large to hold with a 502 saying why, and keeps serving', async () => {
    const huge = await servedWith('huge', legacyJson + ' '.repeat(LEGACY_CHANGES_MAX_BYTES));
    for (let i = 0; i < 2; i++) {
      const res = await getJson(`${huge.base}${API}/changes?cause=timeliness`);
      expect(res.status).toBe(502);
      expect(res.body.error).toMatchObject({ code: 'UPSTREAM_FAILURE', message: expect.stringContaining('older build') });
    }
    expect((await getJson(`${huge.base}${API}/changes`)).status).toBe(200);
  });

  it('is a 502 when the snapshot has no changes at all', async () => {
    const none = await servedWith('none', null);
    const res = await getJson(`${none.base}${API}/changes?cause=timeliness`);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('UPSTREAM_FAILURE');
  });
});
