/** One Lighthouse run as `e2e/lighthouse.ts` writes it to LH_JSON (read by `npm run bench`, bench-web.ts). */
export interface LighthouseRun {
  page: string;
  run: number;
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  benchmarkIndex: number;
}

/** What LH_JSON holds: every run, and the score each run must reach. */
export interface LighthouseReport {
  version: string;
  browser: string;
  target: number;
  runs: LighthouseRun[];
}
