import { microToUsdc } from '@harvest/shared/money';
import {
  DEPOSIT_FAILURE_KINDS,
  type AdminDeposit,
  type Deposit,
  type DepositFailureKind,
} from '@harvest/shared/schemas/deposits';
import type { AppContext } from '../../context.ts';
import { toUserRef } from '../users/users.dto.ts';
import type { DepositRow, DepositUser } from './deposits.queries.ts';

const isFailureKind = (v: string | null): v is DepositFailureKind => DEPOSIT_FAILURE_KINDS.some((k) => k === v);

export function toDepositDto(d: DepositRow, requiredConfirmations: number): Deposit {
  return {
    _id: d.id,
    amount: microToUsdc(d.amount),
    status: d.status === 'confirmed' || d.status === 'failed' ? d.status : 'pending',
    type: d.type === 'real' || d.type === 'admin_credit' ? d.type : 'demo',
    txHash: d.txHash,
    fromAddress: d.fromAddress,
    createdAt: d.createdAt.toISOString(),
    processedAt: d.processedAt ? d.processedAt.toISOString() : null,
    confirmations: d.confirmations,
    requiredConfirmations: d.type === 'real' ? requiredConfirmations : 0,
    failureReason: d.failureReason,
    failureSaid: d.failureSaid,
    failureKind: isFailureKind(d.failureKind) ? d.failureKind : null,
    // A transfer the chain watcher read is the chain's fact: shown with why it failed, never edited.
    correctable: d.status === 'failed' && d.toAddress === null,
    userId: d.userId,
  };
}

export function toAdminDto(d: DepositRow, u: DepositUser, required: number): AdminDeposit {
  return { ...toDepositDto(d, required), note: d.note, userId: toUserRef(u) };
}

/** A deposit as its owner sees it. */
export const depositDto = (ctx: AppContext, d: DepositRow) => toDepositDto(d, ctx.config.DEPOSIT_CONFIRMATIONS);
