/**
 * Columns whose SQLite storage hides their real type. Kept equal to BOOLEAN_COLUMNS and JSON_COLUMNS
 * of src/snapshot/store.ts (which decodes them for the API); they are repeated here rather than
 * imported because store.ts does not export them. A column added there must be added here too, or its
 * download schema says "integer"/"string" where the API says boolean/array.
 */

/** INTEGER columns holding 0/1: Table Schema `boolean` with trueValues ["1"], falseValues ["0"]. */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set([
  'cbam_exposed', 'carbon_fee_liable', 'serious', 'scope1_verified', 'scope2_verified', 'obligated', 'is_government',
]);

/** TEXT columns holding a JSON array; the CSV carries the JSON text, which is Table Schema `array`'s lexical form. */
export const JSON_ARRAY_COLUMNS: ReadonlySet<string> = new Set(['top_flags', 'top_signal_labels', 'score_breakdown', 'cbam_sectors']);
