import { PGlite } from '@electric-sql/pglite';
import { PGLITE_OPTIONS } from '../../src/db/pglite.ts';

/**
 * Embedded databases for test files, reused within a worker. Booting a PGlite from the migrated template costs about
 * 0.7 s of one core (a WASM PostgreSQL starting up), which the suite paid about a hundred times. A database a test
 * file has closed comes back here and is put back to the template's exact state instead: every table emptied and
 * refilled with the template's rows, every sequence set to the template's value, the session discarded (settings,
 * prepared statements, locks). One whose schema a test changed (a function, a table, a trigger) is closed for good.
 */

interface TemplateState {
  /** A fingerprint of the schema: catalog rows of our objects. */
  schema: string;
  tables: string[];
  /** Rows the migrations put in (as JSON) with the columns that can be written (no generated ones). */
  rows: { table: string; columns: string[]; json: string }[];
  sequences: { name: string; value: string; called: boolean }[];
}

const spare: PGlite[] = [];
let state: TemplateState | undefined;

const SCHEMA_FINGERPRINT = `
  SELECT md5(string_agg(x, ',' ORDER BY x)) AS s FROM (
    SELECT c.relname || ':' || c.relkind::text || ':' || (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = c.oid) AS x
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
    UNION ALL SELECT 'p:' || p.proname || ':' || md5(p.prosrc) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
    UNION ALL SELECT 't:' || tgname || ':' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal) f`;

async function readState(c: PGlite): Promise<TemplateState> {
  const schema = (await c.query<{ s: string }>(SCHEMA_FINGERPRINT)).rows[0]?.s ?? '';
  const tables = (
    await c.query<{ t: string }>(`SELECT quote_ident(tablename) AS t FROM pg_tables WHERE schemaname = 'public'`)
  ).rows.map((r) => r.t);
  const rows: TemplateState['rows'] = [];
  for (const table of tables) {
    const json = (await c.query<{ j: string | null }>(`SELECT json_agg(t)::text AS j FROM ${table} t`)).rows[0]?.j;
    if (!json) continue;
    const columns = (
      await c.query<{ c: string }>(
        `SELECT quote_ident(column_name) AS c FROM information_schema.columns
         WHERE table_schema = 'public' AND quote_ident(table_name) = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
        [table],
      )
    ).rows.map((r) => r.c);
    rows.push({ table, columns, json });
  }
  const sequences = (
    await c.query<{ name: string; value: string; called: boolean }>(
      `SELECT quote_ident(sequencename) AS name, COALESCE(last_value, start_value)::text AS value,
              last_value IS NOT NULL AS called FROM pg_sequences WHERE schemaname = 'public'`,
    )
  ).rows;
  return { schema, tables, rows, sequences };
}

/** The template's state again, or false when the schema no longer is the template's. */
async function reset(c: PGlite, s: TemplateState): Promise<boolean> {
  await c.exec('ROLLBACK'); // a transaction a failed test left open
  await c.exec('DISCARD ALL');
  if ((await c.query<{ s: string }>(SCHEMA_FINGERPRINT)).rows[0]?.s !== s.schema) return false;
  // As a replica: no trigger fires (the rows are the template's, derived figures included) and no foreign key waits.
  await c.exec(`SET session_replication_role = replica; TRUNCATE ${s.tables.join(', ')};`);
  for (const r of s.rows)
    await c.query(
      `INSERT INTO ${r.table} (${r.columns.join(', ')}) SELECT ${r.columns.join(', ')} FROM json_populate_recordset(null::${r.table}, $1::json)`,
      [r.json],
    );
  for (const q of s.sequences) await c.query(`SELECT setval($1, $2::bigint, $3)`, [q.name, q.value, q.called]);
  await c.exec('RESET session_replication_role');
  return true;
}

/** A database in the template's state: a spare one put back, or a new one booted from the template. */
export async function templateDatabase(template: () => Blob): Promise<PGlite> {
  for (let c = spare.pop(); c; c = spare.pop()) {
    if (state && (await reset(c, state))) return c;
    await c.close();
  }
  const client = await PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: template() });
  state ??= await readState(client);
  return client;
}

/** A test file is done with it: kept for the next one (reset when taken). */
export function giveBack(c: PGlite): void {
  spare.push(c);
}
