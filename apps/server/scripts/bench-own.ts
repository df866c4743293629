/**
 * The own-SQL ceiling of `npm run bench` (docs/decisions/0050): PostgreSQL's own throughput running exactly
 * the statements an endpoint sends. The bench records every statement (text, values, name) of the requests
 * the load sends to each read endpoint (decision 0061: the same drawn requests on both sides), in-process;
 * their parameters are inlined as SQL literals cast to the types the server inferred for them, each pgbench
 * transaction replays one request picked at random, and `pgbench -n -M simple` runs them with the bench's
 * number of clients for the bench's duration on the same database.
 * Statements the server sent unnamed are inlined whole (parsed and planned on every run, as the server's
 * are); named (prepared) ones are PREPAREd once per pgbench client and run with EXECUTE, as the server's
 * are prepared once per pool connection.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { pgbench } from './bench-lib.ts';

/** One statement as node-postgres received it; `name` when it was a named (prepared) statement. */
export interface Statement {
  text: string;
  values: unknown[];
  name?: string;
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
    const name = 'name' in first && typeof first.name === 'string' && first.name ? first.name : undefined;
    return { text: String(first.text), values: given ?? own ?? [], ...(name ? { name } : {}) };
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

/** Parameter i as a literal cast to the type PostgreSQL inferred for it (`types`, from PREPARE). */
const argument = (s: Statement, types: (string | null)[], i: number) => {
  const type = types[i];
  return type ? `(${literal(s.values[i])}::${type})` : literal(s.values[i]);
};

/**
 * The statement with $1..$n replaced by literals. One pass over the text (`$1` cannot eat `$10`, and a
 * literal holding "$2" is not rewritten); each literal is cast to the type PostgreSQL inferred for that
 * parameter, so the statement means what the parameterised one meant.
 */
export function inline(s: Statement, types: (string | null)[]): string {
  if (s.values.length === 0) return s.text;
  return s.text.replace(/\$(\d+)/g, (all, n: string) => {
    const i = Number(n) - 1;
    return i < 0 || i >= s.values.length ? all : argument(s, types, i);
  });
}

/**
 * pgbench variable marking, per client, that the endpoint's named statements are prepared on its connection
 * (`-D` sets it to 0 for every client; the first script a client runs prepares them and sets it to 1).
 */
const PREPARED_FLAG = 'hf_prepared';
const flagArgs = ['-D', `${PREPARED_FLAG}=0`];
const statementLine = (sql: string) => `${sql.trim().replace(/;+$/, '')};\n`;

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
  /** pgbench's `-f file@weight` arguments: a file's weight is the number of requests it holds. */
  files: { file: string; weight: number }[];
  /** Requests captured, and their statements in all. */
  requests: number;
  statements: number;
  /** The first request PostgreSQL rejects, or the first script pgbench fails to run once, with the message. */
  error?: string;
}

/** Scripts per endpoint: pgbench takes at most 128 in one run. */
const MAX_FILES = 32;
/** The per-client pgbench variable choosing the request a transaction replays. */
const PICK = 'hf_pick';

/**
 * A script replaying one of `bodies` at random, equal odds: `\set hf_pick random(0, n-1)`, then a balanced
 * tree of `\if :hf_pick < m` (log2 n meta-commands per transaction, not a chain of n).
 */
export function pickOne(bodies: string[]): string {
  if (bodies.length === 1) return bodies[0] ?? '';
  const tree = (lo: number, hi: number): string => {
    if (hi - lo === 1) return bodies[lo] ?? '';
    const mid = (lo + hi) >> 1;
    return `\\if :${PICK} < ${mid}\n${tree(lo, mid)}\\else\n${tree(mid, hi)}\\endif\n`;
  };
  return `\\set ${PICK} random(0, ${bodies.length - 1})\n${tree(0, bodies.length)}`;
}

