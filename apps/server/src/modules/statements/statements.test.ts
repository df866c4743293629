import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { formatUsdc, microToText, microToUsdc, parseUsdc } from '@harvest/shared/money';
import { statementTexts } from '@harvest/shared/statement-texts';
import {
  call,
  createTestApp,
  csvLines,
  expectLedgerClean,
  makeUser,
  type TestApp,
  type TestUser,
  sessionToken,
} from '../../../test/helpers.ts';
import { addTier } from '../../../test/support/investments.ts';
import { rawRows } from '../../db/raw.ts';
import { inTransaction } from '../../db/tx.ts';
import { translator } from '../../lib/i18n.ts';
import { userBalances } from '../../ledger/ledger.ts';
import { statementPdf } from './statement-pdf.ts';
import { STATEMENT_ACCOUNTS } from './statements.queries.ts';
import type { StatementData } from './statements.service.ts';

/**
 * Statements of account: a month in which every kind of money movement happened through
 * the API, in the platform's time zone (Tokyo: a movement at 2026-10-31T16:00Z is on November 1st there),
 * downloaded as JSON, CSV and PDF (its text parsed) and compared with the ledger to the micro-USDC; who may
 * read whose; the administrator's downloads audited; bad input; a month of many movements (its time is a row of
 * `npm run bench`, not a test).
 */
let t: TestApp;
let admin: TestUser;
let ada: TestUser;
let ben: TestUser;
const TZ = 'Asia/Tokyo';
const NOV = { from: '2026-11-01', to: '2026-11-30' };
const hash = () => `0x${randomBytes(32).toString('hex')}`;
const WALLET = '0x2222222222222222222222222222222222222222';

const at = (iso: string) => t.clock.set(new Date(iso));
const tok = (u: TestUser) => sessionToken(t, u.user.id, u.user.tokenVersion);
const as = async (u: TestUser, method: 'GET' | 'POST', url: string, body?: unknown) => {
  const res = await call(t, method, url, { token: await tok(u), body });
  return res;
};
const ok = async (p: ReturnType<typeof as>) => {
  const res = await p;
  expect(res.statusCode, res.body).toBe(200);
  return res;
};
const statement = (u: TestUser, q: string) => as(u, 'GET', `/api/user/statement?${q}`);

async function deposit(u: TestUser, amount: string, approveAt: string) {
  const sub = await ok(
    as(u, 'POST', '/api/user/process-deposit', { txHash: hash(), amount, fromAddress: `0x${'ab'.repeat(20)}` }),
  );
  at(approveAt);
  await ok(as(admin, 'POST', '/api/admin/process-deposit', { depositId: sub.data.deposit._id }));
  return sub.data.deposit._id as string;
}

