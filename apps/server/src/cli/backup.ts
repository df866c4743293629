import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { backup, BackupError } from '../db/backup.ts';
import { DataDirInUseError } from '../lib/data-dir.ts';

/**
 * `npm run backup -- FILE [--unsigned]`: the database the server would use (DATABASE_URL, else the
 * embedded one in DATA_DIR) into FILE, owner-only, signed with BACKUP_KEY into FILE.sig (restore checks
 * it). PostgreSQL: pg_dump's custom format, taken while the servers run. Embedded: PGlite's data-dir
 * dump; the server must be stopped (the data dir is one process's at a time).
 */
// Every file this process creates is owner-only, pg_dump's included (it inherits the umask).
process.umask(0o077);
const { values, positionals } = parseArgs({
  options: { unsigned: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const file = positionals[0];
if (!file || positionals.length > 1) {
  console.error('Usage: npm run backup -- FILE [--unsigned]');
  process.exit(2);
}
const config = loadConfig();
try {
  if (!config.BACKUP_KEY && !values.unsigned)
    throw new BackupError(
      'BACKUP_KEY is not set: backups are signed with it so that a restore can refuse a changed file (docs/OPERATIONS.md, section 7). Set it, or add --unsigned',
    );
  const written = await backup(
    { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR },
    file,
    values.unsigned ? undefined : config.BACKUP_KEY,
  );
  console.log(`Backup written: ${written.join(', ')}`);
} catch (err) {
  if (!(err instanceof BackupError || err instanceof DataDirInUseError)) throw err;
  console.error(`Backup failed: ${err.message}`);
  process.exitCode = 1;
}
