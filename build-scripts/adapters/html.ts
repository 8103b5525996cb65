import type { DefaultTreeAdapterTypes } from 'parse5';
import { cleanText } from './clean-text.js';

/**
 * Walking a page parse5 parsed: its elements in document order, an attribute, the text a person sees
 * (split at `<br>`, cleaned as every served text is), and a table's own rows and cells. What a page's
 * tables mean is the source's knowledge (SITCA's holdings table: sources/etfs/sitca-table.ts).
 */

export type Node = DefaultTreeAdapterTypes.Node;
export type Element = DefaultTreeAdapterTypes.Element;

export const isElement = (n: Node): n is Element => 'tagName' in n;
export const attr = (e: Element, name: string): string | null => e.attrs.find((a) => a.name === name)?.value ?? null;

export function* elements(n: Node): Generator<Element> {
  if (isElement(n)) yield n;
  const children = 'childNodes' in n ? n.childNodes : [];
  for (const c of children) yield* elements(c);
  if (isElement(n) && n.tagName === 'template' && 'content' in n) yield* elements((n as DefaultTreeAdapterTypes.Template).content);
}

/**
 * The lines a person sees in a node, split at `<br>`: each with its whitespace (and &nbsp;) collapsed,
 * then cleaned (cleanText); empty lines dropped.
 */
export function linesOf(n: Node): string[] {
  const lines: string[] = [''];
  const walk = (x: Node) => {
    if (x.nodeName === '#text') lines[lines.length - 1] += (x as DefaultTreeAdapterTypes.TextNode).value;
    else if (isElement(x) && x.tagName === 'br') lines.push('');
    else if (isElement(x) && (x.tagName === 'script' || x.tagName === 'style')) return;
    if ('childNodes' in x) for (const c of x.childNodes) walk(c);
  };
  walk(n);
  return lines.map((l) => cleanText(l.replace(/[\s\u00a0]+/g, ' '))).filter((l) => l !== '');
}

/** The text a person sees in a node, its lines joined by a space. */
export const textOf = (n: Node): string => linesOf(n).join(' ');

/** The table's own rows (thead, tbody, tfoot in document order), not those of tables nested in its cells. */
export function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const c of table.childNodes) {
    if (!isElement(c)) continue;
    if (c.tagName === 'tr') rows.push(c);
    else if (c.tagName === 'thead' || c.tagName === 'tbody' || c.tagName === 'tfoot') {
      for (const r of c.childNodes) if (isElement(r) && r.tagName === 'tr') rows.push(r);
    }
  }
  return rows;
}

/** A row's cells, `td` and `th`. */
export const cellsOf = (tr: Element) => tr.childNodes.filter((c): c is Element => isElement(c) && (c.tagName === 'td' || c.tagName === 'th'));