/** The covered accounts' entries summed over ledger transactions booked before `before` (the ledger's own answer). */
async function ledgerSum(userId: string, before: string): Promise<bigint> {
  const [row] = await rawRows<{ s: string | null }>(
    t.ctx.db,
    sql`SELECT sum(e.amount)::text AS s FROM ledger_entries e
        JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions x ON x.id = e.transaction_id
        WHERE a.user_id = ${userId}::uuid AND a.kind IN (${sql.join(
          STATEMENT_ACCOUNTS.map((k) => sql`${k}`),
          sql`, `,
        )}) AND x.created_at < ${before}::timestamptz`,
  );
  return BigInt(row?.s ?? 0);
}
/** Exact micro-USDC of an amount, a JSON number or a CSV cell's text, minus sign included. */
const micro = (v: number | string) => {
  const s = String(v);
  const m = parseUsdc(s.replace(/^-/, ''));
  if (m === null) throw new Error(`not an amount: ${s}`);
  return s.startsWith('-') ? -m : m;
};

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_TIMEZONE: TZ });
  admin = await makeUser(t, { isAdmin: true });
  ada = await makeUser(t, { firstName: 'Ada', lastName: 'Lovelace-Byron' });
  ben = await makeUser(t, { firstName: 'Ben', lastName: 'Referred', referrerId: ada.user.id });
  await addTier(t, 'Statement Gold', '2000', 15_000); // 1.5% a day
  await addTier(t, 'Statement Seed', '300', 10_000);

  // October (before the period): a deposit of 5,000.
  at('2026-10-27T01:00:00Z');
  await deposit(ada, '5000', '2026-10-28T01:00:00Z');
  // Sunday 2026-11-01 01:00 in Tokyo (still October 31st in UTC): a deposit of 1,000.123456.
  await deposit(ada, '1000.123456', '2026-10-31T16:00:00Z');
  // Monday: an investment, a cycle run and completed (1.5% of 2,000 = 30).
  at('2026-11-02T01:00:00Z');
  await ok(as(ada, 'POST', '/api/user/invest', { amount: 2000 }));
  const [inv] = await rawRows<{ id: string }>(
    t.ctx.db,
    sql`SELECT id::text AS id FROM investments WHERE user_id = ${ada.user.id}::uuid`,
  );
  await ok(as(ada, 'POST', '/api/user/start-earning', { investmentId: inv?.id }));
  at('2026-11-02T09:30:00Z');
  await ok(as(ada, 'POST', '/api/user/complete-cycle', { investmentId: inv?.id }));
  // Tuesday: Ben invests 300; Ada earns the level-1 reward of 30.
  at('2026-11-03T02:00:00Z');
  await deposit(ben, '300', '2026-11-03T02:05:00Z');
  await ok(as(ben, 'POST', '/api/user/invest', { amount: 300 }));
  // Wednesday: Withdraw All (the earning with its 15% fee, the rewards, the balance); two paid, one rejected.
  at('2026-11-04T03:00:00Z');
  await ok(
    as(ada, 'POST', '/api/withdrawal/request-all', {
      walletAddress: WALLET,
      withdrawalPassword: ada.withdrawalPassword,
    }),
  );
  const ws = await rawRows<{ id: string; source: string }>(
    t.ctx.db,
    sql`SELECT id::text AS id, source FROM withdrawals WHERE user_id = ${ada.user.id}::uuid`,
  );
  at('2026-11-05T04:00:00Z');
  for (const w of ws) {
    if (w.source === 'balance')
      await ok(as(admin, 'POST', '/api/withdrawal/admin/reject', { withdrawalId: w.id, notes: 'wrong wallet' }));
    else
      await ok(as(admin, 'POST', '/api/withdrawal/admin/approve', { withdrawalId: w.id, txHash: hash(), notes: '' }));
  }
  // Friday: the administrator sets the balance up, then down.
  at('2026-11-06T05:00:00Z');
  const balance = (await userBalances(t.ctx.db, ada.user.id)).balance;
  await ok(
    as(admin, 'POST', '/api/admin/update-user-balance', {
      userId: ada.user.id,
      newBalance: Number(microToText(balance + 250_000_000n)),
      note: 'goodwill',
    }),
  );
  at('2026-11-06T06:00:00Z');
  await ok(
    as(admin, 'POST', '/api/admin/update-user-balance', {
      userId: ada.user.id,
      newBalance: Number(microToText(balance + 200_000_000n)),
      note: 'correction',
    }),
  );
  // December (after the period): another deposit.
  at('2026-11-30T15:30:00Z'); // 2026-12-01 00:30 in Tokyo
  await deposit(ada, '77', '2026-11-30T15:30:00Z');
  at('2026-12-02T00:00:00Z');
});
afterAll(() => t?.close());

