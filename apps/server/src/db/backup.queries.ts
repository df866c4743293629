import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rawRows } from './raw.ts';

/** Tables outside PostgreSQL's own schemas: a database with any is not an empty restore target. */
export async function countUserTables(db: Db): Promise<number> {
  const rows = await rawRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND s.nspname NOT IN ('pg_catalog', 'information_schema')
          AND s.nspname NOT LIKE 'pg_toast%'`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Empties a database for a forced restore: the app's schemas go, an empty public schema stays. */
export async function dropAppSchemas(db: Db): Promise<void> {
  await rawRows(db, sql`DROP SCHEMA IF EXISTS drizzle CASCADE`);
  await rawRows(db, sql`DROP SCHEMA IF EXISTS public CASCADE`);
  await rawRows(db, sql`CREATE SCHEMA public`);
}

/** The connection's role is a superuser or may run programs on the server (COPY ... TO PROGRAM). */
export async function mayRunServerPrograms(db: Db): Promise<boolean> {
  const rows = await rawRows<{ may: boolean }>(
    db,
    sql`SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
               OR pg_has_role(current_user, 'pg_execute_server_program', 'MEMBER') AS may`,
  );
  return rows[0]?.may === true;
}
