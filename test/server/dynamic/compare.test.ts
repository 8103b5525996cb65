import { describe, expect, it } from 'vitest';
import { useDynamicServer, SECTIONS, ENVELOPE, api, qs, staticText, expectError, expectBadParam, expectSuccessEnvelope } from './harness.js';

useDynamicServer();

describe('GET /compare', () => {
  async function companyOf(t: string) {
    return (await api(`/company/${t}`)).body.company;
  }
  function canonicalElement(t: string, sections?: readonly string[]) {
    const view = JSON.parse(staticText(`/company/${t}/canonical`));
    for (const k of ENVELOPE) delete view[k];
    if (sections) for (const s of SECTIONS) if (!sections.includes(s)) delete view[s];
    return view;
  }

  it('2 and 5 tickers: one element per ticker in request order, canonical view plus company', async () => {
    for (const tickers of [
      ['D1102', 'D1101'],
      ['D2900', 'd1595', 'D1143', 'D1101', 'D2150'],
    ]) {
      const res = await api(`/compare?tickers=${tickers.join(',')}`);
      expectSuccessEnvelope(res);
      expect(res.headers.get('cache-control')).toBe('private, max-age=3600'); // metered: never from a shared cache
      expect(Object.keys(res.body).sort()).toEqual([...ENVELOPE, 'data'].sort());
      expect(res.body.data.map((e: any) => e.ticker)).toEqual(tickers.map((t) => t.toUpperCase()));
      for (const [i, t] of tickers.entries()) {
        const up = t.toUpperCase();
        expect(res.body.data[i]).toEqual({ ...canonicalElement(up), company: await companyOf(up) });
      }
    }
  });

  it('removes duplicates (case-insensitive), keeping first-occurrence order; whitespace around codes is ignored', async () => {
    const res = await api('/compare?tickers=D1102,d1101,D1101,d1102');
    expectSuccessEnvelope(res);
    expect(res.body.data.map((e: any) => e.ticker)).toEqual(['D1102', 'D1101']);
    const res2 = await api('/compare?tickers=D1101,d1101,D1102');
    expect(res2.body.data).toHaveLength(2);
    // Six codes that are five distinct: fine.
    const res3 = await api('/compare?tickers=D1101,D1102,D1103,D1104,D1105,d1103');
    expectSuccessEnvelope(res3);
    expect(res3.body.data).toHaveLength(5);
    const spaced = await api(`/compare?${qs({ tickers: ' D1101 , D1102 ' })}`);
    expectSuccessEnvelope(spaced);
    expect(spaced.body.data.map((e: any) => e.ticker)).toEqual(['D1101', 'D1102']);
  });

  it('400 for 1 or 6 distinct tickers, or none', async () => {
    expectBadParam(await api('/compare?tickers=D1101'), 'tickers');
    expectBadParam(await api('/compare?tickers=D1101,d1101'), 'tickers');
    expectBadParam(await api('/compare?tickers=D1101,D1102,D1103,D1104,D1105,D1106'), 'tickers');
    expectBadParam(await api('/compare'), 'tickers');
    expectBadParam(await api('/compare?fields=flags'), 'tickers');
  });

  it('400 for a malformed code inside tickers, saying what a code looks like', async () => {
    for (const tickers of ['D1101,D-1102', 'D1101,', 'D1101,,D1102', 'D1101;D1102', 'D1101,ABCDEFGHIJKLM', 'D1101,示範']) {
      const res = await api(`/compare?${qs({ tickers })}`);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.message, tickers).toMatch(/1 to 12 letters or digits/);
    }
  });

  it('404 naming every unknown code, upper-cased', async () => {
    const one = await api('/compare?tickers=D1101,d9999');
    expectError(one, 404, 'NOT_FOUND', 'D9999');
    const many = await api('/compare?tickers=zz1,D1101,d9998,X9');
    const message = expectError(many, 404, 'NOT_FOUND', 'ZZ1', 'D9998', 'X9');
    expect(message).not.toContain('D1101');
    const all = await api('/compare?tickers=q1,q2,q3,q4,q5');
    expectError(all, 404, 'NOT_FOUND', 'Q1', 'Q2', 'Q3', 'Q4', 'Q5');
  });

  it('fields filters each element as in canonical', async () => {
    const res = await api(`/compare?${qs({ tickers: 'D1595,D1143,D1101', fields: ' Flags , CARBON ' })}`);
    expectSuccessEnvelope(res);
    for (const [i, t] of ['D1595', 'D1143', 'D1101'].entries()) {
      const el = res.body.data[i];
      expect(Object.keys(el).sort()).toEqual(['as_of', 'carbon_disclosure', 'company', 'company_name_norm', 'disclaimer', 'flags', 'ticker']);
      expect(el).toEqual({ ...canonicalElement(t, ['flags', 'carbon_disclosure']), company: await companyOf(t) });
    }
    const six = await api(`/compare?${qs({ tickers: 'D1101,D1102', fields: 'penalties,carbon,carbon_fee,assurance,flags,conduct' })}`);
    expect(six.text).toBe((await api('/compare?tickers=D1101,D1102')).text);
    // The conduct section alone, by its alias, as canonical gives it.
    const conduct = await api(`/compare?${qs({ tickers: 'D1595,D1101', fields: 'conduct' })}`);
    expectSuccessEnvelope(conduct);
    for (const [i, t] of ['D1595', 'D1101'].entries()) {
      const el = conduct.body.data[i];
      expect(Object.keys(el).sort()).toEqual(['as_of', 'company', 'company_name_norm', 'disclaimer', 'disclosure_conduct', 'ticker']);
      expect(el).toEqual({ ...canonicalElement(t, ['disclosure_conduct']), company: await companyOf(t) });
    }
    const all = await api('/compare?tickers=D1101,D1102');
    for (const el of all.body.data) expect(Array.isArray(el.disclosure_conduct)).toBe(true);
    expectBadParam(await api('/compare?tickers=D1101,D1102&fields=nope'), 'fields');
    expectBadParam(await api('/compare?tickers=D1101,D1102&fields='), 'fields');
    expectBadParam(await api('/compare?tickers=D1101,D1102&fields=,'), 'fields');
  });

  it('400 for unknown or repeated parameters, naming them', async () => {
    expectBadParam(await api('/compare?tickers=D1101,D1102&ticker=D1103'), 'ticker');
    expectBadParam(await api('/compare?tickers=D1101,D1102&mode=full'), 'mode');
    expectBadParam(await api('/compare?tickers=D1101&tickers=D1102'), 'tickers');
    expectBadParam(await api('/compare?tickers=D1101,D1102&fields=flags&fields=flags'), 'fields');
  });
});
