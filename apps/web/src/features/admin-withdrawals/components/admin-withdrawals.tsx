import { msg } from '@harvest/shared/i18n';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from '../../../lib/toast.ts';
import * as z from 'zod/mini';
import { TEXT } from '@harvest/shared/texts';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { approveBody, type AdminWithdrawal } from '@harvest/shared/schemas/withdrawals';
import { Pager } from '../../../components/ui/pager.tsx';
import { Tabs } from '../../../components/ui/tabs.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field, TextInput, inputClass } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { firstError, useFailure, useZodForm } from '../../../lib/form.ts';
import { useApproveWithdrawal } from '../api/approve-withdrawal.ts';
import { useRejectWithdrawal } from '../api/reject-withdrawal.ts';
import { ExportBatchDialog } from './payout-batches.tsx';
import { adminWithdrawalsQuery, WITHDRAWALS_PAGE_SIZE, type WithdrawalView } from '../api/withdrawals.ts';
import { dateTime, shortHash, usdc } from '../../../lib/format.ts';
import { Email } from '../../../components/ui/email.tsx';
import { usePagedQuery } from '../../../lib/use-paged-query.ts';
import { useCan } from '../../../lib/auth.tsx';
import { rich, t, known } from '../../../lib/i18n.tsx';
import { shownAddress } from '@harvest/shared/address';
import { ChainValue } from '../../../components/ui/chain-value.tsx';

const STATUS = {
  pending: { label: msg('Pending'), cls: 'bg-amber-100 text-amber-800' },
  approved: { label: msg('Completed'), cls: 'bg-emerald-100 text-emerald-800' },
  rejected: { label: msg('Rejected'), cls: 'bg-rose-100 text-rose-800' },
} as const;
const SOURCE = { earning: msg('Cycle earning'), rewards: msg('Referral rewards'), balance: msg('Balance') } as const;
/** Saved as the rejection's notes in English, a catalogue text: the investor reads it in their language. */
const REFUSED_NOTE = msg(
  'USDC refuses transfers to this wallet address (its issuer blocked it): withdraw again to another address.',
);

/** What stops a pending withdrawal being paid here: a batch decides it, or it cannot be paid at all. */
const canPay = (w: AdminWithdrawal) => w.batchId === null && !w.frozen && !w.payeeRefused;

