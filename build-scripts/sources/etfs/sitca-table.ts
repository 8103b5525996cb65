import { attr, cellsOf, linesOf, ownRows, type Element } from '../../adapters/html.js';
import { SourceFileError, type RejectLog } from '../../adapters/read-layout.js';
import { percent } from '../../adapters/values.js';

/**
 * Reading SITCA's holdings table (shared/spec/sources.md, "The two sources with no GET file" and
 * "Genuine answers"), from a page parse5 parsed (walked with adapters/html.ts). Columns are found from the header row by their
 * labels, never by position, so both forms read: the genuine one (`基金名稱 | 名次 | 標的種類 | 標的代號 |
 * 標的名稱 | 金額 | 擔保機構** | 次順位債券** | 受益權單位數*** | 占基金淨資產價值之比例(%)`, `合計` spanning
 * nine columns) and the older nine- or seven-column forms without `名次`.
 */

export const SITCA_SOURCE_ID = 'SRC-SITCA-ETF-HOLDINGS';

/**
 * A fund name without the note SITCA may put after it, on a line of its own (after `<br>`) or in
 * trailing parentheses, half- or full-width: `元大台灣高股息基金<br>(基金之配息來源可能為收益平準金)`. Only
 * a parenthesis that speaks of the fund (基金, 配息, 收益平準金, 保證) is a note: a class or currency
 * such as `(美元)` is part of the name, and two funds differ by it.
 */
export function withoutFundNote(name: string): string {
  const note = /\s*[(（]([^()（）]*)[)）]\s*$/;
  let out = name.trim();
  for (let m = note.exec(out); m !== null && /基金|配息|收益平準金|保證/.test(m[1]!); m = note.exec(out)) out = out.slice(0, m.index).trim();
  return out;
}

/**
 * A fund's name from its cell's lines: a line after `<br>` wholly in parentheses is SITCA's note and
 * left out; any other line is the name wrapped, joined by a space (spaces do not count in the join).
 */
export function fundNameOf(lines: readonly string[]): string {
  return withoutFundNote(lines.filter((l, i) => i === 0 || !/^[(（].*[)）]$/.test(l)).join(' '));
}

/** A security name without the `*` SITCA may mark it with (`國巨*`). */
export const securityName = (name: string): string => name.replace(/\s*\*+$/, '');

/** One logical cell of the table grid: a cell's text, at every column and row it spans. */
interface GridCell {
  text: string;
  /** The cell's lines (split at `<br>`): a fund's name is the first, a note may follow. */
  lines: string[];
  /** True at the cell's own row (false where a rowspan carries it down). */
  own: boolean;
}
interface GridRow {
  line: number;
  cells: GridCell[];
}

const EMPTY: GridCell = { text: '', lines: [], own: false };
const CLOSE = /^合計/;

/**
 * The table as a grid, rowspans and colspans spread over the places they cover. A `合計` row ends
 * every rowspan above it: it closes its fund, and a fund cell's rowspan never reaches the next fund
 * (an excerpt may cut rows a rowspan still counts).
 */
