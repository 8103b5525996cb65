import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkFetched, minScale } from '../sources/kit/assertions.js';
import { filesOf } from '../sources/kit/files.js';
import { SOURCE_MODULES, urlVariable } from '../sources/index.js';
import { singleGetPlan } from '../sources/kit/single-get.js';
import type { FetchPlan, SourceModule } from '../sources/kit/source.js';
import { hashFile } from '../snapshot/source-files.js';
import { readManifest, type ManifestFile, type SourcesManifest } from '../snapshot/sources-manifest.js';
import { carryableReason, EMPTY_REASON, previousAnswers, refuseCarry, type CarriedForward } from './carry-forward.js';
import { FetchFailure } from '../sources/kit/fetch-failure.js';
import { DEFAULT_HTTP, redact, type HttpOptions } from './http.js';
import { preflight } from './preflight.js';
import { Session } from './session.js';

/**
 * `npm run fetch`: runs each source's request plan (or those named with --only) into a private
 * folder next to `outDir`, keeping every answer as served, checks each answer and each source's
 * assertions, writes `manifest.json`, and only then puts the folder in place of `outDir`. Any
 * failure removes the private folder and leaves the previous `outDir` as it was. Sources not fetched
 * this time (not in --only, or only placed by hand) keep their files and manifest entries from the
 * previous folder; a file found there that no fetch wrote is entered as placed by hand.
 */

export interface FetchOptions {
  outDir: string;
  only?: readonly string[];
  /** The data's as-of date for the manifest (and which report years and quarter to ask for); default: today (UTC). */
  asof?: string;
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
  http?: Partial<Omit<HttpOptions, 'secrets' | 'log'>>;
  now?: () => Date;
  /** Name resolution for the preflight (tests replace it); default dns.lookup. */
  resolveHost?: (host: string) => Promise<void>;
}

