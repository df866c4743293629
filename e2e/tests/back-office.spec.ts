import { expect, test, type Page } from '@playwright/test';
import type { Address } from 'viem';
import { anvilAvailability } from '../../apps/server/test/anvil.ts';
import { startChainApp, type ChainApp } from '../support/chain-app.ts';
import { framesPainted, look, WIDTHS } from '../support/look.ts';
import {
  LONG_FIRST_NAME,
  LONG_LAST_NAME,
  openTab,
  signIn,
  signUpInvestor,
  tokenFor,
  toast,
  type Person,
} from '../support/people.ts';
import { ADMIN } from '../support/server.ts';

/**
 * Back-office details, in English and Arabic at 1280 and 375 px: a tier whose amount an active tier already has is
 * refused (the form says why; Activate says it in a toast, and pressing again replaces that toast rather than adding
 * one); the Solvency panel says when its chain readings were taken; the audit log names a payout batch and what it holds; an investor's Investments tab keeps its layout
 * while it loads (cumulative layout shift under 0.05).
 */
const MONDAY_9 = '2026-11-16T09:00:00Z';

test.describe('back office details (anvil)', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 });
  const avail = anvilAvailability();
  test.skip(!avail.ok, avail.ok ? '' : `anvil cannot run here: ${avail.why}`);

  let running: ChainApp;
  let ada: Person;

  test.beforeAll(async () => {
    running = await startChainApp({
      funded: [5],
      micro: 3_456_789_000_000n,
      env: (chain) => ({
        PAYOUT_ADDRESS: chain.accounts[5] as Address,
        // The balances are read at start and not again during the test: moving the clock makes them old.
        DEPOSIT_CHECK_INTERVAL_MS: '3600000',
        JWT_TTL_SECONDS: String(7 * 24 * 3600),
      }),
    });
    const { app } = running;
    await app.setClock(MONDAY_9);
    ada = await signUpInvestor(app, { firstName: LONG_FIRST_NAME, lastName: LONG_LAST_NAME });
    const admin = await tokenFor(app, ADMIN);
    const set = await app.api('POST', '/admin/update-user-balance', {
      token: admin,
      body: { userId: ada.id, newBalance: 1_234_567.891234 },
    });
    expect(set.status).toBe(200);
    for (const amount of [1000, 5000, 100]) {
      const r = await app.api('POST', '/user/invest', { token: ada.token, body: { amount } });
      expect(r.status).toBe(200);
    }
    // A payout batch of Ada's seven-figure Withdraw All, for the audit log.
    const w = await app.api('POST', '/withdrawal/request-all', {
      token: ada.token,
      body: { walletAddress: running.chain.accounts[8], withdrawalPassword: ada.withdrawalPassword },
    });
    expect(w.status).toBe(200);
    const pending = await app.api<{ withdrawals: { _id: string }[] }>('GET', '/withdrawal/admin/pending', {
      token: admin,
    });
    const batch = await app.api('POST', '/withdrawal/admin/batches', {
      token: admin,
      body: { withdrawalIds: pending.data.withdrawals.map((x) => x._id), grouped: true },
    });
    expect(batch.status).toBe(201);
    // The chain's balances as read at the platform clock's time (the job's reading at start was on the machine's).
    expect((await app.api('POST', '/admin/solvency/refresh', { token: admin })).status).toBe(200);
  });
  test.afterAll(async () => running?.stop());

  test('tiers of one amount, chain readings dated, batches in the audit log, a still Investments tab', async ({
    browser,
  }) => {
    const { app } = running;
    const page = await browser.newPage();
    await signIn(page, app, ADMIN);
    const admin = await tokenFor(app, ADMIN);
    const tiers = async () => (await app.api('GET', '/admin/tiers', { token: admin })).data.tiers as unknown[];
    const before = await tiers();

    for (const lang of ['en', 'ar'] as const) {
      const say = SAID[lang];
      await page.locator('#language-menu').selectOption(lang);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);

      // A new tier of Gold's amount: the form says why, and nothing is added.
      await openTab(page, say.tiersTab);
      await page.getByRole('button', { name: say.newTier }).click();
      const form = page.getByRole('form', { name: say.newTierForm });
      await form.getByLabel(say.name, { exact: true }).fill(`Gold twin ${lang}`);
      await form.getByLabel(say.amount).fill('1000');
      await form.getByLabel(say.rate).fill('2');
      await form.getByRole('button', { name: say.save }).click();
      await expect(form.getByRole('alert')).toHaveText(say.goldTaken);
      await form.getByRole('button', { name: say.cancel }).click();

      // An inactive tier of Gold's amount may exist; Activate says why not, and again replaces its toast.
      if (lang === 'en') {
        const r = await app.api('POST', '/admin/tiers', {
          token: admin,
          body: { name: 'Gold Reserve', amount: 1000, dailyRate: 2, active: false },
        });
        expect(r.status).toBe(201);
        await page.reload();
      }
      const reserve = page.getByRole('listitem').filter({ hasText: 'Gold Reserve' });
      await reserve.getByRole('button', { name: say.activate }).click();
      await expect(toast(page, say.goldTaken)).toBeVisible();
      await reserve.getByRole('button', { name: say.activate }).click();
      // The second failure is said once: the first toast is replaced, not stacked under.
      await expect(page.locator('.Toastify__toast--error')).toHaveCount(1);
      await look(
        page,
        `back-office-tier-taken-${lang}`,
        typeof say.goldTaken === 'string' ? { toast: say.goldTaken } : {},
      );
      await expect(page.locator('.Toastify__toast--error')).toHaveCount(1);

      // The audit log names the batch and what it holds.
      await openTab(page, say.auditTab);
      await expect(page.getByText(say.batchNamed).first()).toBeVisible();
      await look(page, `back-office-audit-${lang}`);

      // The Solvency panel says when its chain readings were taken: fresh just after a refresh. (Stale readings are
      // proved in solvency.test.ts and solvency-panel.test.tsx: here the chain watcher may read again at any time.)
      await app.setClock(lang === 'en' ? '2026-11-16T09:01:00Z' : '2026-11-16T09:02:00Z');
      await openTab(page, say.adminTab);
      await page.getByRole('button', { name: say.refreshNow }).click();
      await expect(page.getByTestId('solvency-readings')).toHaveAttribute('data-stale', 'no');
      // The answer's toast comes just after the figures: look() holds it still rather than measure it half faded in.
      await look(page, `back-office-solvency-${lang}`, { toast: say.balancesRead });
    }
    expect(await tiers()).toHaveLength(before.length + 1);
    await page.close();

    // The investor's Investments tab, loaded afresh, does not move while its parts arrive.
    for (const lang of ['en', 'ar'] as const) {
      // The account's language, saved before the sign-in (a menu change saves it in the background, and a page
      // loaded before that save lands would open in the old one).
      const saved = await app.api('PUT', '/user/preferences', {
        token: await tokenFor(app, ada),
        body: { locale: lang },
      });
      expect(saved.status).toBe(200);
      for (const size of Object.values(WIDTHS)) {
        const investor = await browser.newPage({ viewport: size });
        await investor.addInitScript(() => {
          const w = window as unknown as { __cls: number };
          w.__cls = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
              if (!e.hadRecentInput) w.__cls += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await signIn(investor, app, ada);
        await expect(investor.locator('html')).toHaveAttribute('lang', lang);
        await investor.goto(`${app.baseURL}/dashboard?tab=investments`);
        await loaded(investor, SAID[lang].cycles);
        const cls = await investor.evaluate(() => (window as unknown as { __cls: number }).__cls);
        expect(cls, `layout shift on the Investments tab (${lang}, ${size.width} px)`).toBeLessThan(0.05);
        if (size.width === WIDTHS.desktop.width) await look(investor, `back-office-investments-${lang}`);
        await investor.close();
      }
    }
  });
});