function grid(rows: readonly Element[]): GridRow[] {
  let carried: ({ cell: GridCell; left: number } | undefined)[] = [];
  const out: GridRow[] = [];
  for (const tr of rows) {
    const tds = cellsOf(tr).map((td) => ({ td, lines: linesOf(td) }));
    if (tds[0] !== undefined && CLOSE.test(tds[0].lines.join(' '))) carried = [];
    const cells: GridCell[] = [];
    let col = 0;
    const fillCarried = () => {
      for (let c = carried[col]; c !== undefined && c.left > 0; c = carried[col]) {
        cells[col] = { ...c.cell, own: false };
        c.left--;
        col++;
      }
    };
    for (const { td, lines } of tds) {
      fillCarried();
      const cell = { text: lines.join(' '), lines, own: true };
      const colspan = Math.max(1, Math.min(1000, Number.parseInt(attr(td, 'colspan') ?? '1', 10) || 1));
      const rs = Number.parseInt(attr(td, 'rowspan') ?? '1', 10);
      const rowspan = rs === 0 ? Number.MAX_SAFE_INTEGER : Math.max(1, Number.isNaN(rs) ? 1 : rs);
      for (let k = 0; k < colspan; k++, col++) {
        cells[col] = cell;
        carried[col] = rowspan > 1 ? { cell, left: rowspan - 1 } : undefined;
      }
    }
    // Cells carried into the row's end.
    for (; col < carried.length; col++) {
      const c = carried[col];
      if (c !== undefined && c.left > 0) {
        cells[col] = { ...c.cell, own: false };
        c.left--;
      }
    }
    out.push({ line: tr.sourceCodeLocation?.startLine ?? 0, cells: Array.from({ length: cells.length }, (_, i) => cells[i] ?? EMPTY) });
  }
  return out;
}

interface Columns {
  fund: number;
  kind: number;
  code: number;
  name: number;
  weight: number;
}

/** Header labels, tried in this order, each column taken at most once (`名次`, the rank, is not read). */
const LABELS: readonly [keyof Columns, RegExp, string][] = [
  ['weight', /比例|比率|權重|[占佔].*淨資產|[%％]/, '比例/權重/占…淨資產…%'],
  ['fund', /基金/, '基金'],
  ['code', /代號|代碼/, '代號'],
  ['name', /名稱/, '名稱'],
  ['kind', /市場|類別|種類/, '市場/類別/種類'],
];

const isNumber = (s: string) => /^-?[\d,]+(\.\d+)?\s*[%％]?$/.test(s);

/** A header row: four cells or more, none a number, one of them naming a code column. */
function headerIndex(rows: readonly GridRow[]): number {
  return rows.findIndex((r) => r.cells.length >= 4 && r.cells.every((c) => !isNumber(c.text)) && r.cells.some((c) => /代號|代碼/.test(c.text)));
}

function identify(header: readonly string[]): { columns: Columns } | { problem: string } {
  const taken = new Set<number>();
  const found: Partial<Columns> = {};
  for (const [key, re, what] of LABELS) {
    const at = header.map((h, i) => (!taken.has(i) && re.test(h) ? i : -1)).filter((i) => i >= 0);
    if (at.length !== 1) return { problem: at.length === 0 ? `no column labelled ${what}` : `${at.length} columns labelled ${what}` };
    found[key] = at[0]!;
    taken.add(at[0]!);
  }
  if (found.fund !== 0) return { problem: 'the fund-name column is not the first' };
  return { columns: found as Columns };
}

export interface HoldingsTable {
  rows: GridRow[];
  headerAt: number;
  columns: Columns;
  width: number;
}

/** The page's holdings table: the one table whose header names its columns. Null when no table has such a header. */
export function holdingsTable(tables: readonly Element[], file: string): HoldingsTable | null {
  const candidates = tables
    .map((t) => {
      const rows = grid(ownRows(t));
      return { rows, headerAt: headerIndex(rows) };
    })
    .filter((t) => t.headerAt >= 0);
  if (candidates.length === 0) return null;
  const identified = candidates.map((t) => {
    const header = t.rows[t.headerAt]!.cells.map((c) => c.text);
    return { t, header, id: identify(header) };
  });
  const good = identified.filter((x) => 'columns' in x.id);
  if (good.length === 0) {
    const x = identified[0]!;
    throw new SourceFileError(
      `${SITCA_SOURCE_ID} ${file}: cannot tell the holdings columns from the table's header [${x.header.join(' | ')}]: ${(x.id as { problem: string }).problem} (the publisher changed the table?)`,
    );
  }
  if (good.length > 1) throw new SourceFileError(`${SITCA_SOURCE_ID} ${file}: ${good.length} tables with a holdings header; expected one`);
  const { t, header, id } = good[0]!;
  return { rows: t.rows, headerAt: t.headerAt, columns: (id as { columns: Columns }).columns, width: header.length };
}

