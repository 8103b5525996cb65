import { lookup } from 'node:dns/promises';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * What a fetch needs, checked before the first download and reported all at once, each with what to
 * do: the MOENV key (when a MOENV source is to be fetched), a usable output folder, and every host's
 * name resolving (a machine without network is told so, instead of retrying for a minute).
 */

export class PreflightError extends Error {
  override name = 'PreflightError';
  constructor(readonly problems: string[]) {
    super(`cannot start the fetch:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export interface PreflightInput {
  outDir: string;
  key: string;
  plans: { id: string; url: string; needs: readonly 'moenv-key'[] }[];
  resolveHost?: (host: string) => Promise<void>;
}

const LOOKUP_TIMEOUT_MS = 5_000;

async function defaultResolve(host: string): Promise<void> {
  await Promise.race([lookup(host), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), LOOKUP_TIMEOUT_MS).unref())]);
}

/** The nearest existing folder at or above `path`. */
function existingAncestor(path: string): string {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

export async function preflight(i: PreflightInput): Promise<void> {
  const problems: string[] = [];
  const needKey = i.plans.filter((p) => p.needs.includes('moenv-key')).map((p) => p.id);
  if (needKey.length > 0 && !i.key)
    problems.push(`MOENV_API_KEY is not set; ${needKey.join(' and ')} need it (a free key from data.moenv.gov.tw), or leave them out with --only`);
  if (existsSync(i.outDir) && !statSync(i.outDir).isDirectory()) problems.push(`--out ${i.outDir} exists and is not a folder`);
  const parent = existingAncestor(dirname(i.outDir));
  try {
    accessSync(parent, constants.W_OK);
  } catch {
    problems.push(`cannot write in ${parent} (where the new folder for ${i.outDir} is made); choose another --out or fix its permissions`);
  }
  const hosts = [...new Set(i.plans.map((p) => new URL(p.url).hostname))];
  const resolve = i.resolveHost ?? defaultResolve;
  const unresolved = (
    await Promise.all(
      hosts.map(async (h) => {
        try {
          await resolve(h);
          return null;
        } catch (e) {
          return `${h} (${(e as { code?: string }).code ?? (e as Error).message})`;
        }
      }),
    )
  ).filter((x): x is string => x !== null);
  if (unresolved.length > 0) {
    problems.push(
      `cannot resolve ${unresolved.join(', ')}: no network or DNS on this machine${unresolved.length === hosts.length ? '' : ', or a wrong FETCH_URL_… host'}`,
    );
  }
  if (problems.length > 0) throw new PreflightError(problems);
}
