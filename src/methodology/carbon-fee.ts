import { CARBON_FEE_THRESHOLD_TCO2E } from './rules.js';

export interface RegistrySite {
  year: number;
  industryCode: string;
  /** The site's registered total (GHG_P_01 `tot`): direct + energy-indirect, t CO2e. */
  total: number;
}

/** t CO2e as the basis prints them: whole tonnes with thousands separators (`1,903,579`), the same on every machine. */
const tonnes = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export interface CarbonFeeLiability {
  obligated: boolean;
  basis: string;
  /** The registry year that decided it (null when the company has no registered site). */
  year: number | null;
  /**
   * The figure `basis` states: the registered total of the manufacturing site that made the company
   * liable, in whole tonnes as the sentence prints it; null when the basis states none (a power or gas
   * supplier, no liability, no registry data). The pages write the figure from this number.
   */
  tco2e: number | null;
}

/** Electricity and gas supply (Taiwan standard industrial classification division 35). */
const isPowerOrGasSupplier = (code: string) => code.startsWith('35');
/** Manufacturing: divisions 08–34. */
const isManufacturer = (code: string) => {
  const division = Number(code.slice(0, 2));
  return division >= 8 && division <= 34;
};

/**
 * Carbon-fee liability (Climate Change Response Act; fee rules effective 2025-01-01): a site of the
 * company, in the latest registry year, that supplies electricity or gas, or that manufactures and
 * emits (direct + electricity-indirect: the registry's site total) ≥ 25,000 t CO2e in that year.
 */
export function carbonFeeLiability(sites: readonly RegistrySite[], latestRegistryYear: number | null): CarbonFeeLiability {
  if (latestRegistryYear === null) return { obligated: false, basis: 'no registry data in this snapshot', year: null, tco2e: null };
  const current = sites.filter((s) => s.year === latestRegistryYear);
  if (current.length === 0) {
    return { obligated: false, basis: `no site of this company in the ${latestRegistryYear} GHG registry`, year: null, tco2e: null };
  }
  const supplier = current.find((s) => isPowerOrGasSupplier(s.industryCode));
  if (supplier) {
    return {
      obligated: true,
      basis: `electricity or gas supplier (industry ${supplier.industryCode}) in the ${latestRegistryYear} GHG registry`,
      year: latestRegistryYear,
      tco2e: null,
    };
  }
  const big = current.filter((s) => isManufacturer(s.industryCode)).reduce<RegistrySite | null>((a, s) => (!a || s.total > a.total ? s : a), null);
  if (big && big.total >= CARBON_FEE_THRESHOLD_TCO2E) {
    const tco2e = Math.round(big.total);
    return {
      obligated: true,
      basis: `a manufacturing site emitted ${tonnes.format(tco2e)} t CO2e (direct and energy-indirect) in ${latestRegistryYear}, at or above ${tonnes.format(CARBON_FEE_THRESHOLD_TCO2E)}`,
      year: latestRegistryYear,
      tco2e,
    };
  }
  return {
    obligated: false,
    basis: `no site of this company reached ${tonnes.format(CARBON_FEE_THRESHOLD_TCO2E)} t CO2e in the ${latestRegistryYear} GHG registry`,
    year: latestRegistryYear,
    tco2e: null,
  };
}
