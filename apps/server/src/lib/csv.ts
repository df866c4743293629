import { Readable } from 'node:stream';

export type CsvValue = string | number | boolean | null | undefined;

/**
 * What a spreadsheet reads as a value and never runs: a plain number (optional minus, digits, one decimal point), so
 * a column of amounts sums; a phone number (a plus, then digits, spaces, hyphens, parentheses): no function,
 * reference or command in either.
 */
const INERT = /^(-?\d+(\.\d+)?|\+[\d ()-]+)$/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, semicolon, tab, quote or line break,
 * quotes doubled. Semicolons and tabs count as separators too: spreadsheets in many locales
 * split on `;` (or tab), and an unquoted `;=cmd|...` would start a new cell holding a formula.
 * Formula-injection guard: any other cell starting with = + - @ (or tab / carriage return) gets a
 * leading ' so spreadsheet programs show it as text instead of evaluating it.
 */
export function csvCell(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s) && !INERT.test(s)) s = `'${s}`;
  if (/[",;\t\r\n]/.test(s)) s = `"${s.replace(/"/g, '""')}"`;
  return s;
}

export function csvLine(values: CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** One column of an export: its header and how a row gives its cell. */
export type CsvColumn<R> = readonly [header: string, cell: (r: R) => CsvValue];

/**
 * A CSV document as a stream: the header row, then the rows of each keyset batch, fetched
 * only when the reader wants more (backpressure), so a large table never sits in memory.
 */
export function csvStream<R extends { id: string; cursor: string }>(opts: {
  columns: readonly CsvColumn<R>[];
  batchSize: number;
  fetch: (after: { cursor: string; id: string } | null, limit: number) => Promise<R[]>;
}): Readable {
  const line = (r: R) => csvLine(opts.columns.map(([, cell]) => cell(r)));
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(opts.columns.map(([header]) => header));
    let after: { cursor: string; id: string } | null = null;
    for (;;) {
      const batch = await opts.fetch(after, opts.batchSize);
      if (batch.length === 0) return;
      yield batch.map(line).join('');
      const last = batch[batch.length - 1];
      if (!last || batch.length < opts.batchSize) return;
      after = { cursor: last.cursor, id: last.id };
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
