import { describe, expect, it } from 'vitest';
import { TABLE_FILLS } from '../../../build-scripts/snapshot/table-facts.js';
import { SNAPSHOT_TABLES, SOURCES } from '../../../src/snapshot/schema.js';

describe('the tables’ fills (each table’s fromFacts)', () => {
  it('fill every table of the schema exactly once', () => {
    expect(TABLE_FILLS.map((f) => f.table.name).sort()).toEqual(SNAPSHOT_TABLES.map((t) => t.name).sort());
  });

  it('fill sources after every table whose rows it counts (its record_count)', () => {
    const at = TABLE_FILLS.findIndex((f) => f.table === SOURCES);
    const counted = TABLE_FILLS.flatMap((f, i) => (f.countsFor ? [i] : []));
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.every((i) => i < at)).toBe(true);
  });
});