describe('GET /api/user/statement: a month with every kind of movement', () => {
  it('JSON: opening + movements = closing, equal to the ledger to the micro-USDC, every kind in order', async () => {
    const res = await statement(ada, `from=${NOV.from}&to=${NOV.to}`);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.data;
    expect(s).toMatchObject({
      from: NOV.from,
      to: NOV.to,
      timeZone: TZ,
      investor: { name: 'Ada Lovelace-Byron', email: ada.user.email },
    });
    // The period is [Nov 1 00:00, Dec 1 00:00) in Tokyo.
    const opening = await ledgerSum(ada.user.id, '2026-10-31T15:00:00Z');
    const closing = await ledgerSum(ada.user.id, '2026-11-30T15:00:00Z');
    expect(opening).toBe(5_000_000_000n);
    expect(micro(s.openingBalance)).toBe(opening);
    expect(micro(s.closingBalance)).toBe(closing);
    const sum = s.movements.reduce((a: bigint, m: { amount: number }) => a + micro(m.amount), 0n);
    expect(opening + sum).toBe(closing);
    expect(micro(s.moneyIn) - micro(s.moneyOut)).toBe(sum);
    // Now (December) the covered accounts hold the closing balance plus December's 77.
    const now = await userBalances(t.ctx.db, ada.user.id);
    expect(now.balance + now.rewards + now.earnings + now.pending_withdrawal).toBe(closing + 77_000_000n);

    const lines = s.movements.map((m: { kind: string; amount: number; description: string }) => [
      m.kind,
      m.amount,
      m.description,
    ]);
    expect(lines.slice(0, 4)).toEqual([
      ['deposit', 1000.123456, 'Deposit'],
      ['investment', -2000, 'Investment in Statement Gold'],
      ['cycle_earning', 30, 'Earnings of cycle 1 (Statement Gold)'],
      ['referral_reward', 30, 'Level 1 referral reward from Ben Referred'],
    ]);
    // The two payouts of one moment (the earning's as what was sent and the fee kept), in either order.
    expect(lines.slice(4, 7)).toEqual(
      expect.arrayContaining([
        ['withdrawal', -25.5, `Withdrawal of cycle 1 earnings (Statement Gold) to ${WALLET}`],
        ['withdrawal_fee', -4.5, 'Withdrawal fee (15%) on cycle 1 earnings (Statement Gold)'],
        ['withdrawal', -30, `Withdrawal of referral rewards to ${WALLET}`],
      ]),
    );
    expect(lines.slice(7)).toEqual([
      ['adjustment', 250, 'Balance adjustment by an administrator'],
      ['adjustment', -50, 'Balance adjustment by an administrator'],
    ]);
    expect(lines).toHaveLength(9);
    // Running balances: each line's balance is the one before plus its amount.
    let run = opening;
    for (const m of s.movements) {
      run += micro(m.amount);
      expect(micro(m.balance)).toBe(run);
    }
    // References: the chain's hashes for the deposit and payouts, the record's id otherwise.
    const [dep] = await rawRows<{ tx_hash: string }>(
      t.ctx.db,
      sql`SELECT tx_hash FROM deposits WHERE user_id = ${ada.user.id}::uuid AND amount = 1000123456`,
    );
    expect(s.movements[0].reference).toBe(dep?.tx_hash);
    const payouts = await rawRows<{ tx_hash: string }>(
      t.ctx.db,
      sql`SELECT tx_hash FROM withdrawals WHERE user_id = ${ada.user.id}::uuid AND status = 'approved'`,
    );
    for (const m of s.movements.filter((x: { kind: string }) => x.kind.startsWith('withdrawal')))
      expect(payouts.map((p) => p.tx_hash)).toContain(m.reference);
    await expectLedgerClean(t);
  });

  it('CSV: the same lines with exact amounts, opening and closing lines, injection-safe cells', async () => {
    const json = (await statement(ada, `from=${NOV.from}&to=${NOV.to}`)).data;
    const res = await statement(ada, `from=${NOV.from}&to=${NOV.to}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="harvest-farm-statement-2026-11-01-to-2026-11-30.csv"',
    );
    const rows = csvLines(res.body);
    expect(rows[0]).toBe('Date,Description,Reference,Amount (USDC),Balance (USDC)');
    expect(rows[1]).toBe(`2026-11-01,Opening balance,,,${microToText(micro(json.openingBalance))}`);
    expect(rows.at(-1)).toBe(`2026-11-30,Closing balance,,,${microToText(micro(json.closingBalance))}`);
    expect(rows).toHaveLength(json.movements.length + 3);
    // Money out is a plain negative number, as a spreadsheet reads one (no ' in front).
    expect(rows[2]).toBe(`2026-11-01 01:00,Deposit,${json.movements[0].reference},1000.123456,6000.123456`);
    expect(rows[3]).toBe(
      `2026-11-02 10:00,Investment in Statement Gold,${json.movements[1].reference},-2000,4000.123456`,
    );
    // Opened by a CSV parser: every amount is a number, and the column sums to money in minus money out.
    const table: string[][] = parse(res.body);
    const amounts = table.slice(2, -1).map((r) => r[3] ?? '');
    expect(amounts).toEqual(json.movements.map((m: { amount: number }) => microToText(micro(m.amount))));
    for (const a of amounts) expect(a).toMatch(/^-?\d+(\.\d+)?$/);
    const sum = amounts.reduce((acc, a) => acc + micro(a), 0n);
    expect(sum).toBe(micro(json.moneyIn) - micro(json.moneyOut));
    expect(sum).toBe(micro(json.closingBalance) - micro(json.openingBalance));
    expect(table.slice(1).map((r) => r[4])).toEqual([
      microToText(micro(json.openingBalance)),
      ...json.movements.map((m: { balance: number }) => microToText(micro(m.balance))),
      microToText(micro(json.closingBalance)),
    ]);
  });

  it('PDF: its text, parsed, names the platform, the investor, the period and pages, and every figure of the ledger', async () => {
    const json = (await statement(ada, `from=${NOV.from}&to=${NOV.to}`)).data;
    const res = await statement(ada, `from=${NOV.from}&to=${NOV.to}&format=pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="harvest-farm-statement-2026-11-01-to-2026-11-30.pdf"',
    );
    const pages = await pdfText(res.rawPayload);
    expect(pages).toHaveLength(1);
    const text = pages.join('\n');
    for (const s of [
      'Harvest Farm',
      'Statement of account',
      'Ada Lovelace-Byron',
      ada.user.email,
      '2026-11-01 to 2026-11-30',
      TZ,
      'Page 1 of 1',
      'Opening balance (USDC)',
      'Money in (USDC)',
      'Money out (USDC)',
      'Closing balance (USDC)',
      formatUsdc(json.openingBalance, 4, 6),
      formatUsdc(json.moneyIn, 2, 6),
      formatUsdc(-json.moneyOut, 2, 6),
      formatUsdc(json.closingBalance, 4, 6),
    ])
      expect(text).toContain(s);
    expect(formatUsdc(json.openingBalance, 4, 6)).toBe('5,000.0000');
    for (const m of json.movements) {
      expect(text).toContain(m.description.slice(0, 30));
      expect(text).toContain(formatUsdc(m.amount, 2, 6));
      expect(text).toContain(formatUsdc(m.balance, 4, 6));
    }
  });

  it('a period before the money and the days of another time zone: October in Tokyo holds only the first deposit', async () => {
    const res = await statement(ada, 'from=2026-10-01&to=2026-10-31');
    expect(res.data.openingBalance).toBe(0);
    expect(res.data.movements.map((m: { amount: number }) => m.amount)).toEqual([5000]);
    expect(res.data.closingBalance).toBe(5000);
    const empty = await statement(ada, 'from=2026-09-01&to=2026-09-30&format=pdf');
    expect((await pdfText(empty.rawPayload)).join('\n')).toContain('No money moved in this period.');
  });
});