/** The first line of PostgreSQL's (or pgbench's) complaint about a statement or script. */
function complaint(err: unknown): string {
  const e = err as { stderr?: Buffer; message: string };
  const text = (e.stderr?.toString() || e.message).trim();
  // pgbench's "aborted in command N ...: ERROR: ..." line and the statement's LINE excerpt.
  const msg = text
    .split('\n')
    .filter((l) => /ERROR|LINE \d+:/.test(l))
    .join(' | ');
  return msg || text;
}

/**
 * The captured requests as pgbench scripts (`<dir>/<key>-<f>.sql`, at most MAX_FILES), each transaction one
 * request picked at random (`pickOne`); a file weighs as many requests as it holds, so every request has the
 * same odds. Every request is run once first, statement by statement on one connection as pgbench sends them,
 * and every script once with `pgbench -n -t 1`: a request PostgreSQL rejects is reported (error) rather than timed.
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
  // Named statements are parsed once per connection by the server: here once per pgbench client (a
  // PREPARE block at the top of every script, run by the client's first), then EXECUTE with the values.
  const named = new Map<string, { id: string; text: string }>();
  for (const s of requests.flat())
    if (s.name && !named.has(s.name)) named.set(s.name, { id: `hf_p${named.size + 1}`, text: s.text });
  const prepares = [...named.values()].map((n) => statementLine(`PREPARE ${n.id} AS ${n.text}`));
  const prelude = named.size
    ? [`\\if :${PREPARED_FLAG} = 0\n`, ...prepares, `\\set ${PREPARED_FLAG} 1\n`, '\\endif\n']
    : [];
  const line = (s: Statement) => {
    const t = types.get(s.text) ?? [];
    const prepared = s.name ? named.get(s.name) : undefined;
    if (!prepared) return statementLine(inline(s, t));
    const args = s.values.map((_, i) => argument(s, t, i));
    return statementLine(args.length ? `EXECUTE ${prepared.id}(${args.join(', ')})` : `EXECUTE ${prepared.id}`);
  };
  if (requests.every((r) => r.length === 0)) return { files: [], requests: requests.length, statements: 0 };
  const bodies = requests.map((r) => r.map(line));
  const statements = requests.reduce((n, r) => n + r.length, 0);

  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const p of prepares) await c.query(p);
    for (const [i, body] of bodies.entries()) {
      try {
        for (const l of body) await c.query(l);
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        return {
          files: [],
          requests: requests.length,
          statements,
          error: `${key} request ${i + 1}: ${complaint(err)}`,
        };
      }
    }
  } finally {
    await c.end();
  }

  const per = Math.ceil(bodies.length / MAX_FILES);
  const files: OwnScripts['files'] = [];
  for (let at = 0; at < bodies.length; at += per) {
    const chunk = bodies.slice(at, at + per);
    const file = path.join(dir, `${key}-${files.length + 1}.sql`);
    writeFileSync(file, [...prelude, pickOne(chunk.map((b) => b.join('')))].join(''));
    files.push({ file, weight: chunk.length });
  }
  for (const { file } of files) {
    try {
      pgbench(url, ['-n', '-c', '1', '-t', '1', ...flagArgs, '-f', file]);
    } catch (err) {
      return { files, requests: requests.length, statements, error: `${file}: ${complaint(err)}` };
    }
  }
  return { files, requests: requests.length, statements };
}

/** `pgbench -n -M simple -c clients -j 2 -T seconds` over the scripts, weighted by requests: whole requests per second. */
export function pgbenchOwn(url: string, files: OwnScripts['files'], clients: number, seconds: number): number {
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
    ...flagArgs,
    ...files.flatMap((f) => ['-f', `${f.file}@${f.weight}`]),
  ]);
  const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
  if (!m?.[1]) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(m[1]);
}

/** The command line the table prints. */
export const ownCommand = (clients: number, seconds: number, n: number) =>
  `pgbench -n -M simple -c ${clients} -j 2 -T ${seconds} -f <script k, one of its requests at random>@<its requests> (${n} requests in ${Math.min(n, MAX_FILES)} scripts)`;
