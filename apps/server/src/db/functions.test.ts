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
    expect(functions.length).toBeGreaterThan(20);
    expect(triggers.length).toBeGreaterThan(30);
    expect(functions.map((f) => f.name).filter((name) => !defined('FUNCTION', name))).toEqual([]);
    expect(views.map((v) => v.name).filter((name) => !defined('VIEW', name))).toEqual([]);
    expect(triggers.map((t) => t.name).filter((name) => !defined('TRIGGER', name))).toEqual([]);
  });

  it('is applied again after the migrations when it changed, and the kept figures rebuilt with it', async () => {
    const applied = async () =>
      (await rawRows<{ value: string }>(database.db, sql`SELECT value FROM settings WHERE key = 'sql_functions'`))[0]
        ?.value;
    const hash = await applied();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    // A rollup row the raw rows do not imply (as a changed definition would leave behind).
    await database.db.execute(sql`INSERT INTO rollups (metric, day, slot, n) VALUES ('stale', '2026-01-01', 0, 1)`);
    await database.migrate();
    expect(await rawRows(database.db, sql`SELECT 1 FROM rollups WHERE metric = 'stale'`)).toHaveLength(1);
    await database.db.execute(sql`UPDATE settings SET value = 'an older file' WHERE key = 'sql_functions'`);
    await database.migrate();
    expect(await applied()).toBe(hash);
    expect(await rawRows(database.db, sql`SELECT 1 FROM rollups WHERE metric = 'stale'`)).toHaveLength(0);
  });
});
