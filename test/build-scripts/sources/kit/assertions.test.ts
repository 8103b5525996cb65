import { describe, expect, it } from 'vitest';
import { checkFetched, checkRead, minScale } from '../../../../build-scripts/sources/kit/assertions.js';
import { moenvPenaltiesModule } from '../../../../build-scripts/sources/moenv/moenv-penalties.js';
import { SourceTally } from '../../../../build-scripts/sources/kit/tally.js';
import { twseGhgModule } from '../../../../build-scripts/sources/ghg-disclosures/twse-esg-ghg.js';

describe('data assertions (minima fatal, maxima a warning)', () => {
  it('a fetch below the absolute minimum, or below its share of the previous fetch, fails naming the assertion', () => {
    expect(checkFetched(moenvPenaltiesModule, 400_000, 410_000, 1)).toEqual({ failures: [], warnings: [] });
    expect(checkFetched(moenvPenaltiesModule, 40_000, null, 1).failures).toEqual([
      expect.stringMatching(/^SRC-MOENV-EMS_P_46: assertion minRecords failed: 40000 records, at least 100000 expected$/),
    ]);
    // A tenth of last month: above the scaled absolute minimum, but far below the previous fetch.
    expect(checkFetched(moenvPenaltiesModule, 41_000, 410_000, 0.1).failures).toEqual([
      expect.stringMatching(/assertion minOfPrevious failed: 41000 records, under 90 % of the previous fetch's 410000/),
    ]);
    expect(checkFetched(moenvPenaltiesModule, 3_000_000, null, 1).warnings).toEqual([
      expect.stringMatching(/above the 2000000 expected \(assertion maxRecords\)/),
    ]);
  });

  it('an empty answer fails at any scale', () => {
    expect(checkFetched(moenvPenaltiesModule, 0, null, 0.000001).failures).toEqual([expect.stringMatching(/0 records, at least 1 expected/)]);
    const tally = new SourceTally();
    expect(checkRead(twseGhgModule, tally.of('SRC-TWSE-ESG-GHG'), { scale: 1, absolute: false }).failures).toEqual([
      expect.stringMatching(/0 records read, at least 1 expected/),
    ]);
  });

  it('a join that matches almost nothing, or records without their key figure, fail the build', () => {
    const tally = new SourceTally();
    for (let i = 0; i < 100; i++) tally.record('SRC-TWSE-ESG-GHG', i < 5 ? `T${i}` : null, i < 30);
    const r = checkRead(twseGhgModule, tally.of('SRC-TWSE-ESG-GHG'), { scale: 1, absolute: false });
    expect(r.failures).toEqual([
      expect.stringMatching(/assertion minLinkedShare failed: 5\.0 % of 100 records link to a company/),
      expect.stringMatching(/assertion minFilled failed: 30\.0 % of records carry a scope 1 figure/),
    ]);
  });

  it('ASSERT_MIN_SCALE is a number in (0, 1]', () => {
    expect(minScale({})).toBe(1);
    expect(minScale({ ASSERT_MIN_SCALE: '0.001' })).toBe(0.001);
    for (const bad of ['0', '2', 'x', '-1'])
      expect(() => minScale({ ASSERT_MIN_SCALE: bad })).toThrow(/ASSERT_MIN_SCALE must be a number in \(0, 1\]/);
  });
});
