import type { SnapshotStore } from '../../src/snapshot/store.js';

/**
 * An industry's URL segment is its code (`/ranking/industry/01/`): ASCII, short, stable, while the
 * ranking API filters by the name. One name per code is what the adapters store; a snapshot where
 * two names share a code would make two filters collide, so it is refused here.
 */
export function industrySlugs(store: SnapshotStore): (name: string) => string {
  const byName = new Map<string, string>();
  const seen = new Set<string>();
  for (const i of store.industries()) {
    if (seen.has(i.code)) throw new Error(`industry code ${i.code} has more than one name`);
    seen.add(i.code);
    byName.set(i.name, i.code);
  }
  return (name) => {
    const slug = byName.get(name);
    if (slug === undefined) throw new Error(`industry ${name} is not in the snapshot`);
    return slug;
  };
}
