/**
 * The own-SQL ceiling of `npm run bench` (docs/decisions/0050): PostgreSQL's own throughput running exactly
 * the statements an endpoint sends. The bench records every statement (text and values) of a few requests
 * per read endpoint in-process; each request becomes one pgbench script, its parameters inlined as SQL
 * literals cast to the types the server inferred for them, and `pgbench -n -M simple` runs the scripts
 * (equal weights) with the bench's number of clients for the bench's duration on the same database.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { pgbench } from './bench-lib.ts';

/** One statement as node-postgres received it. */
export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * The text and values of a `pg.Client#query` call in any of its forms: `query(text, values)`,
 * `query({ text, values, name })` and `query(config, values)` (drizzle's prepared statements).
 */
export function statementOf(args: unknown[]): Statement {
  const [first, second] = args;
  const given = Array.isArray(second) ? second : undefined;
  if (typeof first === 'string') return { text: first, values: given ?? [] };
  if (typeof first === 'object' && first && 'text' in first) {
    const own = 'values' in first && Array.isArray(first.values) ? (first.values as unknown[]) : undefined;
    return { text: String(first.text), values: given ?? own ?? [] };
  }
  return { text: '?', values: [] };
}

// node-postgres's own conversion of a parameter to its text form (Dates, arrays, objects, toPostgres).
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (v: unknown) => unknown };

/** A value as node-postgres would send it, written as an SQL literal (`NULL`, `'...'`, `'\x..'` for bytes). */
function literal(value: unknown): string {
  const v = prepareValue(value);
  if (v === null || v === undefined) return 'NULL';
  if (Buffer.isBuffer(v)) return `'\\x${v.toString('hex')}'`;
  return pg.escapeLiteral(String(v));
}

/**
 * The statement with $1..$n replaced by literals. One pass over the text (`$1` cannot eat `$10`, and a
 * literal holding "$2" is not rewritten); each literal is cast to the type PostgreSQL inferred for that
 * parameter (`types`, from PREPARE), so the statement means what the parameterised one meant.
 */
export function inline(s: Statement, types: (string | null)[]): string {
  if (s.values.length === 0) return s.text;
  return s.text.replace(/\$(\d+)/g, (all, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= s.values.length) return all;
    const type = types[i];
    return type ? `(${literal(s.values[i])}::${type})` : literal(s.values[i]);
  });
}

/** Parameter types PostgreSQL infers for each distinct statement text (PREPARE, read back, DEALLOCATE). */
async function parameterTypes(url: string, texts: string[]): Promise<Map<string, (string | null)[]>> {
  const out = new Map<string, (string | null)[]>();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const text of texts) {
      try {
        await c.query(`PREPARE hf_bench_own AS ${text}`);
        const r = await c.query<{ t: string[] | null }>(
          `SELECT parameter_types::text[] AS t FROM pg_prepared_statements WHERE name = 'hf_bench_own'`,
        );
        out.set(text, r.rows[0]?.t ?? []);
        await c.query('DEALLOCATE hf_bench_own');
      } catch {
        // Not preparable here: the literals stay untyped and take their type from the context.
        await c.query('DEALLOCATE ALL').catch(() => undefined);
        out.set(text, []);
      }
    }
  } finally {
    await c.end();
  }
  return out;
}

export interface OwnScripts {
  files: string[];
  statements: number;
  /** The first script that fails to run once (`pgbench -n -t 1`), with pgbench's message. */
  error?: string;
}

/**
 * One pgbench script per captured request (`<dir>/<key>-<i>.sql`), each then run once with
 * `pgbench -n -t 1`: a script PostgreSQL rejects is reported (error) rather than timed.
 */
export async function writeOwnScripts(
  url: string,
  dir: string,
  key: string,
  requests: Statement[][],
): Promise<OwnScripts> {
  const withValues = [
    ...new Set(
      requests
        .flat()
        .filter((s) => s.values.length > 0)
        .map((s) => s.text),
    ),
  ];
  const types = await parameterTypes(url, withValues);
  const files = requests.map((statements, i) => {
    const file = path.join(dir, `${key}-${i}.sql`);
    const body = statements.map(
      (s) =>
        `${inline(s, types.get(s.text) ?? [])
          .trim()
          .replace(/;+$/, '')};\n`,
    );
    writeFileSync(file, body.join(''));
    return file;
  });
  const statements = requests.reduce((n, r) => n + r.length, 0);
  for (const file of files) {
    try {
      pgbench(url, ['-n', '-c', '1', '-t', '1', '-f', file]);
    } catch (err) {
      const e = err as { stderr?: Buffer; message: string };
      const text = (e.stderr?.toString() || e.message).trim();
      // pgbench's "aborted in command N ...: ERROR: ..." line and the statement's LINE excerpt.
      const msg = text
        .split('\n')
        .filter((l) => /ERROR|LINE \d+:/.test(l))
        .join(' | ');
      return { files, statements, error: `${file}: ${msg || text}` };
    }
  }
  return { files, statements };
}

/** `pgbench -n -M simple -c clients -j 2 -T seconds` over the scripts, equal weights: whole requests per second. */
export function pgbenchOwn(url: string, files: string[], clients: number, seconds: number): number {
  const out = pgbench(url, [
    '-n',
    '-M',
    'simple',
    '-c',
    String(clients),
    '-j',
    '2',
    '-T',
    String(seconds),
    ...files.flatMap((f) => ['-f', `${f}@1`]),
  ]);
  const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
  if (!m?.[1]) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(m[1]);
}

/** The command line the table prints. */
export const ownCommand = (clients: number, seconds: number, n: number) =>
  `pgbench -n -M simple -c ${clients} -j 2 -T ${seconds} -f <request 1..${n}>@1`;
