import { describe, expect, it } from 'vitest';
import { useDynamicServer, store, api, qs, staticText, expectBadParam, expectSuccessEnvelope } from './harness.js';

useDynamicServer();

describe('GET /sources/registry?…', () => {
  const sorted = (data: any[]) => data.map((s) => s.source_id);

  it('gov_only=false and no parameters equal the static file; gov_only=true keeps government sources only', async () => {
    const file = staticText('/sources/registry');
    expect((await api('/sources/registry?gov_only=false')).text).toBe(file);
    const gov = await api('/sources/registry?gov_only=true');
    expectSuccessEnvelope(gov);
    const want = store.sources().filter((s) => s.is_government);
    expect(want.length).toBeGreaterThan(0);
    expect(sorted(gov.body.data)).toEqual(want.map((s) => s.source_id));
    expect(gov.body.meta).toEqual({ total: want.length });
    for (const s of gov.body.data) {
      expect(s.is_government).toBe(true);
      expect(s.owner_org).toBe('MOENV');
    }
    // Each entry is the same as in the static file.
    const all = JSON.parse(file).data as any[];
    for (const s of gov.body.data) expect(s).toEqual(all.find((x) => x.source_id === s.source_id));
  });

  it('owner_org is a case-insensitive exact match; an unknown org is 200 empty', async () => {
    for (const org of ['moenv', 'MOENV', 'TWSE', 'twse', 'TpEx', ' mops ']) {
      const res = await api(`/sources/registry?${qs({ owner_org: org })}`);
      expectSuccessEnvelope(res);
      const want = store.sources().filter((s) => s.owner_org.toUpperCase() === org.trim().toUpperCase());
      expect(want.length, org).toBeGreaterThan(0);
      expect(sorted(res.body.data)).toEqual(want.map((s) => s.source_id));
      expect(res.body.meta).toEqual({ total: want.length });
    }
    for (const org of ['NOPE', 'MOE', 'TWSEX', 'FSC']) {
      const res = await api(`/sources/registry?${qs({ owner_org: org })}`);
      expectSuccessEnvelope(res);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta).toEqual({ total: 0 });
    }
    const both = await api('/sources/registry?gov_only=true&owner_org=twse');
    expect(both.body.data).toEqual([]);
    const bothMoenv = await api('/sources/registry?gov_only=true&owner_org=Moenv');
    expect(bothMoenv.body.meta.total).toBe(store.sources().filter((s) => s.is_government && s.owner_org === 'MOENV').length);
  });

  it('400 for a bad gov_only, an unknown or a repeated parameter', async () => {
    for (const v of ['yes', '1', 'TRUE', '']) expectBadParam(await api(`/sources/registry?${qs({ gov_only: v })}`), 'gov_only');
    expectBadParam(await api('/sources/registry?government=true'), 'government');
    expectBadParam(await api('/sources/registry?gov_only=true&gov_only=true'), 'gov_only');
    expectBadParam(await api('/sources/registry?owner_org=TWSE&owner_org=TPEX'), 'owner_org');
  });
});
