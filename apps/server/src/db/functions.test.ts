import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/helpers.ts';
import { FUNCTIONS_FILE } from '../lib/paths.ts';
import type { Database } from './client.ts';
import { rawRows } from './raw.ts';

/** db/functions.sql is the one place a reader finds the database's functions, views and triggers. */
let database: Database;
const file = readFileSync(FUNCTIONS_FILE, 'utf8');
const defined = (kind: string, name: string) =>
  new RegExp(`CREATE (OR REPLACE )?(CONSTRAINT )?${kind} ${name}\\b`).test(file);

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

describe('db/functions.sql', () => {
  it('defines every function, view and trigger the migrated database holds (extensions aside)', async () => {
    const functions = await rawRows<{ name: string }>(
      database.db,
      sql`SELECT DISTINCT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
    );
    const views = await rawRows<{ name: string }>(
      database.db,
      sql`SELECT viewname AS name FROM pg_views WHERE schemaname = 'public'`,
    );
    const triggers = await rawRows<{ name: string }>(
      database.db,
      sql`SELECT t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND NOT t.tgisinternal`,
    );
    // Guards, ids and the deposit that counts: no trigger derives a figure (postMany writes them with the postings).
    expect(functions.map((f) => f.name).sort()).toEqual([
      'audit_log_append_only',
      'hf_deposit_counts',
      'hf_owner_uuid',
      'hf_uuid7',
      'ledger_append_only',
    ]);
    expect(triggers.map((t) => t.name).sort()).toEqual([
      'audit_log_no_update',
      'ledger_entries_no_update',
      'ledger_transactions_no_update',
    ]);
    expect(functions.map((f) => f.name).filter((name) => !defined('FUNCTION', name))).toEqual([]);
    expect(views.map((v) => v.name).filter((name) => !defined('VIEW', name))).toEqual([]);
    expect(triggers.map((t) => t.name).filter((name) => !defined('TRIGGER', name))).toEqual([]);
  });

  it('is applied again after the migrations when it changed', async () => {
    const applied = async () =>
      (await rawRows<{ value: string }>(database.db, sql`SELECT value FROM settings WHERE key = 'sql_functions'`))[0]
        ?.value;
    const hash = await applied();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    // A definition changed behind the file's back (as an older file would have left it).
    await database.db.execute(
      sql.raw(`CREATE OR REPLACE FUNCTION hf_deposit_counts(status text, type text) RETURNS boolean LANGUAGE sql
               IMMUTABLE AS $$ SELECT true $$`),
    );
    const counts = async () =>
      (await rawRows<{ c: boolean }>(database.db, sql`SELECT hf_deposit_counts('failed', 'demo') AS c`))[0]?.c;
    await database.migrate();
    expect(await counts()).toBe(true);
    await database.db.execute(sql`UPDATE settings SET value = 'an older file' WHERE key = 'sql_functions'`);
    await database.migrate();
    expect(await applied()).toBe(hash);
    expect(await counts()).toBe(false);
  });
});
