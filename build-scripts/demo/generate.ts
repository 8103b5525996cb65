/**
 * Entry point of the demo universe generator: decides a fictional universe from (seed, companies,
 * asof) and writes it in the publishers' layouts plus `manifest.json`. Same options, same bytes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatIsoDay, parseIsoDay } from '../demo-model/dates.js';
import type { Universe } from '../demo-model/model.js';
import { buildUniverse } from './universe.js';
import { SOURCE_MODULES } from '../sources/index.js';
import { writeLayoutFiles } from './write-files.js';

export interface GenerateDemoOptions {
  /** Folder to write into (created if missing). */
  outDir: string;
  /** Number of companies; default 1,800. All archetypes are present from 50 on. */
  companies?: number;
  /** PRNG seed (an integer); default 20261101. */
  seed?: number;
  /** D, `YYYY-MM-DD`; default 2026-10-31. */
  asof?: string;
}

export interface GenerateDemoResult {
  asof: string;
  /** File names written inside outDir, manifest.json last. */
  files: string[];
  /** Data rows (header excluded) per file name. */
  counts: Record<string, number>;
}

const DEMO_DEFAULTS = { companies: 1800, seed: 20261101, asof: '2026-10-31' } as const;

export interface DemoManifest {
  kind: 'demo';
  seed: number;
  companies: number;
  asof: string;
  retrieved_at: Record<string, string>;
}

/** One retrieval time per source id: asof at 06:00Z, a minute apart in the sources' order. */
export function retrievedAt(asof: string): Record<string, string> {
  return Object.fromEntries(SOURCE_MODULES.map((m, minute) => [m.info.source_id, `${asof}T06:${String(minute).padStart(2, '0')}:00Z`]));
}

export async function generateDemo(opts: GenerateDemoOptions): Promise<GenerateDemoResult> {
  const companies = opts.companies ?? DEMO_DEFAULTS.companies;
  const seed = opts.seed ?? DEMO_DEFAULTS.seed;
  const asof = opts.asof ?? DEMO_DEFAULTS.asof;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const D = parseIsoDay(asof);
  const universe = buildUniverse({ seed, companies, asof: D });
  return writeUniverse(opts.outDir, universe);
}

/** Writes a universe (generated, or evolved from one: evolve.ts) in the publishers' layouts plus its manifest. */
export async function writeUniverse(outDir: string, universe: Universe): Promise<GenerateDemoResult> {
  const asof = formatIsoDay(universe.asof);
  await mkdir(outDir, { recursive: true });
  const counts = await writeLayoutFiles(outDir, universe);
  const manifest: DemoManifest = { kind: 'demo', seed: universe.seed, companies: universe.companies.length, asof, retrieved_at: retrievedAt(asof) };
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
  return { asof, files: [...Object.keys(counts), 'manifest.json'], counts };
}
