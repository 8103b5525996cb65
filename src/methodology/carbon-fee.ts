import { CARBON_FEE_THRESHOLD_TCO2E } from './rules.js';

export interface RegistrySite {
  year: number;
  industryCode: string;
  direct: number;
  indirect: number;
}

export interface CarbonFeeLiability {
  obligated: boolean;
  basis: string;
  /** The registry year that decided it (null when the company has no registered site). */
  year: number | null;
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
 * emits (direct + electricity-indirect) ≥ 25,000 t CO2e in that year.
 */
export function carbonFeeLiability(sites: readonly RegistrySite[], latestRegistryYear: number | null): CarbonFeeLiability {
  if (latestRegistryYear === null) return { obligated: false, basis: 'no registry data in this snapshot', year: null };
  const current = sites.filter((s) => s.year === latestRegistryYear);
  if (current.length === 0) {
    return { obligated: false, basis: `no site of this company in the ${latestRegistryYear} GHG registry`, year: null };
  }
  const supplier = current.find((s) => isPowerOrGasSupplier(s.industryCode));
  if (supplier) {
    return { obligated: true, basis: `electricity or gas supplier (industry ${supplier.industryCode}) in the ${latestRegistryYear} GHG registry`, year: latestRegistryYear };
  }
  const big = current
    .filter((s) => isManufacturer(s.industryCode))
    .reduce<RegistrySite | null>((a, s) => (!a || s.direct + s.indirect > a.direct + a.indirect ? s : a), null);
  if (big && big.direct + big.indirect >= CARBON_FEE_THRESHOLD_TCO2E) {
    return {
      obligated: true,
      basis: `a manufacturing site emitted ${Math.round(big.direct + big.indirect)} t CO2e (direct + electricity indirect) in ${latestRegistryYear}, at or above ${CARBON_FEE_THRESHOLD_TCO2E}`,
      year: latestRegistryYear,
    };
  }
  return {
    obligated: false,
    basis: `no site of this company reached ${CARBON_FEE_THRESHOLD_TCO2E} t CO2e in the ${latestRegistryYear} GHG registry`,
    year: latestRegistryYear,
  };
}
