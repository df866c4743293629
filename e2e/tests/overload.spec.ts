import { expect, test, type Page } from '@playwright/test';
import { creditedDeposit, openTab, signIn, signUpInvestor, tokenFor } from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Overload bends (decision 0096), in the browser: while the server sheds the Investments tab's polls (503
 * `overloaded`, Retry-After 5 s, answered here by page.route), the tab asks less and less often, keeps what it shows,
 * and shows no error and no toast; answered again, it shows the fresh figures and polls every 2 s again. The page's
 * timers run on a paused clock the test moves a second at a time, and the page notes the clock's time of each call
 * it makes: the counts and gaps below are the page's own, whatever the machine's speed.
 */
const WALLET = '0x2222222222222222222222222222222222222222';
const POLLS = /\/api\/(user\/dashboard|withdrawal\/my-withdrawals)(\?|$)/;

let app: RunningApp;
test.describe.configure({ timeout: 240_000 });
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => app?.stop());

type Calls = { dashboard: number[]; inFlight: number };
const calls = (page: Page) => page.evaluate(() => (window as unknown as { calls: Calls }).calls);

/** Moves the page's clock on `ms`, a second at a time, each time until the calls it made were answered. */
async function run(page: Page, ms: number): Promise<void> {
  for (let done = 0; done < ms; done += 1_000) {
    await page.clock.runFor(1_000);
    await expect.poll(async () => (await calls(page)).inFlight).toBe(0);
  }
}

const dashboardCallsSince = async (page: Page, from: number) =>
  (await calls(page)).dashboard.filter((at) => at > from).map((at) => at - from);

test('polls shed for overload back off without an error or a toast, and catch up once answered', async ({ page }) => {
  const ada = await signUpInvestor(app, {
    firstName: 'Ada',
    lastName: 'Busy',
    inviterToken: await tokenFor(app, ADMIN),
  });
  await page.clock.install();
  await page.addInitScript(() => {
    const w = window as unknown as { calls: Calls };
    w.calls = { dashboard: [], inFlight: 0 };
    const real = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.includes('/api/')) return real(input, init);
      if (new URL(url, location.href).pathname === '/api/user/dashboard') w.calls.dashboard.push(Date.now());
      w.calls.inFlight++;
      try {
        const res = await real(input, init);
        await res.clone().text();
        return res;
      } finally {
        w.calls.inFlight--;
      }
    };
  });
  await signIn(page, app, ada);
  await openTab(page, 'Investments');
  const withdrawAll = page.getByRole('button', { name: 'Withdraw All' });
  await expect(withdrawAll).toBeDisabled();
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);

  // Answered: a poll every 2 s.
  let from = await page.evaluate(() => Date.now());
  await run(page, 20_000);
  const answered = await dashboardCallsSince(page, from);
  expect(answered.length).toBeGreaterThanOrEqual(8);

  // Shed: the polls wait Retry-After (5 s) at least, and longer each time.
  await page.route(POLLS, (route) =>
    route.fulfill({
      status: 503,
      headers: { 'retry-after': '5', 'content-type': 'application/json' },
      body: JSON.stringify({ error: 'The server is busy. Please try again in a moment.', code: 'overloaded' }),
    }),
  );
  from = await page.evaluate(() => Date.now());
  await run(page, 60_000);
  const shed = await dashboardCallsSince(page, from);
  expect(shed.length).toBeGreaterThanOrEqual(2);
  expect(shed.length).toBeLessThanOrEqual(5);
  const gaps = shed.slice(1).map((at, i) => at - (shed[i] ?? 0));
  for (const [i, gap] of gaps.entries()) {
    expect(gap).toBeGreaterThanOrEqual(5_000);
    if (i > 0) expect(gap).toBeGreaterThan(gaps[i - 1] ?? 0);
  }
  // Meanwhile the tab keeps what it showed: no error in place of it, no toast.
  await expect(withdrawAll).toBeDisabled();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0);

  // Money arrives while the polls are shed; answered again, the tab shows it within the longest wait (a minute).
  await creditedDeposit(app, ada, 100, WALLET);
  await page.unroute(POLLS);
  for (let waited = 0; waited <= 60_000 && !(await withdrawAll.isEnabled()); waited += 1_000) await run(page, 1_000);
  await expect(withdrawAll).toBeEnabled();
  await expect(page.getByText(/You receive 100\.00/)).toBeVisible();

  // And it polls every 2 s again.
  from = await page.evaluate(() => Date.now());
  await run(page, 10_000);
  expect((await dashboardCallsSince(page, from)).length).toBeGreaterThanOrEqual(4);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0);
});
