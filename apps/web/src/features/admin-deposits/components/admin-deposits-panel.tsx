import { msg } from '@harvest/shared/i18n';
import { useState, type ReactNode } from 'react';
import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import * as z from 'zod/mini';
import {
  ADMIN_DEPOSIT_FILTERS,
  adminRejectDepositBody,
  type AdminDeposit,
  type AdminDepositFilter,
} from '@harvest/shared/schemas/deposits';
import { Pager } from '../../../components/ui/pager.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { ReasonDialog } from '../../../components/ui/reason-dialog.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useFailure } from '../../../lib/form.ts';
import { useApproveDeposit } from '../api/approve-deposit.ts';
import { useRejectDeposit } from '../api/reject-deposit.ts';
import { adminDepositsQuery, DEPOSITS_PAGE_SIZE } from '../api/deposits.ts';
import { dateTime, fullName, usdc } from '../../../lib/format.ts';
import { Email } from '../../../components/ui/email.tsx';
import { usePagedQuery } from '../../../lib/use-paged-query.ts';
import { rich, t } from '../../../lib/i18n.tsx';
import { StoredText } from '../../../components/ui/stored-text.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';
import { useCan } from '../../../lib/auth.tsx';

const FILTER_LABEL: Record<AdminDepositFilter, string> = {
  all: msg('All'),
  pending: msg('Pending'),
  confirmed: msg('Confirmed'),
  failed: msg('Failed'),
};
const STATUS_STYLE: Record<AdminDeposit['status'], string> = {
  pending: 'bg-amber-100 text-amber-800',
  confirmed: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-rose-100 text-rose-800',
};
/** The status as the list writes it (lower case, capitalised by CSS). */
const STATUS_WORD: Record<AdminDeposit['status'], string> = {
  pending: msg('pending'),
  confirmed: msg('confirmed'),
  failed: msg('failed'),
};
const TYPE_LABEL: Record<AdminDeposit['type'], string> = {
  demo: msg('Demo'),
  real: msg('On-chain'),
  admin_credit: msg('Admin credit'),
};

/** Admin deposits: filter all / pending / confirmed / failed with counts, Approve or Reject on pending ones. */
/** `toolbar` (composed by the app layer, e.g. a CSV download) receives the current filter. */
export function AdminDepositsPanel({ toolbar }: { toolbar?: (filter: AdminDepositFilter) => ReactNode } = {}) {
  const [filter, setFilter] = useState<AdminDepositFilter>('all');
  const list = usePagedQuery((at) => adminDepositsQuery(filter, at), {
    pageSize: DEPOSITS_PAGE_SIZE,
    total: (d) => d.total,
    filter,
  });
  const counts = list.query.data?.counts;

  return (
    <Card title={t('Deposits')} actions={toolbar?.(filter)}>
      <div role="group" aria-label={t('Filter deposits by status')} className="mb-4 flex flex-wrap gap-2">
        {ADMIN_DEPOSIT_FILTERS.map((f) => (
          <Button
            key={f}
            variant={filter === f ? 'primary' : 'secondary'}
            aria-pressed={filter === f}
            onClick={() => setFilter(f)}
          >
            {t('{filter} ({n})', { filter: t(FILTER_LABEL[f]), n: counts ? counts[f] : '…' })}
          </Button>
        ))}
      </div>
      <QueryState query={list.query} what={t('deposits')}>
        {(data) =>
          data.deposits.length === 0 ? (
            <p className="text-sm text-slate-500">{t('No deposits.')}</p>
          ) : (
            <ul className="divide-y divide-slate-200">
              {data.deposits.map((d) => (
                <AdminDepositRow key={d._id} deposit={d} />
              ))}
            </ul>
          )
        }
      </QueryState>
      <Pager label={t('Deposit pages')} {...list.pager} onLight />
    </Card>
  );
}

