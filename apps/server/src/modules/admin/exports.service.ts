import { shownAddress } from '@harvest/shared/address';
import type { Readable } from 'node:stream';
import { microToText } from '@harvest/shared/money';
import type { AppContext } from '../../context.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { userBatch, type AdminUserRow } from './admin-users.queries.ts';
import { csvStream, type CsvColumn } from '../../lib/csv.ts';
import {
  depositBatch,
  exportRowCount,
  withdrawalBatch,
  type DepositRow,
  type WithdrawalRow,
} from './exports.queries.ts';

export const EXPORT_BATCH = 1000;

export const phone = (u: { phoneCountryCode: string | null; phoneNumber: string | null }) =>
  u.phoneCountryCode && u.phoneNumber ? `${u.phoneCountryCode} ${u.phoneNumber}` : null;

const DEPOSIT_COLUMNS: CsvColumn<DepositRow>[] = [
  ['id', (d) => d.id],
  ['created_at', (d) => d.createdAt],
  ['status', (d) => d.status],
  ['type', (d) => d.type],
  ['amount_usdc', (d) => microToText(d.amount)],
  ['tx_hash', (d) => d.txHash],
  ['from_address', (d) => d.fromAddress && shownAddress(d.fromAddress)],
  ['confirmations', (d) => d.confirmations],
  ['processed_at', (d) => d.processedAt],
  ['failure_reason', (d) => d.failureReason],
  ['note', (d) => d.note],
  ['user_id', (d) => d.user.id],
  ['user_email', (d) => d.user.email],
  ['user_first_name', (d) => d.user.firstName],
  ['user_last_name', (d) => d.user.lastName],
];

const WITHDRAWAL_COLUMNS: CsvColumn<WithdrawalRow>[] = [
  ['id', (w) => w.id],
  ['requested_at', (w) => w.requestedAt],
  ['status', (w) => w.status],
  ['source', (w) => w.source],
  ['amount_usdc', (w) => microToText(w.amount)],
  ['fee_usdc', (w) => microToText(w.feeAmount)],
  ['net_usdc', (w) => microToText(w.netAmount)],
  ['cycle_number', (w) => w.cycleNumber],
  ['wallet_address', (w) => shownAddress(w.walletAddress)],
  ['processed_at', (w) => w.processedAt],
  ['tx_hash', (w) => w.txHash],
  ['notes', (w) => w.notes],
  ['request_id', (w) => w.requestId],
  ['user_id', (w) => w.user.id],
  ['user_email', (w) => w.user.email],
  ['user_first_name', (w) => w.user.firstName],
  ['user_last_name', (w) => w.user.lastName],
];

const USER_COLUMNS: CsvColumn<AdminUserRow>[] = [
  ['id', (u) => u.id],
  ['created_at', (u) => u.createdAt],
  ['email', (u) => u.email],
  ['first_name', (u) => u.firstName],
  ['last_name', (u) => u.lastName],
  ['phone', phone],
  ['is_admin', (u) => u.isAdmin],
  ['is_blocked', (u) => u.isBlocked],
  ['balance_usdc', (u) => microToText(u.balance)],
  ['total_investment_usdc', (u) => microToText(u.invested)],
  ['total_earnings_usdc', (u) => microToText(u.totalEarnings)],
  ['referral_rewards_usdc', (u) => microToText(u.referralRewards)],
  ['total_deposits_usdc', (u) => microToText(u.totalDeposits)],
  ['total_adjustments_usdc', (u) => microToText(u.totalAdjustments)],
  ['withdrawal_wallet', (u) => u.withdrawalWallet && shownAddress(u.withdrawalWallet)],
];

const statusOf = (s: string | undefined) => (s && s !== 'all' ? s : null);

/**
 * Every export of personal data leaves a trace: who, what, the filter and the rows it holds,
 * written before the first byte is sent (if the audit row cannot be written, nothing is exported).
 */
async function auditExport(
  ctx: AppContext,
  admin: AuthUser,
  ip: string,
  what: 'deposits' | 'withdrawals' | 'users',
  filter: { status?: string | null; search?: string | undefined },
): Promise<void> {
  const rows = await exportRowCount(ctx.db, what, filter);
  await writeAudit(ctx.db, {
    adminId: admin.id,
    action: 'csv_export',
    targetType: 'export',
    targetId: what,
    after: { filter: Object.fromEntries(Object.entries(filter).filter(([, v]) => v)), rows },
    at: ctx.clock.now(),
    ip,
  });
}

export async function depositsCsv(
  ctx: AppContext,
  admin: AuthUser,
  status: string | undefined,
  ip: string,
): Promise<Readable> {
  const st = statusOf(status);
  await auditExport(ctx, admin, ip, 'deposits', { status: st });
  return csvStream({
    columns: DEPOSIT_COLUMNS,
    batchSize: EXPORT_BATCH,
    fetch: (after, limit) => depositBatch(ctx.db, st, after, limit),
  });
}

export async function withdrawalsCsv(
  ctx: AppContext,
  admin: AuthUser,
  status: string | undefined,
  ip: string,
): Promise<Readable> {
  const st = statusOf(status);
  await auditExport(ctx, admin, ip, 'withdrawals', { status: st });
  return csvStream({
    columns: WITHDRAWAL_COLUMNS,
    batchSize: EXPORT_BATCH,
    fetch: (after, limit) => withdrawalBatch(ctx.db, st, after, limit),
  });
}

export async function usersCsv(
  ctx: AppContext,
  admin: AuthUser,
  search: string | undefined,
  ip: string,
): Promise<Readable> {
  const s = search?.trim() || undefined;
  await auditExport(ctx, admin, ip, 'users', { search: s });
  return csvStream({
    columns: USER_COLUMNS,
    batchSize: EXPORT_BATCH,
    fetch: (after, limit) => userBatch(ctx.db, s, after, limit),
  });
}
