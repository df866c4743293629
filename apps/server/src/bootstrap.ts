import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { inTransaction } from './db/tx.ts';
import { assertNotCommon, verifyPassword } from './lib/passwords.ts';
import { countAdmins, findUserByEmail } from './modules/users/users.queries.ts';
import { insertUserWithAccounts, newInvitationCode } from './modules/users/users.service.ts';

export const DEMO_ADMIN = { email: 'admin@harvest.local', password: 'harvest-admin' } as const;

/** JWT_SECRET, or (embedded default only) a secret generated once and kept in DATA_DIR. */
export function resolveSecret(config: Config): string {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  const file = path.join(config.DATA_DIR, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.DATA_DIR, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export async function createAdmin(
  db: Db,
  a: { email: string; password: string; firstName?: string; lastName?: string },
) {
  assertNotCommon(a.password);
  return inTransaction(db, (tx) =>
    insertUserWithAccounts(tx, {
      email: a.email.toLowerCase(),
      firstName: a.firstName ?? 'Platform',
      lastName: a.lastName ?? 'Admin',
      password: a.password,
      // Administrators do not withdraw through the app; their withdrawal password is random.
      withdrawalPassword: randomBytes(24).toString('base64url'),
      isAdmin: true,
      invitationCode: newInvitationCode(),
    }),
  );
}

export interface AdminNotice {
  email: string;
  password?: string;
  invitationCode: string | null;
  created: boolean;
}

/**
 * The first administrator: from ADMIN_EMAIL/ADMIN_PASSWORD, or on a fresh embedded database
 * (no DATABASE_URL, not production) a demo administrator whose sign-in is printed at start.
 */
export async function ensureAdmin(db: Db, config: Config): Promise<AdminNotice | null> {
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const existing = await findUserByEmail(db, config.ADMIN_EMAIL.toLowerCase());
    if (existing) return { email: existing.email, invitationCode: existing.invitationCode, created: false };
    const admin = await createAdmin(db, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
    return { email: admin.email, invitationCode: admin.invitationCode, created: true };
  }
  if (config.DATABASE_URL || config.isProduction) return null;
  const demo = await findUserByEmail(db, DEMO_ADMIN.email);
  if (demo) {
    // Print the demo sign-in only while it still works.
    const usable = await verifyPassword(demo.passwordHash, DEMO_ADMIN.password);
    return usable ? { ...DEMO_ADMIN, invitationCode: demo.invitationCode, created: false } : null;
  }
  if ((await countAdmins(db)) > 0) return null;
  const admin = await createAdmin(db, {
    email: DEMO_ADMIN.email,
    password: DEMO_ADMIN.password,
    firstName: 'Demo',
    lastName: 'Admin',
  });
  return { ...DEMO_ADMIN, invitationCode: admin.invitationCode, created: true };
}