function AdminDepositRow({ deposit: d }: { deposit: AdminDeposit }) {
  const approve = useApproveDeposit();
  const [rejecting, setRejecting] = useState(false);
  const [approving, setApproving] = useState(false);
  const failure = useFailure();
  const money = useCan('money');
  async function onApprove() {
    try {
      const res = await approve.mutateAsync(d._id);
      setApproving(false);
      toast.success(res.message);
    } catch (err) {
      failure.set(err, TEXT.approveDepositFailed);
      toast.error(errorText(err, TEXT.approveDepositFailed));
    }
  }
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-1">
        <p className="font-semibold text-slate-900">
          {d.userId.firstName} {d.userId.lastName}{' '}
          <span className="font-normal text-slate-500">
            (<Email address={d.userId.email} />)
          </span>
        </p>
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-semibold text-slate-900">{usdc(d.amount)}</span>
          <span className={`rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${STATUS_STYLE[d.status]}`}>
            {t(STATUS_WORD[d.status])}
          </span>
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{t(TYPE_LABEL[d.type])}</span>
          {d.type === 'real' && d.status === 'pending' && (
            <span className="text-xs text-slate-500">
              {t('{n} of {required} confirmations', {
                n: Math.min(d.confirmations, d.requiredConfirmations),
                required: d.requiredConfirmations,
              })}
            </span>
          )}
        </p>
        <p className="text-xs text-slate-600">
          {d.txHash ? <ChainValue kind="tx" value={d.txHash} short="adminDeposits" /> : '—'}
        </p>
        {d.fromAddress && (
          <p className="text-xs text-slate-600">
            {rich(t('from <0>{address}</0>', { address: d.fromAddress }), [
              () => <ChainValue kind="address" value={d.fromAddress ?? ''} />,
            ])}
          </p>
        )}
        <p className="text-xs text-slate-400">{dateTime(d.createdAt)}</p>
        {d.failureReason && (
          <p className="text-xs text-rose-700">
            <StoredText text={d.failureReason} said={d.failureSaid} />
          </p>
        )}
      </div>
      {money && d.status === 'pending' && (
        <div className="flex gap-2">
          <Button
            variant="danger"
            onClick={() => setRejecting(true)}
            aria-label={t('Reject deposit of {amount} by {name}', { amount: usdc(d.amount), name: fullName(d.userId) })}
          >
            {t('Reject')}
          </Button>
          <Button
            variant="success"
            onClick={() => (failure.clear(), setApproving(true))}
            aria-label={t('Approve deposit of {amount} by {name}', {
              amount: usdc(d.amount),
              name: fullName(d.userId),
            })}
          >
            {t('Approve')}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={approving}
        title={t('Approve deposit?')}
        confirmLabel={t('Approve and credit')}
        busy={approve.isPending}
        error={failure.text}
        onConfirm={onApprove}
        onCancel={() => setApproving(false)}
      >
        <p className="break-words">
          {rich(
            t('<0>{amount}</0> will be credited to the balance of {name}.', {
              amount: usdc(d.amount),
              name: fullName(d.userId),
            }),
            [(text) => <strong className="whitespace-nowrap">{text}</strong>],
          )}
        </p>
        <p className="mt-2 break-all">
          <Email address={d.userId.email} />
        </p>
        {d.txHash && (
          <p className="mt-2 text-xs text-slate-600">
            {rich(t('Transaction hash: <0>{hash}</0>', { hash: d.txHash }), [
              () => <ChainValue kind="tx" value={d.txHash ?? ''} short="adminDeposits" />,
            ])}
          </p>
        )}
      </ConfirmDialog>
      <RejectDepositDialog deposit={d} open={rejecting} onClose={() => setRejecting(false)} />
    </li>
  );
}

/** Rejecting asks for the reason the investor will read, and confirms before it fails the deposit. */
function RejectDepositDialog({
  deposit: d,
  open,
  onClose,
}: {
  deposit: AdminDeposit;
  open: boolean;
  onClose: () => void;
}) {
  const reject = useRejectDeposit();
  // Errors show in the dialog, at the reason (and in a toast).
  async function onConfirm(reason: string) {
    const body = z.safeParse(adminRejectDepositBody, { depositId: d._id, reason });
    const failure = body.success
      ? await reject.mutateAsync(body.data).then(
          (res) => (toast.success(res.message), null),
          (err: unknown) => ({ err, fallback: TEXT.rejectDepositFailed }),
        )
      : { err: null, fallback: body.error.issues[0]?.message ?? TEXT.rejectDepositFailed };
    if (failure !== null) toast.error(errorText(failure.err, failure.fallback));
    return failure;
  }
  return (
    <ReasonDialog
      open={open}
      title={t('Reject deposit')}
      maxLength={500}
      confirmLabel={t('Reject deposit')}
      busyLabel={t('Rejecting...')}
      busy={reject.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {rich(
        t(
          'Reject the deposit of <0>{amount}</0> by {name}? It becomes failed with your reason, which the investor reads and can act on.',
          { amount: usdc(d.amount), name: fullName(d.userId) },
        ),
        [(text) => <strong>{text}</strong>],
      )}
    </ReasonDialog>
  );
}
