import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '../../src/db/raw.ts';
import { stepOf, totpAt } from '../../src/lib/totp.ts';
import { call, createTestApp, makeUser, type TestApp } from '../helpers.ts';

/**
 * Exports of personal data and changes of sign-in credentials leave a trace: every CSV export
 * (who, what, filter, rows), two-factor change, password change and e-mail change writes an
 * audit entry with the client address.
 */
interface AuditRow {
  admin_id: string;
  action: string;
  target_type: string;
  target_id: string;
  after: any;
  ip: string | null;
}

describe('audit trail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const auditOf = (actor: string) =>
    rawRows<AuditRow>(
      t.ctx.db,
      sql`SELECT admin_id, action, target_type, target_id, after, ip FROM audit_log WHERE admin_id = ${actor}::uuid ORDER BY id`,
    );

  it('every CSV export records who, what, the filter and the row count', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    await makeUser(t, { lastName: 'Exportee' });
    await makeUser(t, { lastName: 'Exportee' });
    const bodies: Record<string, string> = {};
    for (const url of [
      '/api/admin/export/users.csv?search=exportee',
      '/api/admin/export/deposits.csv?status=pending',
      '/api/admin/export/withdrawals.csv',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin.token}` } });
      expect(res.statusCode).toBe(200);
      bodies[url] = res.body;
    }
    const rows = await auditOf(admin.user.id);
    expect(rows.map((r) => [r.action, r.target_type, r.target_id, r.after])).toEqual([
      ['csv_export', 'export', 'users', { filter: { search: 'exportee' }, rows: 2 }],
      ['csv_export', 'export', 'deposits', { filter: { status: 'pending' }, rows: 0 }],
      ['csv_export', 'export', 'withdrawals', { filter: {}, rows: 0 }],
    ]);
    // The count is the export's own: data lines after the header.
    const dataLines = (body: string) => body.split('\r\n').filter(Boolean).length - 1;
    expect(dataLines(bodies['/api/admin/export/users.csv?search=exportee'] ?? '')).toBe(2);
    expect(rows.every((r) => r.ip === '127.0.0.1')).toBe(true);
  });

  it('two-factor on and off, a password change and an e-mail change are recorded for the account', async () => {
    const u = await makeUser(t);
    const setup = await call(t, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: u.password } });
    const step = stepOf(t.clock.now());
    const on = await call(t, 'POST', '/api/user/2fa/enable', {
      token: u.token,
      body: { password: u.password, code: totpAt(setup.data.secret, step) },
    });
    expect(on.statusCode).toBe(200);
    const off = await call(t, 'POST', '/api/user/2fa/disable', {
      token: on.data.token,
      body: { password: u.password, code: totpAt(setup.data.secret, step + 1) },
    });
    expect(off.statusCode).toBe(200);
    const pw = await call(t, 'PUT', '/api/user/profile', {
      token: off.data.token,
      body: {
        firstName: 'A',
        lastName: 'B',
        currentPassword: u.password,
        newPassword: 'fresh-pass-77',
        confirmPassword: 'fresh-pass-77',
      },
    });
    expect(pw.statusCode).toBe(200);
    const admin = await makeUser(t, { isAdmin: true });
    const mail = await call(t, 'PUT', '/api/user/admin/update-email', {
      token: admin.token,
      body: { newEmail: `moved.${Date.now()}@example.com`, password: admin.password },
    });
    expect(mail.statusCode).toBe(200);

    const mine = await auditOf(u.user.id);
    expect(mine.map((r) => [r.action, r.target_type, r.target_id])).toEqual([
      ['two_factor_enable', 'user', u.user.id],
      ['two_factor_disable', 'user', u.user.id],
      ['password_change', 'user', u.user.id],
    ]);
    const theirs = await auditOf(admin.user.id);
    expect(theirs.map((r) => r.action)).toEqual(['email_change']);
    expect([...mine, ...theirs].every((r) => r.ip === '127.0.0.1')).toBe(true);
  });
});
