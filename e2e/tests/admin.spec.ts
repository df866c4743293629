import { readFileSync } from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import {
  openTab,
  randomTxHash,
  signIn,
  signUpInvestor,
  tokenFor,
  type Person,
  toast,
  stat,
} from '../support/people.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * The back office as an administrator sees it, on a small platform built through the API on the test
 * clock: an investor who joined 20 days ago with a confirmed deposit, an investor with a
 * deposit, an investment, a completed cycle and pending withdrawals, and a third person with
 * a pending deposit.
 */

const EARLIER = '2026-10-27T10:00:00Z'; // a Tuesday, 20 days before
// A past Monday: the administrator's own account is dated by the real clock, so "today" on the test
// clock must never be the real day (it would count as a registration of the test's today).
const MONDAY_9 = '2026-11-16T09:00:00Z';
const MONDAY_17 = '2026-11-16T17:00:30Z';
const FROM = '0x1111111111111111111111111111111111111111';

async function csvHeader(download: Download): Promise<{ name: string; lines: string[] }> {
  const file = await download.path();
  const lines = readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter(Boolean);
  return { name: download.suggestedFilename(), lines };
}

test.describe('admin back office', () => {
  test.describe.configure({ mode: 'serial' });

  let app: RunningApp;
  let page: Page;
  let olga: Person; // joined 20 days ago, invited Ada
  let ada: Person; // invested, has pending withdrawals
  let ben: Person; // pending deposit

  test.beforeAll(async ({ browser }) => {
    app = await startApp();
    await app.setClock(EARLIER);
    let admin = await tokenFor(app, ADMIN);
    const ok = (r: { status: number; data: unknown }, what: string) => {
      if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.data)}`);
      return r.data;
    };
    const approveDeposit = async (token: string, amount: number) => {
      const d = ok(
        await app.api('POST', '/user/process-deposit', {
          token,
          body: { txHash: randomTxHash(), amount, fromAddress: FROM },
        }),
        'deposit',
      ) as { deposit: { _id: string } };
      ok(
        await app.api('POST', '/admin/process-deposit', { token: admin, body: { depositId: d.deposit._id } }),
        'approve',
      );
    };

    olga = await signUpInvestor(app, { firstName: 'Olga', lastName: 'Older', inviterToken: admin });
    await approveDeposit(olga.token, 40);

    // Twenty days later the sessions of then have expired: sign in again.
    await app.setClock(MONDAY_9);
    admin = await tokenFor(app, ADMIN);
    olga.token = await tokenFor(app, olga);
    ada = await signUpInvestor(app, { firstName: 'Ada', lastName: 'Active', inviterToken: olga.token });
    ben = await signUpInvestor(app, { firstName: 'Ben', lastName: 'Pending', inviterToken: admin });
    await approveDeposit(ada.token, 200);
    ok(
      await app.api('POST', '/user/process-deposit', {
        token: ben.token,
        body: { txHash: randomTxHash(), amount: 12, fromAddress: FROM },
      }),
      'ben deposit',
    );
    ok(await app.api('POST', '/user/invest', { token: ada.token, body: { amount: 100 } }), 'invest');
    const inv = (
      ok(await app.api('GET', '/user/dashboard', { token: ada.token }), 'dashboard') as {
        activeInvestments: { _id: string }[];
      }
    ).activeInvestments[0]?._id;
    ok(await app.api('POST', '/user/start-earning', { token: ada.token, body: { investmentId: inv } }), 'start');
    await app.setClock(MONDAY_17);
    ok(await app.api('POST', '/user/complete-cycle', { token: ada.token, body: { investmentId: inv } }), 'complete');
    ok(
      await app.api('POST', '/withdrawal/request-all', {
        token: ada.token,
        body: {
          walletAddress: '0x2222222222222222222222222222222222222222',
          withdrawalPassword: ada.withdrawalPassword,
        },
      }),
      'request-all',
    );

    page = await (await browser.newContext({ acceptDownloads: true })).newPage();
    await signIn(page, app, ADMIN);
  });
  test.afterAll(async () => {
    await page?.context().close();
    await app?.stop();
  });

  test('overview: totals, pending counts, recent deposits and withdrawals, CSV exports', async () => {
    await openTab(page, 'Admin');
    await expect(stat(page, 'Total Users')).toHaveText('4'); // the admin and three investors
    await expect(stat(page, 'Total Deposits')).toHaveText('240.00 USDC');
    await expect(stat(page, 'Total Investments')).toHaveText('100.00 USDC');
    await expect(stat(page, 'Pending Deposits')).toHaveText('1');
    await expect(stat(page, 'Pending Withdrawals')).toHaveText('2'); // the cycle earning and Ada's balance

    const recentDeposits = page.locator('section', { has: page.getByRole('heading', { name: 'Recent Deposits' }) });
    await expect(recentDeposits.getByRole('listitem')).toHaveCount(3);
    await expect(recentDeposits.getByRole('listitem').filter({ hasText: 'Ben Pending' })).toContainText('12.00 USDC');
    await expect(recentDeposits.getByRole('listitem').filter({ hasText: 'Ben Pending' })).toContainText('pending');
    const recentWithdrawals = page.locator('section', {
      has: page.getByRole('heading', { name: 'Recent Withdrawals' }),
    });
    await expect(recentWithdrawals.getByRole('listitem').filter({ hasText: 'Ada Active' })).toHaveCount(2);
    await expect(recentWithdrawals).toContainText('1.50 USDC');
    await expect(recentWithdrawals).toContainText('100.00 USDC');

    // CSV downloads, the current filter applied.
    const exportsCard = page.locator('section', { has: page.getByRole('heading', { name: 'Exports' }) });
    let dl = page.waitForEvent('download');
    await exportsCard.getByRole('button', { name: 'Deposits CSV' }).click();
    let csv = await csvHeader(await dl);
    expect(csv.name).toBe('deposits-2026-11-16.csv');
    expect(csv.lines[0]).toBe(
      'id,created_at,status,type,amount_usdc,tx_hash,from_address,confirmations,processed_at,failure_reason,note,user_id,user_email,user_first_name,user_last_name',
    );
    expect(csv.lines).toHaveLength(4);

    await exportsCard.getByLabel('Deposits status').selectOption('pending');
    dl = page.waitForEvent('download');
    await exportsCard.getByRole('button', { name: 'Deposits CSV' }).click();
    csv = await csvHeader(await dl);
    expect(csv.lines).toHaveLength(2);
    expect(csv.lines[1]).toContain(ben.email);

    dl = page.waitForEvent('download');
    await exportsCard.getByRole('button', { name: 'Withdrawals CSV' }).click();
    csv = await csvHeader(await dl);
    expect(csv.name).toBe('withdrawals-2026-11-16.csv');
    expect(csv.lines[0]).toBe(
      'id,requested_at,status,source,amount_usdc,fee_usdc,net_usdc,cycle_number,wallet_address,processed_at,tx_hash,notes,request_id,user_id,user_email,user_first_name,user_last_name',
    );
    expect(csv.lines).toHaveLength(3);
  });

  test('analytics: summary cards, four bar charts, the period buttons redraw them', async () => {
    await openTab(page, 'Analytics');
    const periods = page.getByRole('group', { name: 'Period' });
    for (const p of [7, 14, 30, 90]) await expect(periods.getByRole('button', { name: `${p} days` })).toBeVisible();
    await expect(periods.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    await expect(stat(page, 'Total Users')).toHaveText('4');
    await expect(stat(page, 'Total Investments')).toHaveText('100.00 USDC');
    await expect(stat(page, 'Total Deposits')).toHaveText('240.00 USDC');

    const chart = (title: string) => page.getByRole('img', { name: `${title} per day, bar chart` });
    for (const t of ['New Registrations', 'Investment Amount', 'Deposits Received', 'Number of Investments'])
      await expect(chart(t)).toBeVisible();
    const bars = (title: string) => chart(title).locator('.recharts-bar-rectangle path');
    const ticks = (title: string) =>
      chart(title)
        .locator('text')
        .filter({ hasText: /^[A-Z][a-z]{2} \d{1,2}$/ });

    // 30 days: Olga's deposit 20 days ago and Ada's today are two bars.
    // (Registrations are not counted in bars: the administrator's own account is dated by the real clock.)
    await expect(bars('Deposits Received')).toHaveCount(2);
    const lastRegistrations = page.locator('section', {
      has: page.getByRole('heading', { name: 'New Registrations' }),
    });
    await expect(lastRegistrations.getByRole('listitem').first()).toHaveText(/Nov 16\s*2/); // Ada and Ben
    const lastDeposits = page.locator('section', { has: page.getByRole('heading', { name: 'Deposits Received' }) });
    await expect(lastDeposits.getByRole('listitem').first()).toHaveText(/Nov 16\s*200\.00\sUSDC/);

    // 7 days: only today's activity is in the period.
    await periods.getByRole('button', { name: '7 days' }).click();
    await expect(periods.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    await expect(bars('Deposits Received')).toHaveCount(1);
    // The "last 7 entries" are the last seven days with activity (decision 0083): only today's deposit.
    await expect(lastDeposits.getByRole('listitem')).toHaveCount(1);
    await expect(lastDeposits.getByRole('listitem').first()).toHaveText(/Nov 16\s*200\.00\sUSDC/);
    await expect(ticks('Deposits Received')).toHaveText([
      'Nov 10',
      'Nov 11',
      'Nov 12',
      'Nov 13',
      'Nov 14',
      'Nov 15',
      'Nov 16',
    ]);

    for (const p of [14, 90]) {
      await periods.getByRole('button', { name: `${p} days` }).click();
      await expect(periods.getByRole('button', { name: `${p} days` })).toHaveAttribute('aria-pressed', 'true');
      await expect(bars('Deposits Received')).toHaveCount(p === 14 ? 1 : 2);
    }
    await expect(bars('Investment Amount')).toHaveCount(1);
    await expect(bars('Number of Investments')).toHaveCount(1);
  });

  test('deposits and withdrawals tabs list the pending work', async () => {
    await openTab(page, 'Deposits');
    const filters = page.getByRole('group', { name: 'Filter deposits by status' });
    await expect(filters.getByRole('button', { name: 'All (3)' })).toBeVisible();
    await expect(filters.getByRole('button', { name: 'Pending (1)' })).toBeVisible();
    await expect(filters.getByRole('button', { name: 'Confirmed (2)' })).toBeVisible();
    await expect(page.getByText(`(${ben.email})`)).toBeVisible();

    await openTab(page, 'Withdrawals');
    await expect(page.getByRole('tab', { name: 'Pending (2)' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Cycle #1 · Bronze/ })).toContainText('Net 1.275 USDC');
    await expect(page.getByRole('button', { name: /Balance/ })).toContainText('Net 100.00 USDC');
  });

  test("referrals: the admin's own network and a looked-up user's network with its rewards", async () => {
    await openTab(page, 'Referrals');
    const own = page.locator('section', { has: page.getByRole('heading', { name: 'Referral Network', exact: true }) });
    await expect(own).toContainText('Total referrals: 3');
    await expect(own.getByRole('region', { name: 'Level 1 (10%)' })).toContainText('Olga Older');
    await expect(own.getByRole('region', { name: 'Level 1 (10%)' })).toContainText('Ben Pending');
    await expect(own.getByRole('region', { name: 'Level 2 (3%)' })).toContainText('Ada Active');

    await page.getByRole('searchbox', { name: 'Search users by name or e-mail' }).fill('olga');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const matches = page.getByRole('list', { name: 'Matching users' });
    await expect(matches.getByRole('listitem')).toHaveCount(1);
    await matches.getByRole('button', { name: 'Show network' }).click();
    const theirs = page.locator('section', {
      has: page.getByRole('heading', { name: `Referral Network of Olga Older (${olga.email})` }),
    });
    await expect(theirs.getByRole('region', { name: 'Level 1 (10%)' })).toContainText(ada.email);
    const rewards = page.locator('section', {
      has: page.getByRole('heading', { name: 'Rewards earned by Olga Older' }),
    });
    await expect(rewards).toContainText('10.00 USDC');
    await expect(rewards).toContainText('Level 1 (10%)10.00 USDC from 1 investment');
    await expect(rewards).toContainText('L1 · Ada Active invested 100.00 USDC');
  });

  test('users: badges, search, view deposits, update balance, block shows BLOCKED; users CSV', async () => {
    await openTab(page, 'Users');
    await expect(page.getByText('4 users', { exact: true })).toBeVisible();
    const card = (name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    const adminCard = page.getByRole('listitem').filter({ hasText: ADMIN.email });
    await expect(adminCard.getByText('ADMIN', { exact: true })).toBeVisible();
    await expect(adminCard.getByRole('button', { name: 'Block' })).toHaveCount(0); // not offered for admins
    await expect(page.getByText('ADMIN', { exact: true })).toHaveCount(1);
    await expect(card('Ada Active')).toContainText('100.0000 USDC'); // total investment
    await expect(card('Ada Active')).toContainText('1.50 USDC'); // total earnings
    await expect(card('Olga Older')).toContainText('10.00 USDC'); // referral rewards

    await page.getByRole('searchbox', { name: 'Search users by name or e-mail' }).fill('ben');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('1 user matching “ben”', { exact: true })).toBeVisible();
    const ben$ = card('Ben Pending');
    await expect(page.getByRole('heading', { level: 3 })).toHaveCount(1);

    // Users CSV for the current search.
    const dl = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await csvHeader(await dl);
    expect(csv.name).toBe('users-2026-11-16.csv');
    expect(csv.lines[0]).toBe(
      'id,created_at,email,first_name,last_name,phone,is_admin,is_blocked,balance_usdc,total_investment_usdc,total_earnings_usdc,referral_rewards_usdc,total_deposits_usdc,total_adjustments_usdc,withdrawal_wallet',
    );
    expect(csv.lines).toHaveLength(2);
    expect(csv.lines[1]).toContain(ben.email);

    await ben$.getByRole('button', { name: 'View Deposits' }).click();
    await expect(ben$).toContainText('12.00 USDC · Demo');
    await expect(ben$.getByText('pending', { exact: true })).toBeVisible();
    await ben$.getByRole('button', { name: 'Hide Deposits' }).click();

    // Update Balance: a refusal at the field (and in a toast), then the exact amount after a confirmation.
    await ben$.getByRole('button', { name: 'Update Balance' }).click();
    const form = ben$.getByRole('form', { name: /Update balance/ });
    await form.getByLabel('New Balance (USDC)').fill('-1');
    await form.getByRole('button', { name: 'Update Balance' }).click();
    await expect(form.getByText('Please enter a valid amount (0 or greater)')).toBeVisible();
    await form.getByLabel('New Balance (USDC)').fill('5.5');
    await form.getByLabel('Note (optional)').fill('Goodwill credit');
    await form.getByRole('button', { name: 'Update Balance' }).click();
    const confirmBalance = page.getByRole('alertdialog', { name: 'Update balance?' });
    await expect(confirmBalance).toContainText('5.5000 USDC');
    await confirmBalance.getByRole('button', { name: 'Update Balance' }).click();
    await expect(toast(page, 'Balance updated successfully')).toBeVisible();
    await expect(ben$.getByText('Balance', { exact: true }).locator('xpath=following-sibling::dd[1]')).toHaveText(
      '5.5000 USDC',
    );

    // Block: the badge comes from the server's answer; Unblock restores.
    await expect(ben$.getByText('BLOCKED', { exact: true })).toHaveCount(0);
    await ben$.getByRole('button', { name: 'Block' }).click();
    await page
      .getByRole('alertdialog', { name: /^Block / })
      .getByRole('button', { name: 'Block' })
      .click();
    await expect(ben$.getByText('BLOCKED', { exact: true })).toBeVisible();
    await expect(ben$.getByRole('button', { name: 'Unblock' })).toBeVisible();
    expect((await app.api('GET', '/user/me', { token: ben.token })).status).toBe(403);
    await ben$.getByRole('button', { name: 'Unblock' }).click();
    await page
      .getByRole('alertdialog', { name: /^Unblock / })
      .getByRole('button', { name: 'Unblock' })
      .click();
    await expect(ben$.getByText('BLOCKED', { exact: true })).toHaveCount(0);
  });

  test('tiers: create and deactivate; the audit log shows every admin action and filters by action', async () => {
    await openTab(page, 'Tiers');
    for (const name of ['Starter', 'Bronze', 'Silver', 'Gold', 'Platinum'])
      await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'New Tier' }).click();
    const form = page.getByRole('form', { name: 'New tier' });
    await form.getByLabel('Name').fill('Orchard');
    await form.getByLabel('Amount (USDC)').fill('750');
    await form.getByLabel('Daily rate (%)').fill('2.25');
    await form.getByRole('button', { name: 'Save Tier' }).click();
    await expect(toast(page, 'Tier created')).toBeVisible();
    const orchard = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Orchard', exact: true }) });
    await expect(orchard).toContainText('750.00 USDC');
    await expect(orchard).toContainText('2.25% daily');
    await expect(orchard.getByText('ACTIVE', { exact: true })).toBeVisible();
    await orchard.getByRole('button', { name: 'Deactivate' }).click();
    await expect(orchard.getByText('INACTIVE', { exact: true })).toBeVisible();
    // Investors no longer see it.
    const tiers = (
      await app.api<{ tiers: { name: string }[] }>('GET', '/user/investment-tiers', { token: ada.token })
    ).data.tiers.map((t) => t.name);
    expect(tiers).not.toContain('Orchard');

    await openTab(page, 'Audit Log');
    // Each action in words, one heading per entry.
    const actions = page.getByRole('listitem').getByRole('heading', { level: 3 });
    const counts = {
      'Deposit approved': 2,
      'Balance set': 1,
      'User blocked': 1,
      'User unblocked': 1,
      'Tier created': 1,
      'Tier updated': 1,
    };
    for (const [action, n] of Object.entries(counts))
      await expect(actions.filter({ hasText: new RegExp(`^${action}$`) })).toHaveCount(n);
    await page.getByLabel('Action').selectOption({ label: 'Balance set' });
    await expect(page.getByText('1 entry', { exact: true })).toBeVisible();
    await expect(actions).toHaveCount(1);
    const entry = page.getByRole('listitem').filter({ hasText: 'Balance set' });
    await expect(entry).toContainText('Note: Goodwill credit');
    // Whom it concerns, by name.
    await expect(entry).toContainText(`User Ben Pending (${ben.email})`);
    await expect(entry).toContainText(/Balance\s*[\d,]+\.\d{4}\u00a0USDC/);
  });
});
