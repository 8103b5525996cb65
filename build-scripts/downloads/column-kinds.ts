/**
 * Columns whose SQLite storage hides their real type: 0/1 booleans (Table Schema `boolean` with
 * trueValues ["1"], falseValues ["0"]) and JSON-array text (`array`, whose lexical form is that JSON).
 * The snapshot schema is the one list; the store decodes the same columns for the API.
 */
export { BOOLEAN_COLUMNS, JSON_ARRAY_COLUMNS } from '../../src/snapshot/schema.js';