describe("in the reader's language and script", () => {
  const pdfOf = async (u: TestUser) =>
    (await ok(statement(u, `from=${NOV.from}&to=${NOV.to}&format=pdf`))).rawPayload as Buffer;
  const speaks = async (u: TestUser, locale: string) =>
    ok(call(t, 'PUT', '/api/user/preferences', { token: await tok(u), body: { locale } }));

  it('a Cyrillic, Chinese, Turkish, Japanese or Korean name is drawn as written; a letter no font has (an emoji) is "?", not a box', async () => {
    for (const [firstName, lastName, drawn] of [
      ['Иван', 'Петров-Müller', 'Иван Петров-Müller'],
      ['张伟', 'Chen', '张伟 Chen'],
      ['Анна', '张伟', 'Анна 张伟'],
      ['Şükrü', 'Öztürk', 'Şükrü Öztürk'],
      ['さくら', '山田', 'さくら 山田'],
      ['서연', '김', '서연 김'],
      ['Ann', 'Farmer 🌾', 'Ann Farmer ?'],
    ] as const) {
      const u = await makeUser(t, { firstName, lastName });
      expect((await statement(u, `from=${NOV.from}&to=${NOV.to}`)).data.investor.name).toBe(`${firstName} ${lastName}`);
      // A name in two scripts is drawn in two fonts: two pieces of text, read as one line.
      const page = (await pdfText(await pdfOf(u)))[0]?.replace(/\s+/g, ' ');
      expect(page).toContain(drawn);
      expect(page).toContain(`Statement of account · ${drawn}`);
    }
  });

  it('an Arabic name on an English statement reads from the right: its first word is drawn right of its second', async () => {
    const u = await makeUser(t, { firstName: 'عبد', lastName: 'الرحمن' });
    const items = (await pdfItems(await pdfOf(u))).filter((i) => i.str === 'عبد' || i.str === 'الرحمن');
    // The heading's and the footer's: each time the first name is to the right.
    expect(items.map((i) => i.str)).toEqual(['الرحمن', 'عبد', 'الرحمن', 'عبد']);
    expect(items[1]!.x).toBeGreaterThan(items[0]!.x);
    expect(items[3]!.x).toBeGreaterThan(items[2]!.x);
  });

  it.each(['ru', 'tr', 'zh-CN', 'es', 'pt-BR'])(
    '%s: the PDF is in that language, its figures the ledger’s',
    async (locale) => {
      await speaks(ada, locale);
      try {
        const json = (await statement(ada, `from=${NOV.from}&to=${NOV.to}`)).data;
        const words = statementTexts(translator(locale));
        const text = (await pdfText(await pdfOf(ada))).join('\n');
        expect(words.title).not.toBe('Statement of account');
        for (const s of [
          words.title,
          words.investor,
          words.periodRange(NOV.from, NOV.to),
          words.page(1, 1),
          `${words.openingBalance} (USDC)`,
          `${words.closingBalance} (USDC)`,
          words.columns.description,
          formatUsdc(json.openingBalance, 4, 6),
          formatUsdc(json.closingBalance, 4, 6),
        ])
          expect(text).toContain(s);
        for (const m of json.movements) {
          expect(text).toContain(m.description.split(' ')[0]);
          expect(text).toContain(formatUsdc(m.amount, 2, 6));
        }
        expect(text).not.toContain('Statement of account');
        expect(text).not.toContain('?');
      } finally {
        await speaks(ada, 'en');
      }
    },
  );

  it('ar: the PDF is in Arabic and reads from the right: the first column and the first word are rightmost', async () => {
    await speaks(ada, 'ar');
    try {
      const json = (await statement(ada, `from=${NOV.from}&to=${NOV.to}`)).data;
      const words = statementTexts(translator('ar'));
      const items = await pdfItems(await pdfOf(ada));
      const x = (str: string) => {
        const found = items.find((i) => i.str === str);
        expect(found, str).toBeDefined();
        return found!.x;
      };
      // Each word of a text is drawn on its own, the first rightmost.
      const [first, second] = words.title.split(' ');
      expect(x(first!)).toBeGreaterThan(x(second!));
      expect(x(words.columns.date)).toBeGreaterThan(x(words.columns.description.split(' ')[0]!));
      expect(x(words.columns.description.split(' ')[0]!)).toBeGreaterThan(x(words.columns.reference.split(' ')[0]!));
      // Numbers keep their own order: the balance column is leftmost.
      const closing = formatUsdc(json.closingBalance, 4, 6);
      expect(x(closing)).toBeLessThan(x(words.columns.date));
      for (const m of json.movements) expect(items.some((i) => i.str === formatUsdc(m.amount, 2, 6))).toBe(true);
      expect(items.some((i) => i.str === 'Statement')).toBe(false);
    } finally {
      await speaks(ada, 'en');
    }
  });
});

