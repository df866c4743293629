import pg from 'pg';
import { openPostgres } from '../src/db/client.ts';
import { pgliteTemplates } from './pglite-template.ts';
import { buildServer } from './support/build.ts';

/**
 * One template database for the whole run. PGlite: a migrated data dir dumped to a file (pglite-template.ts) that
 * each test file loads instead of running initdb and the migrations. PostgreSQL (DATABASE_URL):
 * a template database each test file copies with CREATE DATABASE ... TEMPLATE, named by
 * HF_TEST_PG_TEMPLATE (default hf_test_template), so two runs sharing a server keep theirs apart.
 */
export default async function setup() {
  // The system and crash tests run the production build (servers, CLIs): built once here, before any file
  // starts a process from it, so no file rebuilds dist/ under another file's running server.
  if (process.env.SYSTEM_TESTS || process.env.CRASH_TESTS === '1') buildServer();
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = process.env.HF_TEST_PG_TEMPLATE ?? 'hf_test_template';
    if (!/^[a-z_][a-z0-9_]*$/.test(template)) throw new Error('HF_TEST_PG_TEMPLATE: a lower-case SQL identifier');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${template}`);
    await admin.end();
    const templateUrl = withDatabase(url, template);
    const db = openPostgres(templateUrl, 1);
    await db.migrate();
    await db.close();
    process.env.HF_TEST_PG_TEMPLATE = template;
    return;
  }
  const { template, empty } = await pgliteTemplates();
  process.env.HF_PGLITE_TEMPLATE = template;
  process.env.HF_PGLITE_EMPTY = empty;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
