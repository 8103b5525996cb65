import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * README.md stays the front door: short, with the whole folder table and every setting,
 * and the rest in docs/, each page linked from it. What moved out must still be reachable: every
 * relative link of the README and of docs/ names a file that exists.
 */
const README = readFileSync('README.md', 'utf8');
const DOCS = readdirSync('docs')
  .filter((f) => f.endsWith('.md'))
  .map((f) => join('docs', f));

/** The rows of the README table whose header row starts with `| <first> |`, by their first cell. */
function tableKeys(first: string): string[] {
  const lines = README.split('\n');
  const start = lines.indexOf(lines.find((l) => l.startsWith(`| ${first} |`)) ?? '');
  expect(start, `README.md has no table headed "${first}"`).toBeGreaterThanOrEqual(0);
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|')[1]!.trim());
  }
  return rows;
}

/** Folders of the repository that need a row: each top-level one, and each one below these. */
const SPLIT = ['build-scripts', 'src', 'server'];
function folders(): string[] {
  const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const out = new Set<string>();
  for (const parts of files.map((f) => f.split('/'))) {
    if (parts.length > 1) out.add(parts[0]!);
    if (parts.length > 2 && SPLIT.includes(parts[0]!)) out.add(`${parts[0]}/${parts[1]}`);
  }
  return [...out].sort();
}

/** The environment variables the code reads by name: `env.NAME` and `xSetting(env, 'NAME', …)`. */
function variablesRead(): string[] {
  const files = execFileSync('git', ['ls-files', 'server', 'src', 'build-scripts'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'));
  const names = new Set<string>();
  for (const f of files) {
    for (const m of readFileSync(f, 'utf8').matchAll(/\benv(?:\.|, ')([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

/** Relative links `[text](target)` of a Markdown file: the file resolved from its folder, and the anchor. */
const targets = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z]+:/.test(t))
    .map((t) => {
      const [path, anchor] = t.split('#');
      return { file: path ? resolve(dirname(file), path) : resolve(file), anchor };
    });
const links = (file: string) => targets(file).map((t) => t.file);

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as '-'. */
const anchors = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) =>
      l
        .replace(/^#+ /, '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );

describe('README.md, the front door', () => {
  it('is at most 250 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('has a row in its folder table for every folder of the repository', () => {
    const rows = tableKeys('folder').map((k) => k.replace(/^`|\/?`$/g, ''));
    expect(folders().filter((f) => !rows.includes(f))).toEqual([]);
    expect(
      rows.filter((r) => !existsSync(r)),
      'rows for folders that do not exist',
    ).toEqual([]);
  });

  it('documents every environment variable the code reads', () => {
    const read = variablesRead();
    expect(read.length).toBeGreaterThan(10);
    const documented = tableKeys('variable').join(' ');
    expect(read.filter((v) => !documented.includes(`\`${v}\``))).toEqual([]);
  });

  it('links every page of docs/', () => {
    const linked = new Set(links('README.md'));
    expect(DOCS.filter((d) => !linked.has(resolve(d)))).toEqual([]);
  });

  it('and docs/ link only files and headings that exist in the repository', () => {
    const root = resolve('.');
    for (const file of ['README.md', ...DOCS]) {
      const inside = targets(file).filter((t) => !relative(root, t.file).startsWith('..'));
      expect(
        inside.filter((t) => !existsSync(t.file)).map((t) => t.file),
        file,
      ).toEqual([]);
      const broken = inside.filter((t) => t.anchor && t.file.endsWith('.md') && !anchors(t.file).includes(decodeURIComponent(t.anchor)));
      expect(
        broken.map((t) => `${relative(root, t.file)}#${t.anchor}`),
        file,
      ).toEqual([]);
    }
  });
});