describe('who may read whose statement', () => {
  it('an investor reads only their own: the route names no user, and a user id is refused', async () => {
    const mine = await statement(ben, `from=${NOV.from}&to=${NOV.to}`);
    expect(mine.data.investor.email).toBe(ben.user.email);
    expect(mine.data.movements.map((m: { kind: string }) => m.kind)).toEqual(['deposit', 'investment']);
    const other = await statement(ben, `from=${NOV.from}&to=${NOV.to}&userId=${ada.user.id}`);
    expect(other.statusCode).toBe(400);
    expect(other.data.code).toBe('validation');
  });

  it("an investor cannot use the administrator's route (403), and no session gets 401", async () => {
    const res = await as(ben, 'GET', `/api/admin/users/${ada.user.id}/statement?from=${NOV.from}&to=${NOV.to}`);
    expect(res.statusCode).toBe(403);
    expect(JSON.stringify(res.data)).not.toContain('Lovelace');
    expect((await call(t, 'GET', `/api/user/statement?from=${NOV.from}&to=${NOV.to}`)).statusCode).toBe(401);
  });

  it('an administrator downloads any user’s statement in the three formats, each audited; an unknown user is 404', async () => {
    const before = await auditRows();
    const base = `/api/admin/users/${ada.user.id}/statement?from=${NOV.from}&to=${NOV.to}`;
    const own = (await statement(ada, `from=${NOV.from}&to=${NOV.to}`)).data;
    const json = await ok(as(admin, 'GET', base));
    expect({ ...json.data, generatedAt: '' }).toEqual({ ...own, generatedAt: '' });
    const csv = await ok(as(admin, 'GET', `${base}&format=csv`));
    expect(csvLines(csv.body)).toHaveLength(own.movements.length + 3);
    const pdf = await ok(as(admin, 'GET', `${base}&format=pdf`));
    expect((await pdfText(pdf.rawPayload)).join('\n')).toContain(ada.user.email);
    const rows = (await auditRows()).slice(before.length);
    expect(rows.map((r) => [r.action, r.target_type, r.target_id, r.admin_id, r.after])).toEqual(
      ['json', 'csv', 'pdf'].map((format) => [
        'statement_download',
        'user',
        ada.user.id,
        admin.user.id,
        { from: NOV.from, to: NOV.to, format, movements: own.movements.length },
      ]),
    );
    const missing = await as(admin, 'GET', `/api/admin/users/${randomUUID()}/statement?from=${NOV.from}&to=${NOV.to}`);
    expect(missing.statusCode).toBe(404);
    const notId = await as(admin, 'GET', `/api/admin/users/nope/statement?from=${NOV.from}&to=${NOV.to}`);
    expect(notId.statusCode).toBe(404);
    // The investor's own reads are not administrator actions: no audit rows for them.
    expect((await auditRows()).length).toBe(before.length + 3);
  });
});

