import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readManifest, type FetchedFile, type SourcesManifest } from '../snapshot/sources-manifest.js';
import { resolveEndpoints, urlVariable, type Endpoint } from './endpoints.js';
import { DEFAULT_HTTP, FetchFailure, redact, type HttpOptions } from './http.js';
import { fetchPaged, fetchWhole } from './fetch-one.js';

/**
 * `npm run fetch`: downloads every source (or those named with --only) into a private folder next
 * to `outDir`, checks each body, writes `manifest.json`, and only then puts the folder in place of
 * `outDir`. Any failure removes the private folder and leaves the previous `outDir` as it was.
 * Sources not fetched this time (not in --only, or without a known endpoint) keep their file and
 * manifest entry from the previous folder.
 */

export interface FetchOptions {
  outDir: string;
  only?: readonly string[];
  /** The data's as-of date for the manifest; default: today (UTC). */
  asof?: string;
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
  http?: Partial<Omit<HttpOptions, 'secrets' | 'log'>>;
  now?: () => Date;
}

export interface FetchResult {
  outDir: string;
  fetched: FetchedFile[];
  carried: string[];
  /** Sources with neither an endpoint nor a file from before: the build will name their files. */
  missing: { sourceId: string; file: string; note: string }[];
}

/** A source could not be fetched: its id first, so the operator knows which. */
export class SourceFetchError extends Error {
  override name = 'SourceFetchError';
  constructor(
    readonly sourceId: string,
    message: string,
  ) {
    super(`${sourceId}: ${message}`);
  }
}

const isoSecond = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Renames `next` into `outDir`'s place; the previous folder is removed only after the swap. */
function publish(next: string, outDir: string): void {
  if (!existsSync(outDir)) {
    renameSync(next, outDir);
    return;
  }
  const old = `${outDir}.old-${process.pid}-${randomBytes(4).toString('hex')}`;
  renameSync(outDir, old);
  try {
    renameSync(next, outDir);
  } catch (e) {
    renameSync(old, outDir);
    throw e;
  }
  rmSync(old, { recursive: true, force: true });
}

export async function fetchSources(o: FetchOptions): Promise<FetchResult> {
  const outDir = resolve(o.outDir);
  const endpoints = resolveEndpoints(o.env);
  const known = new Set(endpoints.map((e) => e.sourceId));
  for (const id of o.only ?? []) if (!known.has(id)) throw new Error(`--only ${id}: unknown source id (known: ${[...known].join(', ')})`);
  const selected = (e: Endpoint) => (o.only && o.only.length > 0 ? o.only.includes(e.sourceId) : true);
  const key = o.env.MOENV_API_KEY ?? '';
  const http: HttpOptions = { ...DEFAULT_HTTP, ...o.http, secrets: [key], log: (m) => o.log(redact(m, [key])) };
  const now = o.now ?? (() => new Date());

  mkdirSync(dirname(outDir), { recursive: true });
  const work = `${outDir}.fetch-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(work);
  try {
    const previous: SourcesManifest = existsSync(join(outDir, 'manifest.json')) ? readManifest(outDir) : {};
    const fetched: FetchedFile[] = [];
    const carried: string[] = [];
    const missing: FetchResult['missing'] = [];
    for (const e of endpoints) {
      if (selected(e) && e.url !== null) {
        if (e.paged && !key) throw new SourceFetchError(e.sourceId, 'MOENV_API_KEY is not set (MOENV open data v2 requires a key)');
        o.log(`${e.sourceId}: fetching ${redact(e.url, [key])}`);
        try {
          const entry = e.paged ? await fetchPaged(e, work, key, http, now) : await fetchWhole(e, work, http, now);
          o.log(`${e.sourceId}: ${entry.records} records, ${entry.bytes} bytes → ${e.file}`);
          fetched.push(entry);
        } catch (err) {
          // Whatever went wrong (the network, the body, the disk), the operator learns which source.
          throw new SourceFetchError(e.sourceId, redact(err instanceof FetchFailure ? err.message : String((err as Error).message ?? err), [key]));
        }
        continue;
      }
      // Not fetched now: keep what the previous folder had for this source.
      const before = (previous.files ?? []).filter((f) => f.source_id === e.sourceId && existsSync(join(outDir, f.file)));
      const file = before[0]?.file ?? [e.file, e.file.replace(/\.(json|csv)$/, (x) => (x === '.json' ? '.csv' : '.json'))].find((f) => existsSync(join(outDir, f)));
      if (file !== undefined) {
        cpSync(join(outDir, file), join(work, file));
        carried.push(e.sourceId);
        fetched.push(...before);
      } else if (selected(e)) {
        missing.push({ sourceId: e.sourceId, file: e.file, note: `${e.note ?? 'no endpoint'}; set ${urlVariable(e.sourceId)}` });
      }
    }
    if (o.only && o.only.length > 0 && missing.some((m) => o.only!.includes(m.sourceId))) {
      const m = missing.find((x) => o.only!.includes(x.sourceId))!;
      throw new SourceFetchError(m.sourceId, `no endpoint to fetch from: ${m.note}`);
    }
    const retrieved: Record<string, string> = {};
    for (const f of fetched) if (!retrieved[f.source_id] || retrieved[f.source_id]! < f.retrieved_at) retrieved[f.source_id] = f.retrieved_at;
    const manifest: SourcesManifest = {
      kind: 'production',
      asof: o.asof ?? isoSecond(now()).slice(0, 10),
      retrieved_at: Object.fromEntries(Object.entries(retrieved).sort()),
      files: fetched,
    };
    writeFileSync(join(work, 'manifest.json.part'), `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(join(work, 'manifest.json.part'), join(work, 'manifest.json'));
    publish(work, outDir);
    return { outDir, fetched, carried, missing };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}
