import type { Role } from '@harvest/shared/staff';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { inTransaction } from './db/tx.ts';
import { assertNotCommon, verifyPassword } from './lib/passwords.ts';
import { countAdmins, findUserByEmail } from './modules/users/users.queries.ts';
import { insertUserWithAccounts, newInvitationCode } from './modules/users/users.service.ts';

export const DEMO_ADMIN_EMAIL = 'admin@harvest.local';
/** Where the demo administrator's generated password is kept (owner-only), relative to DATA_DIR. */
export const DEMO_ADMIN_PASSWORD_FILE = 'admin-password';

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
  a: { email: string; password: string; firstName?: string; lastName?: string; role?: Role; createdAt: Date },
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
      // The first administrator (ADMIN_EMAIL, the demo one) is an owner: someone must manage staff.
      role: a.role ?? 'owner',
      invitationCode: newInvitationCode(),
      createdAt: a.createdAt,
    }),
  );
}

export interface AdminNotice {
  email: string;
  /** Shown once, when the demo administrator is created. */
  password?: string;
  /** The file that keeps the demo administrator's password. */
  passwordFile?: string;
  invitationCode: string | null;
  created: boolean;
}

/**
 * The first administrator: from ADMIN_EMAIL/ADMIN_PASSWORD, or on a fresh embedded database
 * (no DATABASE_URL, not production) a demo administrator with a random password, printed once
 * and kept owner-only in DATA_DIR: a known default password on a server listening on every
 * interface would be anyone's administrator account.
 */
export async function ensureAdmin(db: Db, config: Config, now: Date): Promise<AdminNotice | null> {
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const existing = await findUserByEmail(db, config.ADMIN_EMAIL.toLowerCase());
    if (existing) return { email: existing.email, invitationCode: existing.invitationCode, created: false };
    const admin = await createAdmin(db, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD, createdAt: now });
    return { email: admin.email, invitationCode: admin.invitationCode, created: true };
  }
  if (config.DATABASE_URL || config.isProduction) return null;
  const passwordFile = path.join(config.DATA_DIR, DEMO_ADMIN_PASSWORD_FILE);
  const demo = await findUserByEmail(db, DEMO_ADMIN_EMAIL);
  if (demo) {
    // Point at the kept password only while it still works.
    const kept = existsSync(passwordFile) ? readFileSync(passwordFile, 'utf8').trim() : '';
    const usable = kept !== '' && (await verifyPassword(demo.passwordHash, kept));
    return usable
      ? { email: DEMO_ADMIN_EMAIL, passwordFile, invitationCode: demo.invitationCode, created: false }
      : null;
  }
  if ((await countAdmins(db)) > 0) return null;
  const password = randomBytes(18).toString('base64url');
  const admin = await createAdmin(db, {
    email: DEMO_ADMIN_EMAIL,
    password,
    firstName: 'Demo',
    lastName: 'Admin',
    createdAt: now,
  });
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  chmodSync(passwordFile, 0o600);
  return { email: DEMO_ADMIN_EMAIL, password, passwordFile, invitationCode: admin.invitationCode, created: true };
}
