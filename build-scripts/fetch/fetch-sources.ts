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

/** What the run has gathered, source by source: the result without its folder. */
type Gathered = Omit<FetchResult, 'outDir'>;

/** What each source's step reads (the run's settings and the previous folder) and adds to. */
interface Run {
  o: FetchOptions;
  outDir: string;
  /** The private folder the answers go into before it takes `outDir`'s place. */
  work: string;
  key: string;
  http: HttpOptions;
  now: () => Date;
  asof: string;
  scale: number;
  selected: (m: SourceModule) => boolean;
  previous: SourcesManifest;
  previousEntry: Map<string, ManifestFile>;
  gathered: Gathered;
}

type Planned = { plan: FetchPlan; url: string };

export async function fetchSources(o: FetchOptions): Promise<FetchResult> {
  const outDir = resolve(o.outDir);
  const selected = selectionOf(o.only);
  const key = o.env.MOENV_API_KEY ?? '';
  const http: HttpOptions = { ...DEFAULT_HTTP, ...o.http, secrets: [key], log: (msg) => o.log(redact(msg, [key])) };
  const now = o.now ?? (() => new Date());
  const asof = o.asof ?? isoSecond(now()).slice(0, 10);
  const scale = minScale(o.env);
  const plans = plansOf(o, outDir, selected);

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
    const gathered: Gathered = { files: [], carried: [], missing: [], warnings: [], counts: {}, carriedForward: {} };
    const run: Run = {
      o,
      outDir,
      work,
      key,
      http,
      now,
      asof,
      scale,
      selected,
      previous,
      previousEntry: new Map((previous.files ?? []).map((f) => [f.file, f])),
      gathered,
    };
    for (const m of SOURCE_MODULES) {
      const planned = plans.get(m.info.source_id);
      if (planned) await fetchSource(run, m, planned);
      else await keepPrevious(run, m);
    }
    writeManifest(work, manifestOf(asof, gathered));
    publish(work, outDir);
    return { outDir, ...gathered };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

/** Whether a source is selected; an unknown id in --only is an error. */
function selectionOf(only: readonly string[] | undefined): (m: SourceModule) => boolean {
  const known = new Set(SOURCE_MODULES.map((m) => m.info.source_id));
  for (const id of only ?? []) if (!known.has(id)) throw new Error(`--only ${id}: unknown source id (known: ${[...known].join(', ')})`);
  return (m) => (only && only.length > 0 ? only.includes(m.info.source_id) : true);
}

/** The selected sources' plans by id; a source named with --only must have one. */
function plansOf(o: FetchOptions, outDir: string, selected: (m: SourceModule) => boolean): Map<string, Planned> {
  const plans = new Map(
    SOURCE_MODULES.filter(selected).flatMap((m) => {
      const p = planOf(m, o.env);
      return p ? [[m.info.source_id, p] as const] : [];
    }),
  );
  for (const id of o.only ?? [])
    if (!plans.has(id))
      throw new SourceFetchError(id, `no endpoint to fetch from: placed by hand only; set ${urlVariable(id)} or put its file into ${outDir}`);
  return plans;
}

/** Runs a source's plan and checks its answers; an empty or failed answer that may be carried forward is. */
async function fetchSource(run: Run, m: SourceModule, planned: Planned): Promise<void> {
  const { o, key, previous, gathered } = run;
  const id = m.info.source_id;
  o.log(`${id}: fetching from ${redact(planned.url, [key])}`);
  const session = new Session(id, run.work, run.http, run.now, run.http.log);
  let carry: string | null = null;
  try {
    await planned.plan.run(session, { url: planned.url, asof: run.asof, moenvKey: key });
  } catch (err) {
    // Whatever went wrong (the network, an answer, the disk), the operator learns which source.
    const message = redact(err instanceof FetchFailure ? err.message : String((err as Error).message ?? err), [key]);
    carry = carryableReason(err instanceof FetchFailure ? err.kind : null, message);
    if (carry === null) throw new SourceFetchError(id, message);
  }
  const records = session.answers.reduce((s, a) => s + a.records, 0);
  if (carry !== null || records === 0) {
    carryForward(run, m, session, carry ?? EMPTY_REASON);
    return;
  }
  const before = previous.sources?.[id]?.records ?? sumRecords(previous, id);
  const outcome = checkFetched(m, records, before, run.scale);
  if (outcome.failures.length > 0) throw new SourceFetchError(id, outcome.failures.map((f) => f.replace(`${id}: `, '')).join('; '));
  gathered.warnings.push(...outcome.warnings);
  gathered.counts[id] = { records, previous_records: before };
  gathered.files.push(...session.answers);
}

/** This attempt's answers go; the previous good ones come back byte for byte, with their manifest entries. */
function carryForward(run: Run, m: SourceModule, session: Session, reason: string): void {
  const { outDir, work, now, previous, gathered } = run;
  const id = m.info.source_id;
  const before = previousAnswers(previous, id);
  const refused = refuseCarry(m.info.update_frequency, before, now());
  if (refused !== null) throw new SourceFetchError(id, `${reason}; cannot carry forward: ${refused}`);
  for (const a of session.answers) rmSync(join(work, a.file), { force: true });
  for (const f of before!.files) cpSync(join(outDir, f.file), join(work, f.file));
  gathered.files.push(...before!.files);
  gathered.carriedForward[id] = { attempted_at: isoSecond(now()), reason };
  if (previous.sources?.[id]) gathered.counts[id] = previous.sources[id]!;
  run.o.log(`${id}: ${reason}; carried forward the previous answers retrieved ${before!.retrievedAt}`);
}

/** Not fetched now: keep what the previous folder had for this source, entering hand-placed files as such. */
async function keepPrevious(run: Run, m: SourceModule): Promise<void> {
  const { outDir, previous, gathered } = run;
  const id = m.info.source_id;
  const kept = existsSync(outDir) && statSync(outDir).isDirectory() ? filesOf(outDir, m) : [];
  for (const file of kept) {
    cpSync(join(outDir, file), join(run.work, file));
    const entry = run.previousEntry.get(file);
    gathered.files.push(entry ?? (await placedByHand(outDir, file, id, run.now)));
  }
  if (kept.length > 0) {
    gathered.carried.push(id);
    if (previous.sources?.[id]) gathered.counts[id] = previous.sources[id]!;
    // Not fetched now: what the previous folder said of it stands, a carried-forward state included.
    if (previous.carried_forward?.[id]) gathered.carriedForward[id] = previous.carried_forward[id]!;
  } else if (run.selected(m) && m.plan === null) {
    gathered.missing.push({
      sourceId: id,
      note: `placed by hand only: put ${m.files.placed.join(' or ')} into the folder, or set ${urlVariable(id)}`,
    });
  }
}

/** The manifest of what was gathered: each source's latest retrieval, its files and counts, in id order. */
function manifestOf(asof: string, { files, counts, carriedForward }: Gathered): SourcesManifest {
  const retrieved: Record<string, string> = {};
  for (const f of files) if (!retrieved[f.source_id] || retrieved[f.source_id]! < f.retrieved_at) retrieved[f.source_id] = f.retrieved_at;
  return {
    kind: 'production',
    asof,
    retrieved_at: Object.fromEntries(Object.entries(retrieved).sort()),
    files,
    sources: Object.fromEntries(Object.entries(counts).sort()),
    ...(Object.keys(carriedForward).length > 0 ? { carried_forward: Object.fromEntries(Object.entries(carriedForward).sort()) } : {}),
  };
}

/** Written under another name and renamed, so a manifest is never half there. */
function writeManifest(work: string, manifest: SourcesManifest): void {
  writeFileSync(join(work, 'manifest.json.part'), `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(join(work, 'manifest.json.part'), join(work, 'manifest.json'));
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