/** Admin withdrawals: Pending and History sub-tabs with counts, refresh, and the Process Withdrawal panel. */
/** `toolbar` is composed by the app layer (e.g. the CSV downloads). */
export function AdminWithdrawals({ toolbar }: { toolbar?: ReactNode } = {}) {
  const [view, setView] = useState<WithdrawalView>('pending');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  /** Pending withdrawals ticked for a payout batch (by id, across pages). */
  const [forBatch, setForBatch] = useState<ReadonlySet<string>>(new Set());
  const [exporting, setExporting] = useState(false);
  // Batches and decisions move money: a role that only reads sees the lists and the details, no controls.
  const money = useCan('money');
  const list = usePagedQuery((at) => adminWithdrawalsQuery(view, at), {
    pageSize: WITHDRAWALS_PAGE_SIZE,
    total: (d) => d.pagination.total,
    filter: view,
  });
  const query = list.query;
  const all = query.data?.withdrawals ?? [];
  const rows = view === 'history' ? all.filter((w) => w.status !== 'pending') : all;
  const counts = query.data?.counts;
  const selected = rows.find((w) => w._id === selectedId) ?? null;
  const panel = useRef<HTMLDivElement>(null);
  const revealPanel = useRef(false);

  // On a phone the panel sits below the list: a tap brings it into view and moves focus to it, so the tap
  // visibly does something. Beside the list (wide screens) it is already in view and focus stays in the list.
  useEffect(() => {
    const el = panel.current;
    if (!revealPanel.current || !selectedId || !el) return;
    revealPanel.current = false;
    const { top } = el.getBoundingClientRect();
    if (top >= 0 && top < window.innerHeight * 0.75) return;
    el.scrollIntoView({ block: 'start' });
    const heading = el.querySelector<HTMLElement>('h2');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus({ preventScroll: true });
  }, [selectedId]);

  useEffect(() => {
    if (query.isError)
      toast.error(errorText(query.error, TEXT.fetchWithdrawalsFailed), { toastId: 'fetch-withdrawals' });
  }, [query.isError, query.error, query.errorUpdatedAt]);

  const tabs: { id: WithdrawalView; label: string; count: number | undefined }[] = [
    { id: 'pending', label: t('Pending'), count: counts?.pending },
    // History is what was decided: approved and rejected, not the pending ones.
    { id: 'history', label: t('History'), count: counts ? counts.total - counts.pending : undefined },
  ];

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[1fr_22rem]">
      <Card
        title={t('Withdrawals')}
        actions={
          <div className="flex flex-wrap gap-2">
            {money && view === 'pending' && forBatch.size > 0 && (
              <Button onClick={() => setExporting(true)}>{t('Export payout batch ({n})', { n: forBatch.size })}</Button>
            )}
            {toolbar}
            <Button variant="secondary" onClick={() => void query.refetch()} disabled={query.isFetching}>
              {query.isFetching ? t('Refreshing...') : t('Refresh')}
            </Button>
          </div>
        }
      >
        <Tabs
          label={t('Withdrawal lists')}
          tabs={tabs.map((tab) => ({
            id: tab.id,
            label: t('{label} ({n})', { label: tab.label, n: tab.count ?? '…' }),
          }))}
          value={view}
          onChange={setView}
          listClassName="mb-4 flex gap-1 rounded-xl bg-purple-50 p-1"
          tabClassName="flex-1 rounded-lg px-3 py-2 text-sm font-semibold text-purple-700 transition hover:bg-white/60 data-[state=active]:bg-white data-[state=active]:text-purple-800 data-[state=active]:shadow"
        >
          <QueryState query={query} what={t('withdrawals')} fallback={TEXT.fetchWithdrawalsFailed}>
            {() =>
              rows.length === 0 ? (
                <p className="text-sm text-slate-500">
                  {view === 'pending' ? t('No pending withdrawals.') : t('No withdrawals yet.')}
                </p>
              ) : (
                <ul className="space-y-2">
                  {rows.map((w) => (
                    <li key={w._id} className="flex items-start gap-2">
                      {money && view === 'pending' && (
                        <input
                          type="checkbox"
                          className="mt-4 size-5 shrink-0 accent-purple-700 disabled:opacity-40"
                          aria-label={t('Add to a payout batch: {amount} to {whom}', {
                            amount: usdc(w.netAmount),
                            whom: w.userId ? `${w.userId.firstName} ${w.userId.lastName}` : w.walletAddress,
                          })}
                          checked={forBatch.has(w._id)}
                          disabled={!canPay(w)}
                          onChange={(e) => {
                            const next = new Set(forBatch);
                            if (e.target.checked) next.add(w._id);
                            else next.delete(w._id);
                            setForBatch(next);
                          }}
                        />
                      )}
                      <WithdrawalRow
                        w={w}
                        selected={w._id === selectedId}
                        onSelect={() => {
                          revealPanel.current = true;
                          setSelectedId(w._id);
                        }}
                      />
                    </li>
                  ))}
                </ul>
              )
            }
          </QueryState>

          <Pager label={t('Pages')} {...list.pager} onLight />
        </Tabs>
      </Card>

      <div ref={panel} className="h-fit lg:sticky lg:top-20">
        {money ? (
          <ProcessPanel key={selected?._id ?? 'none'} withdrawal={selected} onDone={() => setSelectedId(null)} />
        ) : (
          <Card title={t('Withdrawal details')}>
            {selected ? (
              <PayoutSummary withdrawal={selected} />
            ) : (
              <p className="text-sm text-slate-500">{t('Select a withdrawal from the list to see its details.')}</p>
            )}
          </Card>
        )}
      </div>
      <ExportBatchDialog
        open={exporting}
        ids={[...forBatch]}
        onClose={() => setExporting(false)}
        onDone={() => {
          setExporting(false);
          setForBatch(new Set());
        }}
      />
    </div>
  );
}

