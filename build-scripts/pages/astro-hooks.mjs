// Node module hooks that load `.astro` components outside Vite: Astro's own compiler turns the
// component into a module that imports Astro's runtime, esbuild strips the TypeScript of its
// frontmatter. This is what lets the page writer's worker threads render Astro components (see
// render.ts for why not `astro build`). Styles live in one static stylesheet and scripts in static
// files, so no component needs Vite's CSS or script pipeline.
//
// Compiling costs seconds per worker (the compiler is WebAssembly), so compiled modules are cached
// in .astro/compiled/ (git-ignored), keyed by the source, its path and the compiler's version.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE_DIR = join(ROOT, '.astro', 'compiled');
const COMPILER_VERSION = createRequire(import.meta.url)('@astrojs/compiler/package.json').version;
/** Bumped when the options below change, so the cache never serves a module compiled otherwise. */
const OPTIONS_VERSION = 2;

async function compile(filename, source) {
  const { transform } = await import('@astrojs/compiler');
  const { transform: stripTypes } = await import('esbuild');
  const compiled = await transform(source, {
    filename,
    internalURL: 'astro/compiler-runtime',
    // Astro's default (compressHTML): whitespace between tags collapsed at compile time.
    compact: true,
    resultScopedSlot: true,
    // Imports stay as written; Node (and tsx after it) resolves them.
    resolvePath: async (specifier) => specifier,
  });
  const problem = compiled.diagnostics.find((d) => d.severity === 1);
  if (problem) throw new Error(`${filename}:${problem.location.line}: ${problem.text}`);
  return (await stripTypes(compiled.code, { loader: 'ts', format: 'esm', target: 'es2022', sourcefile: filename })).code;
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.astro')) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const source = readFileSync(filename, 'utf8');
  const key = createHash('sha256').update(`${COMPILER_VERSION}\0${OPTIONS_VERSION}\0${filename}\0${source}`).digest('hex').slice(0, 32);
  const cached = join(CACHE_DIR, `${key}.mjs`);
  let js;
  try {
    js = readFileSync(cached, 'utf8');
  } catch {
    js = await compile(filename, source);
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written under a unique name, then renamed: workers compiling at once never read half a file.
    const tmp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, js);
    renameSync(tmp, cached);
  }
  return { format: 'module', source: js, shortCircuit: true };
}