describe('bad input: a clear 400 and nothing else', () => {
  const cases: [string, string][] = [
    ['from=2026-11-01', MSG.statementDate],
    ['to=2026-11-30', MSG.statementDate],
    ['from=&to=', MSG.statementDate],
    ['from=2026-11-01&to=2026-11-31', MSG.statementDate],
    ['from=2026-02-29&to=2026-03-01', MSG.statementDate],
    ['from=01/11/2026&to=2026-11-30', MSG.statementDate],
    ['from=2026-11-30&to=2026-11-01', MSG.statementOrder],
    ['from=2025-01-01&to=2026-01-02', MSG.statementTooLong],
    ['from=2026-11-01&to=2026-11-30&format=xml', MSG.statementFormat],
  ];
  it.each(cases)('%s', async (q, message) => {
    const before = await auditRows();
    const res = await statement(ada, q);
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ error: message, code: 'validation' });
    const adm = await as(admin, 'GET', `/api/admin/users/${ada.user.id}/statement?${q}`);
    expect(adm.data).toEqual({ error: message, code: 'validation' });
    expect(await auditRows()).toHaveLength(before.length);
  });
  it('no dates at all: the current month of the platform calendar (Tokyo: 2026-12-02 09:00 there)', async () => {
    const res = await statement(ada, '');
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      from: '2026-12-01',
      to: '2026-12-31',
      closingBalance: res.data.openingBalance + 77,
    });
  });
  it('366 days are one statement (a leap year, or a year and a day)', async () => {
    expect((await statement(ada, 'from=2028-01-01&to=2028-12-31')).statusCode).toBe(200);
    expect((await statement(ada, 'from=2025-01-01&to=2026-01-01')).statusCode).toBe(200);
  });
});

