import { parseArgs } from 'node:util';
import { isRole, ROLES } from '@harvest/shared/staff';
import { createAdmin } from '../bootstrap.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { systemClock } from '../lib/clock.ts';

/** `npm run admin:create -- --email a@b.co --password '...' [--role finance] [--first Ada --last Lovelace]` */
const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    first: { type: 'string' },
    last: { type: 'string' },
    role: { type: 'string', default: 'owner' },
  },
});
if (!values.email || !values.password || values.password.length < 8 || !isRole(values.role)) {
  console.error(
    `Usage: npm run admin:create -- --email admin@example.com --password <at least 8 characters> [--role ${ROLES.join('|')}] [--first Name --last Name]`,
  );
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
try {
  await database.migrate();
  const admin = await createAdmin(database.db, {
    email: values.email,
    password: values.password,
    firstName: values.first,
    lastName: values.last,
    role: values.role,
    createdAt: systemClock.now(),
  });
  console.log(`Administrator created: ${admin.email}, role ${admin.role} (invitation code ${admin.invitationCode})`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await database.close();
}
