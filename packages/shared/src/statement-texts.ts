import { WITHDRAWAL_FEE_PERCENT } from './constants.ts';
import { formatUsdc } from './money.ts';
import type { StatementMovementKind } from './schemas/statements.ts';
import { english, type Translate } from './i18n.ts';

/**
 * Every text a statement of account shows (on screen, in the CSV and in the PDF), said with `t` in the reader's
 * language (docs/decisions/0075): the English here is the catalogue's key and the spec-like wording.
 */
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
  /** `approvedByTwo`: decided by two staff members (four-eyes); no staff member is named either way. */
  | { kind: 'adjustment'; approvedByTwo: boolean }
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
    movements: (n: number) => string;
    adminOpen: string;
    adminClose: string;
    format: string;
    formatCsv: string;
    formatPdf: string;
    download: string;
  };
}

export function statementTexts(t: Translate = english): StatementTexts {
  const cycleOf = (cycle: number | null, tier: string | null) =>
    tier
      ? t('cycle {cycle} earnings ({tier})', { cycle: cycle ?? '?', tier })
      : t('cycle {cycle} earnings', { cycle: cycle ?? '?' });
  return {
    platform: 'Harvest Farm',
    title: t('Statement of account'),
    investor: t('Investor'),
    email: t('E-mail'),
    period: t('Period'),
    periodRange: (from, to) => t('{from} to {to}', { from, to }),
    timeZone: t('Time zone'),
    generated: t('Generated'),
    openingBalance: t('Opening balance'),
    moneyIn: t('Money in'),
    moneyOut: t('Money out'),
    closingBalance: t('Closing balance'),
    scope: t(
      'The balance is the money you hold with Harvest Farm outside your invested principal: your USDC balance, referral rewards, cycle earnings not yet withdrawn, and withdrawals requested but not yet paid out.',
    ),
    noMovements: t('No money moved in this period.'),
    page: (n, of) => t('Page {n} of {of}', { n, of }),
    columns: {
      date: t('Date'),
      description: t('Description'),
      reference: t('Reference'),
      amount: t('Amount (USDC)'),
      balance: t('Balance (USDC)'),
    },
    movement: {
      deposit: () => t('Deposit'),
      investment: (d) => t('Investment in {tier}', { tier: d.tier }),
      cycle_earning: (d) => t('Earnings of cycle {cycle} ({tier})', { cycle: d.cycle, tier: d.tier }),
      referral_reward: (d) => t('Level {level} referral reward from {from}', { level: d.level, from: d.from }),
      withdrawal: (d) =>
        d.source === 'earning'
          ? t('Withdrawal of {what} to {wallet}', { what: cycleOf(d.cycle, d.tier), wallet: d.wallet })
          : d.source === 'rewards'
            ? t('Withdrawal of referral rewards to {wallet}', { wallet: d.wallet })
            : t('Withdrawal of balance to {wallet}', { wallet: d.wallet }),
      withdrawal_fee: (d) =>
        t('Withdrawal fee ({percent}%) on {what}', {
          percent: String(WITHDRAWAL_FEE_PERCENT),
          what: cycleOf(d.cycle, d.tier),
        }),
      adjustment: (d) =>
        d.approvedByTwo
          ? t('Balance adjustment approved by two staff members')
          : t('Balance adjustment by an administrator'),
      other: () => t('Other movement'),
    },
    amount: (usdc, decimals) => formatUsdc(usdc, decimals, 6),
    fileName: (from, to) => `harvest-farm-statement-${from}-to-${to}`,
    screen: {
      periodLegend: t('Period'),
      month: t('A month'),
      custom: t('Custom dates'),
      monthLabel: t('Month'),
      fromLabel: t('From'),
      toLabel: t('To'),
      show: t('Show statement'),
      downloadCsv: t('Download CSV'),
      downloadPdf: t('Download PDF'),
      preparing: t('Preparing...'),
      downloaded: (name) => t('Downloaded {name}', { name }),
      movements: (n) => (n === 1 ? t('1 movement') : t('{n} movements', { n })),
      adminOpen: t('Download Statement'),
      adminClose: t('Close Statement'),
      format: t('Format'),
      formatCsv: t('CSV (spreadsheet)'),
      formatPdf: t('PDF (document)'),
      download: t('Download'),
    },
  };
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