/** The largest statements of this file: time enough for them on a loaded machine (a timeout, not a speed target). */
const HEAVY = 120_000;

describe('a limit per client address', { timeout: HEAVY }, () => {
  it('60 statements in 10 minutes, then 429 with Retry-After', async () => {
    const limited = await createTestApp({ RATE_LIMITS: 'on' });
    try {
      const u = await makeUser(limited);
      const get = () => call(limited, 'GET', `/api/user/statement?from=${NOV.from}&to=${NOV.to}`, { token: u.token });
      for (let i = 0; i < 60; i++) expect((await get()).statusCode).toBe(200);
      const refused = await get();
      expect(refused.statusCode).toBe(429);
      expect(refused.data.code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('a month of many movements', { timeout: HEAVY }, () => {
  it('300 movements, 900 in the months before: all of them, the ledger’s closing balance, every PDF page numbered', async () => {
    const u = await makeUser(t, { firstName: 'Busy', lastName: 'Investor' });
    await inTransaction(t.ctx.db, async (tx) => {
      const [tier] = await rawRows<{ id: string }>(tx, sql`SELECT id::text AS id FROM tiers LIMIT 1`);
      const inv = randomUUID();
      await tx.execute(sql`INSERT INTO investments (id, user_id, tier_id, tier_name, amount, daily_rate_scaled, created_at)
        VALUES (${inv}::uuid, ${u.user.id}::uuid, ${tier?.id}::uuid, 'Busy Tier', 1000000000, 15000, '2026-01-01T00:00:00Z')`);
      // Earnings every 2 hours: 900 from 2026-08-02 on, then 300 in November (Tokyo time).
      await tx.execute(sql`INSERT INTO cycle_earnings (investment_id, user_id, cycle_number, gross_amount, created_at)
        SELECT ${inv}::uuid, ${u.user.id}::uuid, n, 1000000 + n,
          CASE WHEN n <= 900 THEN timestamptz '2026-08-02T00:00:00Z' + n * interval '2 hours'
               ELSE timestamptz '2026-10-31T15:00:00Z' + (n - 900) * interval '2 hours' END
        FROM generate_series(1, 1200) AS n`);
      const { postMany, rowTransfers } = await import('../../ledger/ledger.ts');
      await postMany(
        tx,
        rowTransfers('cycle_earning', 'cycle_earnings', {
          where: sql`t.investment_id = ${inv}::uuid`,
          amount: sql`t.gross_amount`,
          from: 'platform_earning_expense',
          to: 'earnings',
        }),
      );
    });
    const res = await statement(u, `from=${NOV.from}&to=${NOV.to}`);
    expect(res.statusCode).toBe(200);
    expect(res.data.movements).toHaveLength(300);
    expect(micro(res.data.closingBalance)).toBe(await ledgerSum(u.user.id, '2026-11-30T15:00:00Z'));
    // The PDF in a Latin, an Arabic (drawn word by word) and a Chinese (another font) reader's language.
    for (const locale of ['en', 'ar', 'zh-CN']) {
      await ok(call(t, 'PUT', '/api/user/preferences', { token: await tok(u), body: { locale } }));
      const pdf = await statement(u, `from=${NOV.from}&to=${NOV.to}&format=pdf`);
      const pages = await pdfText(pdf.rawPayload);
      expect(pages.length).toBeGreaterThan(3);
      const words = statementTexts(translator(locale));
      pages.forEach((p, i) =>
        expect(p).toContain(
          locale === 'ar' ? words.page(i + 1, pages.length).split(' ')[0] : words.page(i + 1, pages.length),
        ),
      );
      expect(pages.join('\n')).toContain(formatUsdc(microToUsdc(1_000_000n + 1200n), 2, 6));
    }
  });
});

describe('PDFs of many movements share the event loop', { timeout: HEAVY }, () => {
  /** A statement of `n` movements built in memory; `onRow` runs as each row is drawn (it reads the row's reference). */
  const madeUp = (n: number, onRow = () => {}): StatementData => ({
    ...NOV,
    timeZone: TZ,
    generatedAt: new Date('2026-12-02T00:00:00Z'),
    investor: { name: 'Busy Investor', email: 'busy@example.com' },
    locale: 'en',
    opening: 0n,
    moneyIn: BigInt(n) * 1_000_000n,
    moneyOut: 0n,
    closing: BigInt(n) * 1_000_000n,
    lines: Array.from({ length: n }, (_, i) => ({
      at: new Date('2026-11-03T05:05:00Z'),
      localAt: '2026-11-03 14:05',
      detail: { kind: 'cycle_earning', tier: 'Busy Tier', cycle: i + 1 },
      get reference() {
        onRow();
        return `0x${'ab'.repeat(32)}`;
      },
      amount: 1_000_000n,
      balance: BigInt(i + 1) * 1_000_000n,
    })),
  });

  it('3,000 movements: the loop turns (a setImmediate chain started first runs) at least once every 10 rows', async () => {
    let turns = 0;
    let rendering = true;
    const turn = () => {
      turns++;
      if (rendering) setImmediate(turn);
    };
    setImmediate(turn);
    const turnsAtRow: number[] = [];
    await statementPdf(madeUp(3000, () => turnsAtRow.push(turns)));
    rendering = false;
    expect(turnsAtRow).toHaveLength(3000);
    expect(turnsAtRow.flatMap((n, i) => (i >= 10 && n === turnsAtRow[i - 10] ? [i] : []))).toEqual([]);
  });

  it('at most two are rendered at once; the others wait their turn', async () => {
    const finished: string[] = [];
    const render = (name: string, n: number) => statementPdf(madeUp(n)).then(() => finished.push(name));
    await Promise.all([render('long', 600), render('shorter', 150), render('empty', 0)]);
    // All at once, the empty one would finish first; one at a time, last. Two at once: it starts when the shorter
    // one is done, and is done long before the long one.
    expect(finished).toEqual(['shorter', 'empty', 'long']);
  });
});

async function auditRows() {
  return rawRows<{ action: string; target_type: string; target_id: string; admin_id: string; after: unknown }>(
    t.ctx.db,
    sql`SELECT action, target_type, target_id, admin_id::text AS admin_id, after FROM audit_log ORDER BY id`,
  );
}

/** The pieces of text on a PDF's first page, each with where it starts from the left. */
async function pdfItems(data: Buffer): Promise<{ str: string; x: number }[]> {
  const pdf = await getDocument({ data: new Uint8Array(data), verbosity: 0 }).promise;
  const content = await (await pdf.getPage(1)).getTextContent();
  return content.items.flatMap((it) =>
    'str' in it && it.str.trim() ? [{ str: it.str, x: it.transform[4] as number }] : [],
  );
}

/** The text of each page of a PDF, as a reader extracts it. */
async function pdfText(data: Buffer): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(data), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join('\n'));
  }
  return pages;
}
