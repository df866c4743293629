import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const loader = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-pg.ts')).href;
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs `code` (an ES module) in a fresh Node process, as the server's entry would; returns what it printed. */
function fresh(code: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: serverDir,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}
const fetchLoaded = `process.moduleLoadList.some((m) => m.includes('undici'))`;
/** What the process saw: Node fetch loaded (`loaded`, taken right after pg), and Response and pg usable after. */
const report = (loaded: string) => `console.log(JSON.stringify({
  fetchLoaded: ${loaded},
  response: typeof Response,
  responseWorks: (await new Response('ok').text()) === 'ok',
  poolWorks: typeof (await import('pg')).default.Pool,
}));`;

describe('loading node-postgres (decision 0060)', () => {
  it('through loadPg: Node fetch stays unloaded, and Response is there again afterwards', () => {
    const r = fresh(
      `const { loadPg } = await import(${JSON.stringify(loader)}); await loadPg();
       const loaded = ${fetchLoaded}; ${report('loaded')}`,
    );
    expect(r).toEqual({ fetchLoaded: false, response: 'function', responseWorks: true, poolWorks: 'function' });
  });

  it.runIf(!('navigator' in globalThis))(
    'imported plainly on Node 20, it loads Node fetch (what loadPg avoids)',
    () => {
      expect(fresh(`await import('pg'); ${report(fetchLoaded)}`).fetchLoaded).toBe(true);
    },
  );
});
