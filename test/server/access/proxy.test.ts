import { afterEach, describe, expect, it } from 'vitest';
import { count, startMetered, statuses, type Metered } from './harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * Contract 6: the keyless tier is counted per client IP; X-Forwarded-For is believed only when
 * TRUST_PROXY names the proxy (here the test client, on loopback).
 */
const RANKING = '/ranking?limit=1';
let m: Metered | undefined;
afterEach(async () => {
  await m?.close();
  m = undefined;
});
const from = (xff: string) => m!.call(RANKING, { headers: { 'X-Forwarded-For': xff } });

describe('client IP', () => {
  it('by default a forged X-Forwarded-For does not reset a spent keyless quota', async () => {
    m = await startMetered(demoSnapshotsDir);
    expect(count(await statuses(5, () => m!.call(RANKING)), 200)).toBe(5);
    for (const xff of ['203.0.113.7', '198.51.100.1, 203.0.113.8', '2001:db8::1']) {
      expect((await from(xff)).status, xff).toBe(429);
    }
    expect((await m.call('/usage', { headers: { 'X-Forwarded-For': '203.0.113.9' } })).body.buckets[1]).toMatchObject({
      bucket: 'calls/min',
      used: 5,
    });
  });

  it.each([['loopback'], ['127.0.0.1'], [1]])('with TRUST_PROXY=%s the forwarded address is the client', async (trust) => {
    m = await startMetered(demoSnapshotsDir, { trustProxy: trust });
    expect(count(await statuses(6, () => from('203.0.113.7')), 200)).toBe(5);
    expect((await from('203.0.113.7')).status).toBe(429);
    expect((await from('203.0.113.8')).status).toBe(200);
    expect((await m.call(RANKING)).status).toBe(200); // the proxy's own address is another client
  });

  it('IPv6 clients are counted by /56', async () => {
    m = await startMetered(demoSnapshotsDir, { trustProxy: 'loopback' });
    // 2001:db8:0:1:… and 2001:db8:0:ff:… share their first 56 bits; 2001:db8:0:100:… does not.
    const same = ['2001:db8:0:1::1', '2001:db8:0:ff:1234::9', '2001:db8:0:12::7', '2001:db8:0:1::2', '2001:db8:0:80::1'];
    expect(count(await Promise.all(same.map(async (ip) => (await from(ip)).status)), 200)).toBe(5);
    expect((await from('2001:db8:0:2::1')).status).toBe(429);
    expect((await from('2001:db8:0:100::1')).status).toBe(200);
  });
});
