import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No production line over 200 characters. Prettier (`npm run format:check`, printWidth
 * 150) breaks the code it can; it leaves string literals, template literals and comments whole, so
 * those are held here to 200: a long description, message or comment is split into concatenated
 * parts or several comment lines, its value unchanged. 200, not 150: the limit is for what Prettier
 * cannot break, and a little room spares splitting a sentence a few words from its end.
 */
const MAX = 200;
const ROOT = join(import.meta.dirname, '..', '..');
const DIRS = ['server', 'src', 'build-scripts'];

function files(): string[] {
  return DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|astro|mjs)$/.test(name))
      .map((name) => join(dir, name)),
  ).sort();
}

describe('line length', () => {
  it('finds the files', () => {
    expect(files().length).toBeGreaterThan(100);
  });

  it(`holds every line of server/, src/ and build-scripts/ to ${MAX} characters`, () => {
    const long = files().flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.length > MAX ? [`${file}:${i + 1} (${line.length})`] : [])),
    );
    expect(long).toEqual([]);
  });
});
