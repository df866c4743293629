/**
 * `npm run lighthouse`: Lighthouse (mobile preset, performance) on /login and /dashboard of the
 * production build, in Debian's Chromium. The dashboard needs a session, so Chromium is started by
 * Playwright with a debugging port, an investor's token is put in its storage, and Lighthouse runs
 * against that same browser.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { signUpInvestor } from './support/people.ts';
import { startApp } from './support/server.ts';

const lhVersion = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('lighthouse/package.json'), 'utf8'),
).version;
const PORT = 9333;
const TARGET = 98;
const app = await startApp({ LOG_LEVEL: 'warn' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--remote-debugging-port=${PORT}`,
  ],
});
try {
  const investor = await signUpInvestor(app, { firstName: 'Lena', lastName: 'Lighthouse' });
  const page = await browser.newPage();
  await page.goto(`${app.baseURL}/login`);
  const rows: { page: string; score: number; fcp: string; lcp: string; tbt: string; cls: string }[] = [];
  for (const [name, path, signedIn] of [
    ['/login', '/login', false],
    ['/dashboard', '/dashboard', true],
  ] as const) {
    await page.evaluate(
      (t) => (t ? localStorage.setItem('token', t) : localStorage.removeItem('token')),
      signedIn ? investor.token : null,
    );
    const result = await lighthouse(`${app.baseURL}${path}`, {
      port: PORT,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${name}`);
    const audit = (id: string) => lhr.audits[id]?.displayValue ?? '?';
    rows.push({
      page: name,
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
    });
  }
  console.log(`\nLighthouse ${lhVersion} (mobile preset, simulated throttling), Chromium ${browser.version()}\n`);
  console.log('| page | performance | target | met | FCP | LCP | TBT | CLS |');
  console.log('|---|---:|---:|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.page} | ${r.score} | >= ${TARGET} | ${r.score >= TARGET ? 'yes' : 'no'} | ${r.fcp} | ${r.lcp} | ${r.tbt} | ${r.cls} |`,
    );
} finally {
  await browser.close();
  await app.stop();
}