/** The tab's every part is read: no skeleton left, and two frames painted since. */
async function loaded(page: Page, heading: string) {
  await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  await expect(page.locator('.animate-pulse')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  await framesPainted(page);
}

const SAID = {
  en: {
    tiersTab: 'Tiers',
    auditTab: 'Audit Log',
    adminTab: 'Admin',
    refreshNow: 'Refresh now',
    balancesRead: 'Balances read from the chain',
    newTier: 'New Tier',
    newTierForm: 'New tier',
    name: 'Name',
    amount: 'Amount (USDC)',
    rate: 'Daily rate (%)',
    active: 'Active (investors can buy it)',
    save: 'Save Tier',
    cancel: 'Cancel',
    activate: 'Activate',
    goldTaken: 'The active tier Gold already has this amount. Choose another amount, or deactivate Gold first.',
    batchNamed: /^Payout batch of .*: 1 withdrawal, 1,228,467\.89/,
    cycles: 'Investment Cycles',
  },
  ar: {
    tiersTab: 'المستويات',
    auditTab: 'سجل التدقيق',
    adminTab: 'الإدارة',
    refreshNow: 'تحديث الآن',
    balancesRead: 'تمت قراءة الأرصدة من السلسلة',
    newTier: 'مستوى جديد',
    newTierForm: 'مستوى جديد',
    name: 'الاسم',
    amount: 'المبلغ (USDC)',
    rate: 'المعدل اليومي (%)',
    active: 'نشط (يمكن للمستثمرين شراؤه)',
    save: 'حفظ المستوى',
    cancel: 'إلغاء',
    activate: 'تفعيل',
    goldTaken: /^المستوى النشط .*Gold.* له هذا المبلغ بالفعل/,
    batchNamed: /^دفعة مدفوعات .*: سحب واحد، .*1,228,467\.89/,
    cycles: 'دورات الاستثمار',
  },
};
