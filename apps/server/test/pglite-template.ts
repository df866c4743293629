import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_OPTIONS, wrapPglite } from '../src/db/pglite.ts';
import { FUNCTIONS_FILE, MIGRATIONS_DIR, SERVER_DIR } from '../src/lib/paths.ts';

const CACHE = path.resolve(SERVER_DIR, '../../node_modules/.cache/harvest-pglite-templates');

/** The version installed (the packages export no package.json: found above their entry point). */
function installedVersion(pkg: string): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve(pkg));
  while (
    !existsSync(path.join(dir, 'package.json')) ||
    JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== pkg
  ) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`${pkg}: package.json not found`);
    dir = up;
  }
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

/** What the migrated cluster is made of: every migration file, the SQL functions, and the versions that run them. */
function templateKey(): string {
  const h = createHash('sha256');
  for (const pkg of ['@electric-sql/pglite', 'drizzle-orm']) h.update(`${pkg}@${installedVersion(pkg)}\n`);
  const files = [
    ...readdirSync(MIGRATIONS_DIR, { recursive: true, encoding: 'utf8' }).map((f) => path.join(MIGRATIONS_DIR, f)),
    FUNCTIONS_FILE,
    path.join(SERVER_DIR, 'src/db/pglite.ts'),
  ].sort();
  for (const f of files) {
    if (!f.endsWith('.sql') && !f.endsWith('.json') && !f.endsWith('.ts')) continue;
    h.update(`${path.relative(SERVER_DIR, f)}\n`).update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 24);
}

/**
 * The PGlite cluster before any migration and migrated (with the SQL functions), each dumped uncompressed (it loads
 * in about half the time of a gzipped one). Made once per content of what builds them and kept under
 * node_modules/.cache, so the fast suite, the system suite after it and the browser suite's first server each skip
 * initdb and the migrations (a changed migration or function makes a new one).
 */
export async function pgliteTemplates(): Promise<{ template: string; empty: string }> {
  const dir = path.join(CACHE, templateKey());
  const made = { template: path.join(dir, 'template.tar'), empty: path.join(dir, 'empty.tar') };
  if (existsSync(made.template) && existsSync(made.empty)) return made;
  mkdirSync(CACHE, { recursive: true });
  const tmp = mkdtempSync(path.join(CACHE, 'making-'));
  const client = await PGlite.create(PGLITE_OPTIONS);
  writeFileSync(path.join(tmp, 'empty.tar'), Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await wrapPglite(client).migrate();
  writeFileSync(path.join(tmp, 'template.tar'), Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await client.close();
  try {
    renameSync(tmp, dir);
  } catch {
    // Another run made the same one first.
    rmSync(tmp, { recursive: true, force: true });
  }
  // One kept at a time (80 MB each): those of older migrations go.
  for (const old of readdirSync(CACHE))
    if (old !== path.basename(dir) && !old.startsWith('making-'))
      rmSync(path.join(CACHE, old), { recursive: true, force: true });
  return made;
}

/** A DATA_DIR whose embedded database (DATA_DIR/pglite) is the migrated template, as a server opens it. */
export async function migratedDataDir(dataDir: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { template } = await pgliteTemplates();
  const client = await PGlite.create(path.join(dataDir, 'pglite'), {
    loadDataDir: new Blob([readFileSync(template)]),
    ...PGLITE_OPTIONS,
  });
  await client.close();
}
