import { existsSync, readdirSync } from 'node:fs';
import { SourceFileError } from '../../adapters/read-layout.js';
import type { SourceModule } from './source.js';

/**
 * Which files of a sources folder belong to a source: the answers a fetch kept (in name order, which
 * is request order), or one form an operator placed by hand. Both at once is ambiguous and refused:
 * the build would not know which bytes its facts came from.
 */
export function filesOf(dir: string, m: SourceModule): string[] {
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir);
  const answers = names.filter((n) => m.files.answers.test(n)).sort();
  const placed = m.files.placed.filter((f) => names.includes(f) && !m.files.answers.test(f));
  if (placed.length > 1 || (placed.length > 0 && answers.length > 0)) {
    throw new SourceFileError(
      `${m.info.source_id}: ${[...answers.slice(0, 2), ...placed].join(' and ')}${answers.length > 2 ? ' …' : ''} are two forms of one source in one folder; keep one`,
    );
  }
  return placed.length > 0 ? placed : answers;
}

/** The single-file form of a layout (an OpenAPI dataset as served, or its CSV copy placed by hand). */
export function singleFile(layout: { file: string; alternatives?: readonly string[] }): SourceModule['files'] {
  return { answers: new RegExp(`^${layout.file.replace(/[.]/g, '\\.')}$`), placed: layout.alternatives ?? [] };
}
