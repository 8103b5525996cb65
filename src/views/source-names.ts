import type { SourceRecord } from '../snapshot/store.js';
import type { SourceNames } from './canonical.js';

/** Source id → registry name, for the `source_name` beside every `source_id`. */
export function sourceNamesOf(sources: SourceRecord[]): SourceNames {
  const names = new Map(sources.map((s) => [s.source_id, s.name]));
  return (id) => {
    const name = names.get(id);
    if (name === undefined) throw new Error(`source ${id} is not in the registry`);
    return name;
  };
}
