/**
 * `npm run lighthouse`: Lighthouse (mobile preset, performance) on /login and /dashboard of the
 * production build, in Debian's Chromium. The dashboard needs a session, so Chromium is started by
 * Playwright with a debugging port and a persistent profile (Lighthouse opens its tab in the default
 * browser context, which a plain `launch()` page does not share), an investor's token is put in its
 * storage, and Lighthouse runs against that same browser; each run is a cold load (HTTP cache cleared). LH_RUNS=n runs each page n times (default 1) and prints every run;
 * LH_OUT=<dir> keeps each run's JSON report and its trace there.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import nodePath from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { signUpInvestor } from './support/people.ts';
import { startApp } from './support/server.ts';
import { freePort } from '../apps/server/test/net.ts';

const lhVersion = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('lighthouse/package.json'), 'utf8'),
).version;
const PORT = await freePort();
const RUNS = Math.max(1, Number(process.env.LH_RUNS ?? 1));
const OUT = process.env.LH_OUT;
if (OUT) mkdirSync(OUT, { recursive: true });
const TARGET = 98;
const app = await startApp({ LOG_LEVEL: 'warn' });
const profile = mkdtempSync(nodePath.join(os.tmpdir(), 'hf-lighthouse-'));
const browser = await chromium.launchPersistentContext(profile, {
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
  const cdp = await browser.newCDPSession(page);
  const { product } = await cdp.send('Browser.getVersion');
  await page.goto(`${app.baseURL}/login`);
  /** One run as the table prints it (Lighthouse's display values). */
  const rows: {
    page: string;
    run: number;
    score: number;
    shown: { fcp: string; lcp: string; tbt: string; cls: string };
    benchmarkIndex: number;
  }[] = [];
  for (const [name, path, signedIn] of [
    ['/login', '/login', false],
    ['/dashboard', '/dashboard', true],
  ] as const)
    for (let run = 1; run <= RUNS; run++) {
      await page.evaluate(
        (t) => (t ? localStorage.setItem('token', t) : localStorage.removeItem('token')),
        signedIn ? investor.token : null,
      );
      // A cold load: Lighthouse keeps the HTTP cache too when it keeps the storage.
      await cdp.send('Network.clearBrowserCache');
      const result = await lighthouse(`${app.baseURL}${path}`, {
        port: PORT,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        // Lighthouse clears the origin's storage before a run by default, which signed the dashboard
        // run out: it measured the redirect to /login. The token must survive (the cache is cleared above).
        disableStorageReset: true,
      });
      if (new URL(result?.lhr.finalDisplayedUrl ?? '').pathname !== path)
        throw new Error(`${name} ended on ${result?.lhr.finalDisplayedUrl}, not ${path}`);
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`no Lighthouse result for ${name}`);
      if (OUT) {
        const file = `${OUT}/${name.slice(1)}-${run}`;
        writeFileSync(`${file}.json`, JSON.stringify(lhr));
        // The trace Lighthouse recorded (chrome://tracing, DevTools' Performance panel): where the tasks went.
        const trace = (result.artifacts as { Trace?: unknown }).Trace;
        if (trace) writeFileSync(`${file}.trace.json`, JSON.stringify(trace));
      }
      const audit = (id: string) => lhr.audits[id]?.displayValue ?? '?';
      rows.push({
        page: name,
        run,
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        shown: {
          fcp: audit('first-contentful-paint'),
          lcp: audit('largest-contentful-paint'),
          tbt: audit('total-blocking-time'),
          cls: audit('cumulative-layout-shift'),
        },
        // Lighthouse's own measure of this host's CPU speed (higher is faster): scores from two machines compare
        // only with it (simulated throttling slows the observed work down by a fixed factor).
        benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      });
    }
  console.log(`\nLighthouse ${lhVersion} (mobile preset, simulated throttling), ${product}\n`);
  console.log('| page | performance | target | met | FCP | LCP | TBT | CLS | benchmarkIndex |');
  console.log('|---|---:|---:|---|---|---|---|---|---:|');
  for (const r of rows)
    console.log(
      `| ${RUNS > 1 ? `${r.page} #${r.run}` : r.page} | ${r.score} | >= ${TARGET} | ${r.score >= TARGET ? 'yes' : 'no'} | ${r.shown.fcp} | ${r.shown.lcp} | ${r.shown.tbt} | ${r.shown.cls} | ${r.benchmarkIndex} |`,
    );
} finally {
  await browser.close();
  await app.stop();
  rmSync(profile, { recursive: true, force: true });
}
