import { WITHDRAWAL_FEE_PERCENT } from './constants.ts';
import { formatUsdc } from './money.ts';
import type { StatementMovementKind } from './schemas/statements.ts';

/**
 * Every text a statement of account shows (on screen, in the CSV and in the PDF), keyed, one table per
 * locale: only English today, its wording final. A new language adds a table here and nothing else.
 */
export const STATEMENT_LOCALES = ['en'] as const;
export type StatementLocale = (typeof STATEMENT_LOCALES)[number];

/** What the description of one movement is made from. */
export type MovementDetail =
  | { kind: 'deposit' }
  | { kind: 'investment'; tier: string }
  | { kind: 'cycle_earning'; tier: string; cycle: number }
  | { kind: 'referral_reward'; level: number; from: string }
  | {
      kind: 'withdrawal';
      source: 'earning' | 'rewards' | 'balance';
      wallet: string;
      cycle: number | null;
      tier: string | null;
    }
  | { kind: 'withdrawal_fee'; cycle: number | null; tier: string | null }
  | { kind: 'adjustment' }
  | { kind: 'other' };

type Describe = { [K in StatementMovementKind]: (d: Extract<MovementDetail, { kind: K }>) => string };

export interface StatementTexts {
  platform: string;
  title: string;
  investor: string;
  email: string;
  period: string;
  periodRange: (from: string, to: string) => string;
  timeZone: string;
  generated: string;
  openingBalance: string;
  moneyIn: string;
  moneyOut: string;
  closingBalance: string;
  /** What the balance covers (docs/decisions/0073). */
  scope: string;
  noMovements: string;
  page: (n: number, of: number) => string;
  columns: { date: string; description: string; reference: string; amount: string; balance: string };
  movement: Describe;
  /** An amount of USDC as this locale writes it, with at least `decimals` decimals and every micro-USDC. */
  amount: (usdc: number, decimals: number) => string;
  /** The file name of a statement, without its extension. */
  fileName: (from: string, to: string) => string;
  /** The statement's screens: the investor's Statement tab and the administrator's download. */
  screen: {
    periodLegend: string;
    month: string;
    custom: string;
    monthLabel: string;
    fromLabel: string;
    toLabel: string;
    show: string;
    downloadCsv: string;
    downloadPdf: string;
    preparing: string;
    downloaded: (name: string) => string;
    loading: string;
    movements: (n: number) => string;
    adminOpen: string;
    adminClose: string;
    format: string;
    formatCsv: string;
    formatPdf: string;
    download: string;
  };
}

const cycleOf = (cycle: number | null, tier: string | null) =>
  `cycle ${cycle ?? '?'} earnings${tier ? ` (${tier})` : ''}`;

const en: StatementTexts = {
  platform: 'Harvest Farm',
  title: 'Statement of account',
  investor: 'Investor',
  email: 'E-mail',
  period: 'Period',
  periodRange: (from, to) => `${from} to ${to}`,
  timeZone: 'Time zone',
  generated: 'Generated',
  openingBalance: 'Opening balance',
  moneyIn: 'Money in',
  moneyOut: 'Money out',
  closingBalance: 'Closing balance',
  scope:
    'The balance is the money you hold with Harvest Farm outside your invested principal: your USDC balance, referral rewards, cycle earnings not yet withdrawn, and withdrawals requested but not yet paid out.',
  noMovements: 'No money moved in this period.',
  page: (n, of) => `Page ${n} of ${of}`,
  columns: {
    date: 'Date',
    description: 'Description',
    reference: 'Reference',
    amount: 'Amount (USDC)',
    balance: 'Balance (USDC)',
  },
  movement: {
    deposit: () => 'Deposit',
    investment: (d) => `Investment in ${d.tier}`,
    cycle_earning: (d) => `Earnings of cycle ${d.cycle} (${d.tier})`,
    referral_reward: (d) => `Level ${d.level} referral reward from ${d.from}`,
    withdrawal: (d) =>
      `Withdrawal of ${d.source === 'earning' ? cycleOf(d.cycle, d.tier) : d.source === 'rewards' ? 'referral rewards' : 'balance'} to ${d.wallet}`,
    withdrawal_fee: (d) => `Withdrawal fee (${WITHDRAWAL_FEE_PERCENT}%) on ${cycleOf(d.cycle, d.tier)}`,
    adjustment: () => 'Balance adjustment by an administrator',
    other: () => 'Other movement',
  },
  amount: (usdc, decimals) => formatUsdc(usdc, decimals, 6),
  fileName: (from, to) => `harvest-farm-statement-${from}-to-${to}`,
  screen: {
    periodLegend: 'Period',
    month: 'A month',
    custom: 'Custom dates',
    monthLabel: 'Month',
    fromLabel: 'From',
    toLabel: 'To',
    show: 'Show statement',
    downloadCsv: 'Download CSV',
    downloadPdf: 'Download PDF',
    preparing: 'Preparing...',
    downloaded: (name) => `Downloaded ${name}`,
    loading: 'Loading your statement',
    movements: (n) => `${n.toLocaleString('en-US')} ${n === 1 ? 'movement' : 'movements'}`,
    adminOpen: 'Download Statement',
    adminClose: 'Close Statement',
    format: 'Format',
    formatCsv: 'CSV (spreadsheet)',
    formatPdf: 'PDF (document)',
    download: 'Download',
  },
};

const TABLES: Record<StatementLocale, StatementTexts> = { en };

export function statementTexts(locale: StatementLocale = 'en'): StatementTexts {
  return TABLES[locale];
}

/** The description of one movement in the table's words. */
export function describeMovement(t: StatementTexts, d: MovementDetail): string {
  switch (d.kind) {
    case 'deposit':
      return t.movement.deposit(d);
    case 'investment':
      return t.movement.investment(d);
    case 'cycle_earning':
      return t.movement.cycle_earning(d);
    case 'referral_reward':
      return t.movement.referral_reward(d);
    case 'withdrawal':
      return t.movement.withdrawal(d);
    case 'withdrawal_fee':
      return t.movement.withdrawal_fee(d);
    case 'adjustment':
      return t.movement.adjustment(d);
    case 'other':
      return t.movement.other(d);
  }
}
