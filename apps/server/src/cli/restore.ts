import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { BackupError, restore } from '../db/backup.ts';
import { DataDirInUseError } from '../lib/data-dir.ts';

/**
 * `npm run restore -- FILE [--force] [--unsigned] [--allow-superuser]`: a backup into the database the
 * server would use (DATABASE_URL, else the embedded one in DATA_DIR). Refuses a file BACKUP_KEY did not
 * sign as it is (unless --unsigned), a PostgreSQL superuser connection (unless --allow-superuser), and a
 * target that holds data (unless --force). Stop the servers first; start them afterwards (they apply
 * any newer migrations).
 */
const USAGE = 'Usage: npm run restore -- FILE [--force] [--unsigned] [--allow-superuser]';
let parsed;
try {
  parsed = parseArgs({
    options: {
      force: { type: 'boolean', default: false },
      unsigned: { type: 'boolean', default: false },
      'allow-superuser': { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
} catch {
  console.error(USAGE);
  process.exit(2);
}
const { values, positionals } = parsed;
const file = positionals[0];
if (!file || positionals.length > 1) {
  console.error(USAGE);
  process.exit(2);
}
const config = loadConfig();
try {
  const into = await restore({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }, file, {
    force: values.force,
    key: config.BACKUP_KEY,
    unsigned: values.unsigned,
    allowSuperuser: values['allow-superuser'],
  });
  if (values.unsigned) console.warn(`Restored without checking a signature (--unsigned).`);
  console.log(`Restored ${file} into the ${into}. Start the server; then run npm run ledger:check.`);
} catch (err) {
  if (!(err instanceof BackupError || err instanceof DataDirInUseError)) throw err;
  console.error(`Restore failed: ${err.message}`);
  process.exitCode = 1;
}