/** One holding as SITCA lists it: the weight a fraction of the fund's net assets. */
export interface SitcaHolding {
  /** 標的種類 (or 市場 in the older form) as served: 國內上市, 國內上櫃, 國外, 公司債 無擔保, … */
  kind: string;
  /** 標的代號, upper-cased (an ISIN for a foreign security). */
  code: string;
  /** 標的名稱, without SITCA's trailing `*`. */
  name: string;
  weight: number;
}

/** One fund of one answer's table, named as SITCA names it (the full name, without a note). */
export interface SitcaTableFund {
  name: string;
  /** The line of the fund's first row. */
  line: number;
  holdings: SitcaHolding[];
}

/**
 * The funds of one answer's table. A fund's first row starts with its full name (usually spanning
 * its rows); later rows hold one holding each (with or without the name cell); a `合計` row closes
 * the fund. A row that does not fit is a reject naming the file and line; a fund the table leaves
 * unclosed (a cut answer?) is a reject and left out.
 */
export function fundsOfTable(table: HoldingsTable, file: string, rejects: RejectLog): SitcaTableFund[] {
  const { columns: col, width, rows } = table;
  const label = (k: keyof Columns) => rows[table.headerAt]!.cells[col[k]]!.text;
  const funds: SitcaTableFund[] = [];
  let open = null as SitcaTableFund | null;
  for (const row of rows.slice(table.headerAt + 1)) {
    let cells = row.cells;
    if (cells.every((c) => c.text === '')) continue;
    // A later row written without the fund's cell (and no rowspan): its cells start at the second column.
    if (cells.length === width - 1) cells = [EMPTY, ...cells];
    const firstOwn = cells.find((c) => c.own && c.text !== '');
    if (firstOwn !== undefined && CLOSE.test(firstOwn.text)) {
      if (open === null) rejects.add(file, row.line, '合計 with no fund before it');
      else funds.push(open);
      open = null;
      continue;
    }
    if (cells.length !== width) {
      rejects.add(file, row.line, `expected ${width} cells as the header has, found ${cells.length}`);
      continue;
    }
    const fundCell = cells[col.fund]!;
    const fundName = fundNameOf(fundCell.lines);
    if (fundCell.own && fundName !== '' && fundName !== open?.name) {
      if (open !== null) rejects.add(file, open.line, `${open.name}: not closed by a 合計 row before the next fund (a cut table?); left out`);
      open = { name: fundName, line: row.line, holdings: [] };
    } else if (!fundCell.own && fundName !== '' && open !== null && fundName !== open.name) {
      rejects.add(file, row.line, `the row belongs to ${fundName}, which is not the open fund ${open.name}`);
      continue;
    }
    if (open === null) {
      rejects.add(file, row.line, 'a holding row before any fund name');
      continue;
    }
    const code = cells[col.code]!.text.toUpperCase();
    const weight = percent.safeParse(cells[col.weight]!.text);
    let problem: string | null = null;
    if (code === '') problem = `${label('code')}: must not be empty`;
    else if (!/^\S{1,32}$/.test(code)) problem = `${label('code')}: not a security code: ${JSON.stringify(code)}`;
    else if (!weight.success) problem = `${label('weight')}: ${weight.error.issues[0]?.message ?? 'not a number'}`;
    else if (weight.data > 100) problem = `${label('weight')}: a weight above 100 %`;
    if (problem !== null || !weight.success) {
      rejects.add(file, row.line, problem ?? 'not a number');
      continue;
    }
    open.holdings.push({
      kind: cells[col.kind]!.text,
      code,
      name: securityName(cells[col.name]!.text),
      weight: Number((weight.data / 100).toFixed(8)),
    });
  }
  if (open !== null) rejects.add(file, open.line, `${open.name}: not closed by a 合計 row at the end of the table (a cut answer?); left out`);
  return funds;
}