function WithdrawalRow({ w, selected, onSelect }: { w: AdminWithdrawal; selected: boolean; onSelect: () => void }) {
  const st = STATUS[w.status];
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-pressed={selected}
      className={`w-full min-w-0 rounded-xl border p-3 text-start text-sm transition focus:outline-none focus-visible:ring-2 focus-visible:ring-purple-400 ${selected ? 'border-purple-500 bg-purple-50' : 'border-slate-200 bg-white hover:border-purple-300'}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold text-slate-900">
          {w.userId ? `${w.userId.firstName} ${w.userId.lastName}` : t('Unknown user')}
        </span>
        <span className="flex flex-wrap gap-1">
          {w.status === 'pending' && w.frozen && (
            <span className="rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-800">
              {t('Frozen')}
            </span>
          )}
          {w.status === 'pending' && w.payeeRefused && (
            <span className="rounded-full bg-orange-100 px-2.5 py-0.5 text-xs font-semibold text-orange-900">
              {t('Token refuses wallet')}
            </span>
          )}
          {w.status === 'pending' && w.batchId && (
            <span className="rounded-full bg-sky-100 px-2.5 py-0.5 text-xs font-semibold text-sky-800">
              {w.inPaymentUntil ? t('In payment until {date}', { date: dateTime(w.inPaymentUntil) }) : t('In payment')}
            </span>
          )}
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${st.cls}`}>{t(st.label)}</span>
        </span>
      </div>
      {/* slate-600: slate-500 falls under 4.5:1 on the selected row's purple-50. */}
      {w.userId && (
        <p className="text-slate-600">
          <Email address={w.userId.email} />
        </p>
      )}
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-slate-700">
        <span>
          {w.cycleNumber !== null ? t('Cycle #{n}', { n: w.cycleNumber }) : t(SOURCE[w.source])}
          {w.investmentId && <> · {w.investmentId.tier}</>}
        </span>
        <span>{t('Amount {amount}', { amount: usdc(w.amount) })}</span>
        <span>{t('Fee {amount}', { amount: usdc(w.feeAmount) })}</span>
        {/* Never green on a rejected amount. */}
        <span className={`font-semibold ${w.status === 'rejected' ? 'text-slate-700' : 'text-emerald-700'}`}>
          {t('Net {amount}', { amount: usdc(w.netAmount) })}
        </span>
      </div>
      {/* Inside the row's button, so plain text: the selected withdrawal's panel copies and links them. */}
      <p className="mt-1 font-mono text-xs break-all text-slate-600" dir="ltr">
        {shownAddress(w.walletAddress)}
      </p>
      {w.addressProven && <ProvenBadge />}
      <p className="mt-1 text-xs text-slate-600">
        {t('Requested {date}', { date: dateTime(w.requestedAt) })}
        {w.processedAt && <> · {t('Processed {date}', { date: dateTime(w.processedAt) })}</>}
        {w.txHash && <> · {t('Tx {hash}', { hash: shortHash(w.txHash) })}</>}
      </p>
      {w.notes && <p className="mt-1 text-xs text-slate-600">{t('Notes: {notes}', { notes: known(w.notes) })}</p>}
    </button>
  );
}

/** The investor's wallet signed for this address in their book: a phisher's pasted address cannot show it. */
function ProvenBadge() {
  return (
    <span className="mt-1 inline-block rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-800">
      {t('Proven by its wallet')}
    </span>
  );
}

interface ProcessValues {
  txHash: string;
  notes: string;
}
/** The approval's fields the administrator types (the withdrawal's id comes from the selection). */
const processFields = z.pick(approveBody, { txHash: true, notes: true });

