/**
 * EU CBAM (Regulation (EU) 2023/956) sectors and how a Taiwan company maps onto them: by TWSE
 * industry where the whole industry is covered, otherwise by product (curated per company in the
 * snapshot's `cbam_products.csv`). Published in /methodology.
 */
export const CBAM_SECTORS = ['iron_and_steel', 'aluminium', 'cement', 'fertilisers', 'electricity', 'hydrogen'] as const;
export type CbamSector = (typeof CBAM_SECTORS)[number];

export const CBAM_BY_INDUSTRY: Readonly<Record<string, readonly CbamSector[]>> = {
  '01': ['cement'],
  '10': ['iron_and_steel'],
  '23': ['electricity', 'hydrogen'],
};

/** Sectors that are mapped by product because their TWSE industry is wider than the sector. */
export const CBAM_BY_PRODUCT: readonly CbamSector[] = ['aluminium', 'fertilisers'];
