import { microToText } from '@harvest/shared/money';
import { describeMovement, statementTexts, type StatementTexts } from '@harvest/shared/statement-texts';
import { csvLine, type CsvValue } from '../../lib/csv.ts';
import { translator } from '../../lib/i18n.ts';
import type { StatementData } from './statements.service.ts';

/** A row of the CSV: a movement, or the opening or closing line. */
interface Row {
  date: string;
  description: string;
  reference: string;
  amount: bigint | null;
  balance: bigint;
}

/** The table's columns, each with its header and its value (amounts as exact decimal text, for spreadsheets). */
const COLUMNS: { header: (t: StatementTexts) => string; value: (r: Row) => CsvValue }[] = [
  { header: (t) => t.columns.date, value: (r) => r.date },
  { header: (t) => t.columns.description, value: (r) => r.description },
  { header: (t) => t.columns.reference, value: (r) => r.reference },
  { header: (t) => t.columns.amount, value: (r) => (r.amount === null ? '' : microToText(r.amount)) },
  { header: (t) => t.columns.balance, value: (r) => microToText(r.balance) },
];

/**
 * The statement as one CSV table (RFC 4180, the exports' injection-safe cells): the opening line, every
 * movement, the closing line. Dates are the platform time zone's.
 */
export function statementCsv(s: StatementData): string {
  const t = statementTexts(translator(s.locale));
  const rows: Row[] = [
    { date: s.from, description: t.openingBalance, reference: '', amount: null, balance: s.opening },
    ...s.lines.map((l) => ({
      date: l.localAt,
      description: describeMovement(t, l.detail),
      reference: l.reference,
      amount: l.amount,
      balance: l.balance,
    })),
    { date: s.to, description: t.closingBalance, reference: '', amount: null, balance: s.closing },
  ];
  return [COLUMNS.map((c) => c.header(t)), ...rows.map((r) => COLUMNS.map((c) => c.value(r)))].map(csvLine).join('');
}