function ProcessPanel({ withdrawal, onDone }: { withdrawal: AdminWithdrawal | null; onDone: () => void }) {
  const form = useZodForm<ProcessValues>(processFields, { defaultValues: { txHash: '', notes: '' } });
  const errors = form.formState.errors;
  const notes = form.watch('notes');
  const approve = useApproveWithdrawal();
  const reject = useRejectWithdrawal();
  const [confirmReject, setConfirmReject] = useState(false);
  const rejectFailure = useFailure();
  const busy = approve.isPending || reject.isPending;
  // A batch decides a withdrawal in payment (the server answers in_payment); a frozen account's or one to a wallet
  // the token refuses cannot be paid, only rejected (its money back to the investor).
  const inPayment = withdrawal?.batchId != null;
  const canApprove = withdrawal !== null && canPay(withdrawal);

  async function onApprove(v: ProcessValues) {
    if (!withdrawal || !canApprove) return;
    try {
      const res = await approve.mutateAsync({
        withdrawalId: withdrawal._id,
        txHash: v.txHash.trim(),
        notes: v.notes.trim() || null,
      });
      // Above the four-eyes threshold the server answers that it waits for a second staff member.
      toast.success('proposalId' in res ? res.message : t('Withdrawal approved'));
      onDone();
    } catch (err) {
      form.fail('txHash', err, TEXT.approveWithdrawalFailed);
      toast.error(errorText(err, TEXT.approveWithdrawalFailed));
    }
  }

  async function onReject() {
    if (!withdrawal) return;
    try {
      await reject.mutateAsync({ withdrawalId: withdrawal._id, notes: form.getValues('notes').trim() || null });
      toast.success(t('Withdrawal rejected'));
      setConfirmReject(false);
      onDone();
    } catch (err) {
      rejectFailure.set(err, TEXT.rejectWithdrawalFailed);
      toast.error(errorText(err, TEXT.rejectWithdrawalFailed));
    }
  }

  return (
    <Card title={t('Process Withdrawal')}>
      {!withdrawal ? (
        <p className="text-sm text-slate-500">{t('Select a withdrawal from the list to process it.')}</p>
      ) : withdrawal.status !== 'pending' ? (
        <div className="space-y-2 text-sm text-slate-700">
          <p>
            {rich(t('This withdrawal is <0>{status}</0>.', { status: t(STATUS[withdrawal.status].label) }), [
              (text) => <strong>{text}</strong>,
            ])}
          </p>
          {withdrawal.txHash && (
            <p className="text-xs">
              {rich(t('Tx: <0>{hash}</0>', { hash: withdrawal.txHash }), [
                () => <ChainValue kind="tx" value={withdrawal.txHash ?? ''} />,
              ])}
            </p>
          )}
          <p className="text-xs">
            {rich(t('To wallet: <0>{wallet}</0>', { wallet: withdrawal.walletAddress }), [
              () => <ChainValue kind="address" value={withdrawal.walletAddress} />,
            ])}
          </p>
        </div>
      ) : (
        <form
          onSubmit={form.handleSubmit(onApprove, (errs) => toast.error(firstError(errs) ?? TEXT.txHashRequired))}
          className="space-y-4"
          noValidate
        >
          <PayoutSummary withdrawal={withdrawal} />
          {withdrawal.frozen && (
            <p role="status" className="rounded-xl bg-red-50 p-3 text-sm text-red-800">
              {t("This account's withdrawals are frozen: it cannot be paid. Lift the freeze in Users first.")}
            </p>
          )}
          {inPayment && (
            <p role="status" className="rounded-xl bg-sky-50 p-3 text-sm text-sky-900">
              {withdrawal.inPaymentUntil
                ? t(
                    'Its payout batch was cancelled after its file was downloaded: it stays in payment until {date}, and a payout read on chain until then still completes it. It cannot be approved or rejected here until then.',
                    { date: dateTime(withdrawal.inPaymentUntil) },
                  )
                : t(
                    'This withdrawal is in a payout batch, which decides it: a payout read on chain completes it. Cancel the batch first to reject it or to approve it by another hash.',
                  )}
            </p>
          )}
          {withdrawal.payeeRefused && (
            <div className="space-y-2 rounded-xl bg-orange-50 p-3 text-sm text-orange-900">
              <p role="status">
                {t(
                  'USDC refuses transfers to this wallet address (its issuer blocked it): this withdrawal cannot be paid there. Reject it so that the investor can choose another address.',
                )}
              </p>
              <Button
                variant="danger"
                disabled={busy || inPayment}
                onClick={() => {
                  if (!notes.trim()) form.setValue('notes', REFUSED_NOTE);
                  rejectFailure.clear();
                  setConfirmReject(true);
                }}
              >
                {t('Reject: token refuses this wallet')}
              </Button>
            </div>
          )}
          <TextInput
            label={t('Transaction Hash')}
            error={errors.txHash?.message}
            {...form.register('txHash')}
            placeholder="0x..."
            autoComplete="off"
            spellCheck={false}
            dir="ltr"
            className="font-mono"
          />
          <Field label={t('Notes (optional)')} error={errors.notes?.message}>
            {(id, describedBy, invalid) => (
              <textarea
                id={id}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                className={`${inputClass} min-h-20`}
                maxLength={MAX_LENGTH.withdrawalNotes}
                {...form.register('notes')}
              />
            )}
          </Field>
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="danger"
              onClick={() => {
                rejectFailure.clear();
                setConfirmReject(true);
              }}
              disabled={busy || inPayment}
            >
              {t('Reject')}
            </Button>
            <Button type="submit" variant="success" disabled={busy || !canApprove}>
              {approve.isPending ? t('Approving...') : t('Approve')}
            </Button>
          </div>
          <ConfirmDialog
            open={confirmReject}
            title={t('Reject this withdrawal?')}
            confirmLabel={t('Reject')}
            destructive
            busy={reject.isPending}
            error={rejectFailure.text}
            onCancel={() => setConfirmReject(false)}
            onConfirm={() => void onReject()}
          >
            <p>
              {withdrawal.userId
                ? t("{amount} goes back to {name}'s account; nothing is paid.", {
                    amount: usdc(withdrawal.amount),
                    name: `${withdrawal.userId.firstName} ${withdrawal.userId.lastName}`,
                  })
                : t("{amount} goes back to the user's account; nothing is paid.", { amount: usdc(withdrawal.amount) })}
              {notes.trim() ? ` ${t('Your notes are saved with it.')}` : ''}
            </p>
          </ConfirmDialog>
        </form>
      )}
    </Card>
  );
}

