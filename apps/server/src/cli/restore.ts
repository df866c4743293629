import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { BackupError, restore } from '../db/backup.ts';
import { DataDirInUseError } from '../lib/data-dir.ts';

/**
 * `npm run restore -- FILE [--force]`: a backup into the database the server would use
 * (DATABASE_URL, else the embedded one in DATA_DIR). Refuses a target that holds data unless --force.
 * Stop the servers first; start them afterwards (they apply any newer migrations).
 */
const { values, positionals } = parseArgs({
  options: { force: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const file = positionals[0];
if (!file || positionals.length > 1) {
  console.error('Usage: npm run restore -- FILE [--force]');
  process.exit(2);
}
const config = loadConfig();
try {
  const into = await restore({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }, file, {
    force: values.force,
  });
  console.log(`Restored ${file} into the ${into}. Start the server; then run npm run ledger:check.`);
} catch (err) {
  if (!(err instanceof BackupError || err instanceof DataDirInUseError)) throw err;
  console.error(`Restore failed: ${err.message}`);
  process.exitCode = 1;
}
