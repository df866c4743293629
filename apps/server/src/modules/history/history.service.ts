import { shownAddress } from '@harvest/shared/address';
import { microToUsdc } from '@harvest/shared/money';
import {
  HISTORY_PAGE_SIZE,
  HISTORY_STATUSES,
  type HistoryItem,
  type HistoryResponse,
  type HistoryStatus,
} from '@harvest/shared/schemas/history';
import type { AppContext } from '../../context.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import * as q from './history.queries.ts';

const isStatus = (s: string): s is HistoryStatus => HISTORY_STATUSES.some((k) => k === s);

function toItem(r: q.HistoryRow): HistoryItem {
  return {
    _id: r.id,
    kind: r.kind === 'withdrawal' ? 'withdrawal' : 'deposit',
    amount: microToUsdc(r.amount),
    fee: r.fee !== null && r.fee > 0n ? microToUsdc(r.fee) : null,
    status: isStatus(r.status) ? r.status : 'pending',
    txHash: r.tx_hash,
    address: r.address && shownAddress(r.address),
    at: r.at.toISOString(),
    processedAt: r.processed_at ? r.processed_at.toISOString() : null,
  };
}

/** The investor's own deposits and withdrawals, one page; the session says whose, never the request. */
export async function userHistory(
  ctx: AppContext,
  user: AuthUser,
  input: { page: number; status?: HistoryStatus; q?: string },
): Promise<HistoryResponse> {
  const filter = { userId: user.id, status: input.status, search: input.q ? input.q.toLowerCase() : undefined };
  const [rows, total] = await Promise.all([
    q.historyPage(ctx.db, filter, input.page, HISTORY_PAGE_SIZE),
    q.historyCount(ctx.db, filter),
  ]);
  return { items: rows.map(toItem), page: input.page, pageSize: HISTORY_PAGE_SIZE, total };
}