/** Who is paid what, and where. */
function PayoutSummary({ withdrawal }: { withdrawal: AdminWithdrawal }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 rounded-xl bg-purple-50 p-3 text-sm">
      <dt className="text-slate-600">{t('User')}</dt>
      <dd className="text-end [overflow-wrap:anywhere] text-slate-900">
        {withdrawal.userId ? `${withdrawal.userId.firstName} ${withdrawal.userId.lastName}` : '—'}
      </dd>
      <dt className="text-slate-600">{t('Gross')}</dt>
      <dd className="text-end text-slate-900">{usdc(withdrawal.amount)}</dd>
      <dt className="text-slate-600">{t('Fee')}</dt>
      <dd className="text-end text-slate-900">{usdc(withdrawal.feeAmount)}</dd>
      <dt className="font-semibold text-slate-900">{t('Pay (net)')}</dt>
      <dd className="text-end font-bold text-emerald-700">{usdc(withdrawal.netAmount)}</dd>
      <dt className="col-span-2 text-slate-600">{t('To wallet')}</dt>
      <dd className="col-span-2 text-xs text-slate-900">
        <ChainValue kind="address" value={withdrawal.walletAddress} />
        {withdrawal.addressProven && <ProvenBadge />}
      </dd>
    </dl>
  );
}
