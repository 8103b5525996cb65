import { describe, expect, it } from 'vitest';
import {
  useDynamicServer,
  SECTIONS,
  ALWAYS,
  store,
  companies,
  api,
  qs,
  staticText,
  expectError,
  expectBadParam,
  expectSuccessEnvelope,
} from './harness.js';

useDynamicServer();

describe('GET /company/{ticker}/canonical?fields=', () => {
  const sample = () => {
    const withPenalties = store.db.prepare('SELECT ticker FROM penalties GROUP BY ticker ORDER BY COUNT(*) DESC LIMIT 1').pluck().get() as string;
    const bare = store.db
      .prepare(
        'SELECT ticker FROM companies WHERE ticker NOT IN (SELECT ticker FROM carbon_disclosures) AND ticker NOT IN (SELECT ticker FROM assurances) ORDER BY ticker LIMIT 1',
      )
      .pluck()
      .get() as string;
    return [companies[0]!.ticker, withPenalties, bare];
  };

  it('returns only the named section, plus the fields that are always there', async () => {
    for (const t of sample()) {
      const full = JSON.parse(staticText(`/company/${t}/canonical`));
      for (const section of SECTIONS) {
        const res = await api(`/company/${t}/canonical?fields=${section}`);
        expectSuccessEnvelope(res);
        expect(res.headers.get('cache-control')).toBe('private, max-age=3600'); // metered: never from a shared cache
        expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
        expect(Object.keys(res.body).sort(), `${t} ${section}`).toEqual([...ALWAYS, section].sort());
        const want = Object.fromEntries([...ALWAYS, section].map((k) => [k, full[k]]));
        expect(res.body).toEqual(want);
      }
    }
  });

  it('takes carbon as an alias of carbon_disclosure', async () => {
    const t = sample()[1]!;
    const alias = await api(`/company/${t}/canonical?fields=carbon`);
    const name = await api(`/company/${t}/canonical?fields=carbon_disclosure`);
    expectSuccessEnvelope(alias);
    expect(alias.text).toBe(name.text);
    expect(Object.keys(alias.body)).toContain('carbon_disclosure');
    expect(Object.keys(alias.body)).not.toContain('carbon');
  });

  it('is case-insensitive, ignores whitespace and duplicates', async () => {
    const t = 'D1101';
    const want = (await api(`/company/${t}/canonical?fields=flags,carbon_disclosure`)).text;
    for (const fields of [
      ' Flags , CARBON ',
      'FLAGS,carbon',
      'flags,flags,carbon,carbon_disclosure,Carbon',
      ' carbon_DISCLOSURE,\tflags ',
      'flags,,carbon',
    ]) {
      const res = await api(`/company/${t}/canonical?${qs({ fields })}`);
      expectSuccessEnvelope(res);
      expect(res.text, JSON.stringify(fields)).toBe(want);
    }
    // Lower-case ticker in the path is the same resource.
    expect((await api(`/company/d1101/canonical?fields=${encodeURIComponent(' Flags , CARBON ')}`)).text).toBe(want);
  });

  it('naming all six sections gives the static canonical file, byte for byte', async () => {
    for (const t of sample()) {
      const file = staticText(`/company/${t}/canonical`);
      for (const fields of [
        'penalties,carbon,carbon_fee,assurance,flags,conduct',
        'disclosure_conduct,flags,assurance,carbon_fee,carbon_disclosure,penalties',
        'PENALTIES, Carbon ,carbon_fee,assurance,flags,flags, Conduct',
      ]) {
        const res = await api(`/company/${t}/canonical?${qs({ fields })}`);
        expect(res.status).toBe(200);
        expect(res.text, `${t} ${fields}`).toBe(file);
      }
    }
  });

  it('400 for an unknown section name, listing the accepted names', async () => {
    for (const fields of ['scores', 'flags,nope', 'carbon-disclosure', 'penalty']) {
      const res = await api(`/company/D1101/canonical?${qs({ fields })}`);
      expectBadParam(res, 'fields');
      for (const name of ['penalties', 'carbon', 'carbon_disclosure', 'carbon_fee', 'assurance', 'flags'])
        expect(res.body.error.message).toContain(name);
    }
  });

  it('400 for an empty list', async () => {
    for (const q of ['fields=', 'fields=,,', 'fields=%20', 'fields=%20,%20,']) {
      const res = await api(`/company/D1101/canonical?${q}`);
      expectBadParam(res, 'fields');
      expect(res.body.error.message).toContain('carbon_fee');
    }
  });

  it('400 for an unknown or repeated parameter, naming it', async () => {
    expectBadParam(await api('/company/D1101/canonical?fields=flags&section=penalties'), 'section');
    expectBadParam(await api('/company/D1101/canonical?include=flags'), 'include');
    expectBadParam(await api('/company/D1101/canonical?fields=flags&fields=penalties'), 'fields');
    expectBadParam(await api('/company/D1101/canonical?fields=flags&fields=flags'), 'fields');
  });

  it('404 naming an unknown ticker upper-cased; 400 for a malformed one', async () => {
    expectError(await api('/company/d9999/canonical?fields=flags'), 404, 'NOT_FOUND', 'D9999');
    expectError(await api('/company/zz12/canonical.json?fields=penalties'), 404, 'NOT_FOUND', 'ZZ12');
    for (const bad of ['D-1101', 'D1101D1101D11', '%E7%A4%BA']) {
      const res = await api(`/company/${bad}/canonical?fields=flags`);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.message).toMatch(/1 to 12 letters or digits/);
    }
  });
});
