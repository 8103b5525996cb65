import { describe, expect, it } from 'vitest';
import { carbonFeeLiability, type RegistrySite } from '../../../src/methodology/carbon-fee.js';
import { CARBON_FEE_THRESHOLD_TCO2E } from '../../../src/methodology/rules.js';

/** A site as the registry serves it: its total is the direct plus the energy-indirect part. */
const site = (industryCode: string, direct: number, indirect: number, year = 2025): RegistrySite => ({
  year,
  industryCode,
  total: direct + indirect,
});

describe('carbonFeeLiability', () => {
  it('the threshold is 25,000 t CO2e', () => {
    expect(CARBON_FEE_THRESHOLD_TCO2E).toBe(25_000);
  });

  it('a manufacturing site with direct + indirect exactly 25,000 is obligated', () => {
    const r = carbonFeeLiability([site('2411', 20_000, 5_000)], 2025);
    expect(r.obligated).toBe(true);
    expect(r.year).toBe(2025);
    expect(r.basis).toBe('a manufacturing site emitted 25,000 t CO2e (direct and energy-indirect) in 2025, at or above 25,000');
  });

  it('prints the site total with thousands separators, rounded to whole tonnes', () => {
    expect(carbonFeeLiability([site('2611', 1_837_000.5, 66_578.9, 2022)], 2022).basis).toBe(
      'a manufacturing site emitted 1,903,579 t CO2e (direct and energy-indirect) in 2022, at or above 25,000',
    );
  });

  it('gives the figure the basis states as a number (tco2e), and none where the basis states none', () => {
    // The largest manufacturing site decides, and its figure is the sentence's, in whole tonnes.
    expect(carbonFeeLiability([site('2411', 30_000, 0), site('2611', 1_837_000.5, 66_578.9)], 2025).tco2e).toBe(1_903_579);
    expect(carbonFeeLiability([site('3510', 900_000, 0)], 2025)).toMatchObject({ obligated: true, tco2e: null });
    expect(carbonFeeLiability([site('2411', 20_000, 4_999.99)], 2025)).toMatchObject({ obligated: false, tco2e: null });
    expect(carbonFeeLiability([], 2025).tco2e).toBeNull();
    expect(carbonFeeLiability([site('2411', 500_000, 0)], null).tco2e).toBeNull();
  });

  it('counts indirect emissions too (direct alone below the threshold)', () => {
    expect(carbonFeeLiability([site('1700', 1_000, 24_000)], 2025).obligated).toBe(true);
  });

  it('a manufacturing site at 24,999.99 is not obligated', () => {
    const r = carbonFeeLiability([site('2411', 20_000, 4_999.99)], 2025);
    expect(r.obligated).toBe(false);
    expect(r.year).toBe(2025);
  });

  it('applies the rule per site: two sites of 20,000 each are not obligated', () => {
    const r = carbonFeeLiability([site('2411', 15_000, 5_000), site('2411', 15_000, 5_000)], 2025);
    expect(r.obligated).toBe(false);
  });

  it('one big site among small ones is enough', () => {
    expect(carbonFeeLiability([site('2411', 100, 100), site('2620', 30_000, 0), site('2411', 10, 10)], 2025).obligated).toBe(true);
  });

  it('an electricity or gas supplier (35xx) is obligated whatever its emissions', () => {
    const r = carbonFeeLiability([site('3510', 10, 0)], 2025);
    expect(r.obligated).toBe(true);
    expect(r.year).toBe(2025);
    expect(carbonFeeLiability([site('3520', 0, 0)], 2025).obligated).toBe(true);
  });

  it('only sites in an older registry year: not obligated', () => {
    const r = carbonFeeLiability([site('2411', 500_000, 0, 2024), site('3510', 1, 1, 2023)], 2025);
    expect(r.obligated).toBe(false);
    expect(r.year).toBeNull();
  });

  it('only the latest registry year counts', () => {
    expect(carbonFeeLiability([site('2411', 500_000, 0, 2024), site('2411', 100, 0, 2025)], 2025).obligated).toBe(false);
    expect(carbonFeeLiability([site('2411', 100, 0, 2024), site('2411', 30_000, 0, 2025)], 2025).obligated).toBe(true);
  });

  it('no registry at all: not obligated', () => {
    const r = carbonFeeLiability([site('2411', 500_000, 0)], null);
    expect(r).toMatchObject({ obligated: false, year: null });
    expect(carbonFeeLiability([], null).obligated).toBe(false);
  });

  it('no site of the company: not obligated', () => {
    expect(carbonFeeLiability([], 2025)).toMatchObject({ obligated: false, year: null });
  });

  it('a non-manufacturing, non-35 site above 25,000 is not obligated', () => {
    expect(carbonFeeLiability([site('4700', 100_000, 50_000)], 2025).obligated).toBe(false);
    expect(carbonFeeLiability([site('3600', 100_000, 50_000)], 2025).obligated).toBe(false); // water supply
    expect(carbonFeeLiability([site('0600', 100_000, 50_000)], 2025).obligated).toBe(false); // mining
  });

  it('manufacturing is divisions 08–34', () => {
    expect(carbonFeeLiability([site('0810', 30_000, 0)], 2025).obligated).toBe(true);
    expect(carbonFeeLiability([site('3400', 30_000, 0)], 2025).obligated).toBe(true);
  });
});