export interface FetchResult {
  outDir: string;
  files: ManifestFile[];
  carried: string[];
  /** Sources with neither a plan nor a file from before: the build will name them. */
  missing: { sourceId: string; note: string }[];
  /** Assertion maxima exceeded. */
  warnings: string[];
  /** Sources whose latest answer was empty, blocked or unavailable, kept from the previous fetch (contract section 9). */
  carriedForward: Record<string, CarriedForward>;
  /** Records per source fetched now, and the previous fetch's. */
  counts: Record<string, { records: number; previous_records: number | null }>;
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

/** A source's plan with its URL override applied; a hand-placed-only source with an override is one GET of that file. */
function planOf(m: SourceModule, env: NodeJS.ProcessEnv): { plan: FetchPlan; url: string } | null {
  const override = env[urlVariable(m.info.source_id)];
  if (m.plan) return { plan: m.plan, url: override || m.plan.url };
  if (!override) return null;
  const file = m.files.placed.find((f) => f.endsWith(/\.json$/i.test(override.split('?')[0]!) ? '.json' : '.csv')) ?? m.files.placed[0]!;
  return { plan: singleGetPlan(file, override, file.endsWith('.json') ? 'json' : 'csv'), url: override };
}

export async function fetchSources(o: FetchOptions): Promise<FetchResult> {
  const outDir = resolve(o.outDir);
  const known = new Set(SOURCE_MODULES.map((m) => m.info.source_id));
  for (const id of o.only ?? []) if (!known.has(id)) throw new Error(`--only ${id}: unknown source id (known: ${[...known].join(', ')})`);
  const selected = (m: SourceModule) => (o.only && o.only.length > 0 ? o.only.includes(m.info.source_id) : true);
  const key = o.env.MOENV_API_KEY ?? '';
  const http: HttpOptions = { ...DEFAULT_HTTP, ...o.http, secrets: [key], log: (msg) => o.log(redact(msg, [key])) };
  const now = o.now ?? (() => new Date());
  const asof = o.asof ?? isoSecond(now()).slice(0, 10);
  const scale = minScale(o.env);
  const plans = new Map(
    SOURCE_MODULES.filter(selected).flatMap((m) => {
      const p = planOf(m, o.env);
      return p ? [[m.info.source_id, p] as const] : [];
    }),
  );
  for (const id of o.only ?? [])
    if (!plans.has(id))
      throw new SourceFetchError(id, `no endpoint to fetch from: placed by hand only; set ${urlVariable(id)} or put its file into ${outDir}`);

  // Everything the run needs, checked before any download and reported at once.
  await preflight({
    outDir,
    key,
    plans: [...plans.entries()].map(([id, p]) => ({ id, url: p.url, needs: p.plan.needs ?? [] })),
    resolveHost: o.resolveHost,
  });

  mkdirSync(dirname(outDir), { recursive: true });
  const work = `${outDir}.fetch-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(work);
  try {
    const previous: SourcesManifest = existsSync(join(outDir, 'manifest.json')) ? readManifest(outDir) : {};
    const previousEntry = new Map((previous.files ?? []).map((f) => [f.file, f]));
    const files: ManifestFile[] = [];
    const carried: string[] = [];
    const missing: FetchResult['missing'] = [];
    const warnings: string[] = [];
    const counts: FetchResult['counts'] = {};
    const carriedForward: FetchResult['carriedForward'] = {};
    for (const m of SOURCE_MODULES) {
      const id = m.info.source_id;
      const planned = plans.get(id);
      if (planned) {
        o.log(`${id}: fetching from ${redact(planned.url, [key])}`);
        const session = new Session(id, work, http, now, http.log);
        let carry: string | null = null;
        try {
          await planned.plan.run(session, { url: planned.url, asof, moenvKey: key });
        } catch (err) {
          // Whatever went wrong (the network, an answer, the disk), the operator learns which source.
          const message = redact(err instanceof FetchFailure ? err.message : String((err as Error).message ?? err), [key]);
          carry = carryableReason(err instanceof FetchFailure ? err.kind : null, message);
          if (carry === null) throw new SourceFetchError(id, message);
        }
        const records = session.answers.reduce((s, a) => s + a.records, 0);
        if (carry !== null || records === 0) {
          const reason = carry ?? EMPTY_REASON;
          const before = previousAnswers(previous, id);
          const refused = refuseCarry(m.info.update_frequency, before, now());
          if (refused !== null) throw new SourceFetchError(id, `${reason}; cannot carry forward: ${refused}`);
          // This attempt's answers go; the previous good ones come back byte for byte, with their manifest entries.
          for (const a of session.answers) rmSync(join(work, a.file), { force: true });
          for (const f of before!.files) cpSync(join(outDir, f.file), join(work, f.file));
          files.push(...before!.files);
          carriedForward[id] = { attempted_at: isoSecond(now()), reason };
          if (previous.sources?.[id]) counts[id] = previous.sources[id]!;
          o.log(`${id}: ${reason}; carried forward the previous answers retrieved ${before!.retrievedAt}`);
          continue;
        }
        const before = previous.sources?.[id]?.records ?? sumRecords(previous, id);
        const outcome = checkFetched(m, records, before, scale);
        if (outcome.failures.length > 0) throw new SourceFetchError(id, outcome.failures.map((f) => f.replace(`${id}: `, '')).join('; '));
        warnings.push(...outcome.warnings);
        counts[id] = { records, previous_records: before };
        files.push(...session.answers);
        continue;
      }
      // Not fetched now: keep what the previous folder had for this source, entering hand-placed files as such.
      const kept = existsSync(outDir) && statSync(outDir).isDirectory() ? filesOf(outDir, m) : [];
      for (const file of kept) {
        cpSync(join(outDir, file), join(work, file));
        const entry = previousEntry.get(file);
        files.push(entry ?? (await placedByHand(outDir, file, id, now)));
      }
      if (kept.length > 0) {
        carried.push(id);
        if (previous.sources?.[id]) counts[id] = previous.sources[id]!;
        // Not fetched now: what the previous folder said of it stands, a carried-forward state included.
        if (previous.carried_forward?.[id]) carriedForward[id] = previous.carried_forward[id]!;
      } else if (selected(m) && m.plan === null) {
        missing.push({ sourceId: id, note: `placed by hand only: put ${m.files.placed.join(' or ')} into the folder, or set ${urlVariable(id)}` });
      }
    }
    const retrieved: Record<string, string> = {};
    for (const f of files) if (!retrieved[f.source_id] || retrieved[f.source_id]! < f.retrieved_at) retrieved[f.source_id] = f.retrieved_at;
    const manifest: SourcesManifest = {
      kind: 'production',
      asof,
      retrieved_at: Object.fromEntries(Object.entries(retrieved).sort()),
      files,
      sources: Object.fromEntries(Object.entries(counts).sort()),
      ...(Object.keys(carriedForward).length > 0 ? { carried_forward: Object.fromEntries(Object.entries(carriedForward).sort()) } : {}),
    };
    writeFileSync(join(work, 'manifest.json.part'), `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(join(work, 'manifest.json.part'), join(work, 'manifest.json'));
    publish(work, outDir);
    return { outDir, files, carried, missing, warnings, counts, carriedForward };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

function sumRecords(m: SourcesManifest, id: string): number | null {
  const entries = (m.files ?? []).filter((f) => f.source_id === id && !f.placed_by_hand);
  return entries.length > 0 ? entries.reduce((s, f) => s + f.records, 0) : null;
}

/** A file an operator put in: its bytes and sha256 as found, and no URL. */
async function placedByHand(dir: string, file: string, sourceId: string, now: () => Date): Promise<ManifestFile> {
  const { bytes, sha256 } = await hashFile(join(dir, file));
  return {
    file,
    source_id: sourceId,
    url: null,
    method: null,
    http_status: null,
    retrieved_at: isoSecond(new Date(statSync(join(dir, file)).mtimeMs || now().getTime())),
    bytes,
    sha256,
    records: 0,
    placed_by_hand: true,
  };
}
