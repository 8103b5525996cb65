/** Small readers of the pages' HTML for tests: links, numbers and ranking rows, by their markup. */

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export function hrefsOf(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)].map((m) => unescape(m[1]!));
}

/** Every `<data value=… data-json=…>` of a page: the number and the JSON field it claims to be. */
export function numbersOf(html: string): { field: string; value: number; text: string }[] {
  return [...html.matchAll(/<data value="([^"]*)" data-json="([^"]*)">([^<]*)<\/data>/g)].map((m) => ({
    field: unescape(m[2]!),
    value: Number(m[1]),
    text: unescape(m[3]!),
  }));
}

/** The rows of a ranking table: code, rank and score as the page shows them. */
export function rankingRowsOf(html: string): { ticker: string; rank: number; score: number }[] {
  return [...html.matchAll(/<tr data-ticker="([^"]+)">\s*<td class="num">(\d+)<\/td>.*?<td class="num">(\d+)<\/td>/gs)].map((m) => ({
    ticker: m[1]!,
    rank: Number(m[2]),
    score: Number(m[3]),
  }));
}

/** The value at a dotted path (`penalties.0.fine`) of a JSON body. */
export function at(body: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], body);
}

/** The rows of a company page's history table: snapshot id, and score and rank with their fields. */
export function historyRowsOf(html: string): { snapshot: string; numbers: { field: string; value: number }[] }[] {
  return [...html.matchAll(/<tr data-snapshot="([^"]+)">(.*?)<\/tr>/gs)].map((m) => ({ snapshot: m[1]!, numbers: numbersOf(m[2]!) }));
}

/** The causes a company page lists under its latest changes: kind, and points (null when it shows none). */
export function causesOf(html: string): { kind: string; points: number | null }[] {
  return [...html.matchAll(/<li class="cause" data-cause-kind="([^"]+)">(.*?)<\/li>/gs)].map((m) => ({
    kind: m[1]!,
    points: numbersOf(m[2]!)[0]?.value ?? null,
  }));
}

/** The text a person reads in a page's `<section aria-labelledby="<id>">`: tags dropped, spaces folded. */
export function sectionTextOf(html: string, id: string): string | undefined {
  const m = new RegExp(`<section aria-labelledby="${id}">(.*?)</section>`, 's').exec(html);
  return m
    ? unescape(m[1]!.replace(/<[^>]*>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim()
    : undefined;
}

/** The text alternative of a company page's history chart. */
export function historyChartLabelOf(html: string): string | undefined {
  const m = /<figure class="history">\s*<svg [^>]*?role="img" aria-label="([^"]*)"/.exec(html);
  return m ? unescape(m[1]!) : undefined;
}
