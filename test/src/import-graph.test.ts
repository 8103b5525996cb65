import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The import graph flows one way: sources → snapshot → views → outlets. The build and
 * the shim are siblings over src/; the contract imports nothing of the project; no circle, type
 * imports included (a type circle is still two files that cannot be read apart). Folders are layers
 * too: no two folders import each other, so each folder can be read standing on the ones below it.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const LAYERS = ['src', 'server', 'build-scripts'];

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(path);
    return /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each project file and the project files it imports (relative specifiers, `.js` naming the `.ts`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of LAYERS.flatMap(filesUnder)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const deps = importedFiles
      .map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => {
        const target = normalize(join(dirname(file), spec)).replace(/\.m?js$/, (ext) => (ext === '.mjs' ? '.mts' : '.ts'));
        return existsSync(join(ROOT, target)) ? target : normalize(join(dirname(file), spec));
      });
    graph.set(file, deps);
  }
  return graph;
}

const graph = importGraph();
const edges = [...graph].flatMap(([from, deps]) => deps.map((to) => ({ from, to })));
const under = (path: string, folder: string) => path.startsWith(`${folder}/`);

/**
 * Folder → folder, each with one import that makes it (the first found). A folder is a file's own
 * directory: `server/` and `server/access/` are two folders, so a parent and its child count too.
 */
function folderEdges(): Map<string, Map<string, string>> {
  const folders = new Map<string, Map<string, string>>();
  for (const { from, to } of edges) {
    const [a, b] = [dirname(from), dirname(to)];
    if (a === b || !graph.has(to)) continue;
    const out = folders.get(a) ?? new Map<string, string>();
    if (!out.has(b)) out.set(b, `${from} → ${to}`);
    folders.set(a, out);
  }
  return folders;
}

describe('the import graph', () => {
  it('reads every layer (a check of nothing would pass)', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(edges.length).toBeGreaterThan(1000);
  });

  it('has nothing under build-scripts/ import from server/ (the build and the shim are siblings over src/)', () => {
    expect(edges.filter((e) => under(e.from, 'build-scripts') && under(e.to, 'server'))).toEqual([]);
  });

  it('has nothing under src/ import from server/ or build-scripts/', () => {
    expect(edges.filter((e) => under(e.from, 'src') && !under(e.to, 'src'))).toEqual([]);
  });

  it('has src/contract/ import nothing of the project outside itself', () => {
    expect(edges.filter((e) => under(e.from, 'src/contract') && !under(e.to, 'src/contract'))).toEqual([]);
  });

  it('has the views import nothing of the site', () => {
    expect(edges.filter((e) => under(e.from, 'src/views') && under(e.to, 'src/site'))).toEqual([]);
  });

  it('has the sources import nothing of the fetcher, and their kit no source (the fetcher runs the plans; both stand on the kit)', () => {
    expect(edges.filter((e) => under(e.from, 'build-scripts/sources') && under(e.to, 'build-scripts/fetch'))).toEqual([]);
    const kit = 'build-scripts/sources/kit';
    expect(edges.filter((e) => under(e.from, kit) && under(e.to, 'build-scripts/sources') && !under(e.to, kit))).toEqual([]);
  });

  it('has the sources import nothing of the demo generator, and the demo model neither (each demo writer, beside its source, stands on demo-model/)', () => {
    expect(edges.filter((e) => under(e.from, 'build-scripts/sources') && under(e.to, 'build-scripts/demo'))).toEqual([]);
    const model = 'build-scripts/demo-model';
    expect(edges.filter((e) => under(e.from, model) && (under(e.to, 'build-scripts/demo') || under(e.to, 'build-scripts/sources')))).toEqual([]);
  });

  it('has no two folders import each other', () => {
    const folders = folderEdges();
    expect([...folders.values()].reduce((n, out) => n + out.size, 0)).toBeGreaterThan(100);
    const both = [...folders].flatMap(([a, out]) =>
      [...out].filter(([b]) => a < b && folders.get(b)?.has(a)).map(([b, example]) => `${a} ↔ ${b}: ${example}; ${folders.get(b)!.get(a)}`),
    );
    expect(both).toEqual([]);
  });

  it('has no circle', () => {
    // Tarjan's strongly connected components: any component of two or more files is a circle.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (v: string): void => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!graph.has(w)) continue;
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) circles.push(component.map((f) => relative(ROOT, join(ROOT, f))).sort());
      }
    };
    for (const v of graph.keys()) if (!index.has(v)) visit(v);
    expect(circles).toEqual([]);
  });
});
