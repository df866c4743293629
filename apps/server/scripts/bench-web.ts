/**
 * The web rows of `npm run bench` (issue 16: every row in one run): first-load JavaScript and Lighthouse.
 * Both run as their own commands do, after the API loads, on the build they make:
 *  - `scripts/web-budget.mjs` builds the web app into apps/web/dist (with its manifest) and measures the
 *    first-load JS of /login and /dashboard (gzip);
 *  - `e2e/lighthouse.ts` serves that build with the compiled server and runs Lighthouse's mobile preset
 *    BENCH_LH_RUNS times (3) on each page, in Debian's Chromium (CHROMIUM_PATH, else /usr/bin/chromium).
 * BENCH_WEB=0 skips both. A part that cannot run (no Chromium, a failed build) is reported as not measured.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LighthouseReport } from '../../../e2e/support/lighthouse-run.ts';
import { envNumber, ROOT_DIR } from './bench-lib.ts';

const run = promisify(execFile);

/** What web-budget prints with WEB_BUDGET_JSON: each page's first-load JS, and the budget it is held to. */
export interface BudgetReport {
  budgetKb: number;
  pages: { page: string; kb: number; files: number }[];
}

export interface WebBench {
  budget: BudgetReport | Error;
  lighthouse: LighthouseReport | Error;
}

const firstLine = (err: unknown) =>
  new Error(
    (err instanceof Error ? (err as { stderr?: string }).stderr?.trim() || err.message : String(err)).split('\n')[0],
  );

export async function webBench(): Promise<WebBench | null> {
  if (process.env.BENCH_WEB === '0') return null;
  const budget = await run(process.execPath, [path.join(ROOT_DIR, 'scripts/web-budget.mjs')], {
    cwd: ROOT_DIR,
    env: { ...process.env, WEB_BUDGET_JSON: '1' },
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stdout }) => budgetFigures(stdout) ?? new Error('web-budget printed no figures'),
    // Over budget it exits with 1 and still prints its figures.
    (err: unknown) => budgetFigures((err as { stdout?: string }).stdout ?? '') ?? firstLine(err),
  );
  return { budget, lighthouse: budget instanceof Error ? budget : await lighthouse() };
}

/** The figures web-budget prints last with WEB_BUDGET_JSON (one JSON line). */
function budgetFigures(stdout: string): BudgetReport | undefined {
  const json = stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  return json ? (JSON.parse(json) as BudgetReport) : undefined;
}

async function lighthouse(): Promise<WebBench['lighthouse']> {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium))
    return new Error(`no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-bench-lh-'));
  const file = path.join(dir, 'runs.json');
  try {
    await run('npx', ['tsx', 'e2e/lighthouse.ts'], {
      cwd: ROOT_DIR,
      env: { ...process.env, LH_RUNS: String(envNumber('BENCH_LH_RUNS', 3)), LH_JSON: file },
      timeout: 20 * 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return JSON.parse(readFileSync(file, 'utf8')) as LighthouseReport;
  } catch (err) {
    return firstLine(err);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The two rows of the targets table, judged against the targets the two commands report (Lighthouse: every run of
 * both pages reads its target). The targets below are only printed when a command did not run.
 */
export function webRows(web: WebBench | null, yes: (b: boolean) => string): string[] {
  const skipped = 'not measured: BENCH_WEB=0 (`npm run lighthouse`, `npm run web:budget`)';
  if (!web)
    return [
      `| Lighthouse mobile, /login and /dashboard | ${skipped} | >= 98 | - |`,
      `| First-load JS | ${skipped} | <= 120 KB gzip | - |`,
    ];
  const rows: string[] = [];
  const lh = web.lighthouse;
  if (lh instanceof Error)
    rows.push(`| Lighthouse mobile, /login and /dashboard | not measured: ${lh.message} | >= 98 | - |`);
  else {
    const pages = [...new Set(lh.runs.map((r) => r.page))];
    const text = pages
      .map((p) => {
        const runs = lh.runs.filter((r) => r.page === p);
        return `${p} ${runs.map((r) => `${r.score} (FCP ${(r.fcpMs / 1000).toFixed(1)} s, LCP ${(r.lcpMs / 1000).toFixed(1)} s, TBT ${Math.round(r.tbtMs)} ms)`).join(', ')}`;
      })
      .join('; ');
    const index = lh.runs.map((r) => r.benchmarkIndex);
    const runsEach = lh.runs.length / Math.max(1, pages.length);
    rows.push(
      `| Lighthouse mobile, /login and /dashboard | ${text}; ${runsEach} cold run${runsEach === 1 ? '' : 's'} each, Lighthouse ${lh.version}, benchmarkIndex ${Math.min(...index)}-${Math.max(...index)} | >= ${lh.target} in every run | ${yes(lh.runs.length > 0 && lh.runs.every((r) => r.score >= lh.target))} |`,
    );
  }
  const b = web.budget;
  if (b instanceof Error) rows.push(`| First-load JS | not measured: ${b.message} | <= 120 KB gzip | - |`);
  else
    rows.push(
      `| First-load JS | ${b.pages.map((p) => `${p.page} ${p.kb.toFixed(1)} KB (${p.files} files)`).join(', ')} | <= ${b.budgetKb} KB gzip | ${yes(b.pages.length > 0 && b.pages.every((p) => p.kb <= b.budgetKb))} |`,
    );
  return rows;
}
