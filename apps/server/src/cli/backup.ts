import { loadConfig } from '../config.ts';
import { backup, BackupError } from '../db/backup.ts';
import { DataDirInUseError } from '../lib/data-dir.ts';

/**
 * `npm run backup -- FILE`: the database the server would use (DATABASE_URL, else the embedded one
 * in DATA_DIR) into FILE. PostgreSQL: pg_dump's custom format, taken while the servers run. Embedded:
 * PGlite's data-dir dump; the server must be stopped (the data dir is one process's at a time).
 */
const file = process.argv[2];
if (!file || file.startsWith('-')) {
  console.error('Usage: npm run backup -- FILE');
  process.exit(2);
}
const config = loadConfig();
try {
  const written = await backup({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }, file);
  console.log(`Backup written: ${written.join(', ')}`);
} catch (err) {
  if (!(err instanceof BackupError || err instanceof DataDirInUseError)) throw err;
  console.error(`Backup failed: ${err.message}`);
  process.exitCode = 1;
}
