import { msg } from '@harvest/shared/i18n';
import { useState } from 'react';
import { TEXT } from '@harvest/shared/texts';
import { auditFilterForm, type AuditEntry } from '@harvest/shared/schemas/admin';
import { Pager } from '../../../components/ui/pager.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { useZodForm } from '../../../lib/form.ts';
import { auditQuery, AUDIT_PAGE_SIZE } from '../api/audit.ts';
import { count, dateTime, fullName, usdc } from '../../../lib/format.ts';
import { usePagedQuery } from '../../../lib/use-paged-query.ts';
import { microToUsdc } from '@harvest/shared/money';
import { Email } from '../../../components/ui/email.tsx';
import { rich, t } from '../../../lib/i18n.tsx';
import { ChainValue, chainKind } from '../../../components/ui/chain-value.tsx';

/**
 * Money in the audit snapshots, shown in USDC like every amount. Deposit decisions and balance updates
 * record the amount as micro-USDC integers ("250000000"); withdrawals and tiers record USDC text ("250").
 */
const MICRO_FIELDS: Record<string, readonly string[]> = {
  deposit_approve: ['amount'],
  deposit_reject: ['amount'],
  balance_update: ['balance'],
};
const USDC_FIELDS = new Set([
  'amount',
  'balance',
  'netAmount',
  'chainValue',
  'total',
  'perInvestorDay',
  'perInvestorMonth',
  'platformDay',
]);

/** Each action in words (the log stores a machine name such as "tier_update"). */
const ACTION_WORDS: Record<string, string> = {
  user_block: msg('User blocked'),
  user_unblock: msg('User unblocked'),
  email_change: msg('E-mail changed'),
  password_change: msg('Password changed'),
  withdrawal_password_change: msg('Withdrawal password changed'),
  two_factor_enable: msg('Two-factor authentication turned on'),
  two_factor_disable: msg('Two-factor authentication turned off'),
  deposit_approve: msg('Deposit approved'),
  deposit_reject: msg('Deposit rejected'),
  balance_update: msg('Balance set'),
  withdrawal_approve: msg('Withdrawal approved'),
  withdrawal_reject: msg('Withdrawal rejected'),
  withdrawal_paid_on_chain: msg('Withdrawal paid on chain'),
  payout_batch_create: msg('Payout batch created'),
  payout_batch_download: msg('Payout batch file downloaded'),
  payout_batch_cancel: msg('Payout batch cancelled'),
  payout_dismiss: msg('Found payout dismissed'),
  tier_create: msg('Tier created'),
  tier_update: msg('Tier updated'),
  csv_export: msg('CSV exported'),
  statement_download: msg('Statement downloaded'),
  sessions_revoke: msg('Sessions signed out'),
  withdrawals_freeze: msg('Withdrawals frozen'),
  withdrawals_unfreeze: msg('Withdrawals unfrozen'),
  withdrawal_policy_change: msg('Withdrawal limits changed'),
};
/** A snapshot's field names in words. */
const FIELD_WORDS: Record<string, string> = {
  isBlocked: msg('Blocked'),
  email: msg('E-mail'),
  txHash: msg('Transaction hash'),
  netAmount: msg('Net amount'),
  chainValue: msg('Amount on chain'),
  returnedTo: msg('Returned to'),
  depositId: msg('Credit deposit id'),
  dailyRate: msg('Daily rate (%)'),
  sortOrder: msg('Sort order'),
  withdrawalsFrozen: msg('Withdrawals frozen'),
  sessionsEnded: msg('Sessions ended'),
  batchId: msg('Payout batch id'),
  perInvestorDay: msg('Per investor, 24 hours'),
  perInvestorMonth: msg('Per investor, 30 days'),
  platformDay: msg('Whole platform, 24 hours'),
};
/** "some_action" / "someField" as "Some action" / "Some field": a name the lists above do not know yet. */
const words = (name: string) => {
  const spaced = name
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};
export const actionText = (action: string) => {
  const said = ACTION_WORDS[action];
  return said ? t(said) : words(action);
};
const fieldWord = (key: string) => {
  const said = FIELD_WORDS[key];
  return said ? t(said) : words(key);
};
/** The owner is named on the entry: their id again in the snapshot says nothing more. */
const HIDDEN_FIELDS = new Set(['userId']);

function fieldText(action: string, key: string, v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? t('Yes') : t('No');
  if (USDC_FIELDS.has(key) && (typeof v === 'string' || typeof v === 'number')) {
    const micro = MICRO_FIELDS[action]?.includes(key) && typeof v === 'string' && /^-?\d+$/.test(v);
    const n = micro ? microToUsdc(BigInt(v)) : Number(v);
    if (Number.isFinite(n)) return usdc(n, key === 'balance' ? 'balance' : 'amount');
  }
  // A nested record (an export's filter) as "Status: pending"; an empty one as "None".
  if (typeof v === 'object' && !Array.isArray(v)) {
    const parts = Object.entries(v).map(([k, x]) => `${fieldWord(k)}: ${fieldText(action, k, x)}`);
    return parts.length ? parts.join(', ') : t('None');
  }
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A hash or an address in a snapshot is copied and linked like everywhere else. */
function FieldValue({ action, field, value }: { action: string; field: string; value: unknown }) {
  const kind = typeof value === 'string' ? chainKind(value) : null;
  return kind && typeof value === 'string' ? <ChainValue kind={kind} value={value} /> : fieldText(action, field, value);
}

/** A snapshot as "field: value" lines; amounts in USDC. */
function Snapshot({ action, label, value }: { action: string; label: string; value: unknown }) {
  const entries =
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).filter(([k]) => !HIDDEN_FIELDS.has(k))
      : null;
  return (
    <div className="min-w-0 rounded bg-slate-50 p-2">
      <p className="text-xs font-semibold text-slate-600">{label}</p>
      {entries === null ? (
        <p className="text-xs text-slate-800">{fieldText(action, '', value)}</p>
      ) : (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-xs">
          {entries.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-600">{fieldWord(k)}</dt>
              <dd className="font-mono break-all text-slate-900">
                <FieldValue action={action} field={k} value={v} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

/** The append-only audit log of admin actions: paged, filtered by action and target. */
export function AuditLog() {
  const [filter, setFilter] = useState({ action: '', targetId: '' });
  const form = useZodForm<{ action: string; targetId: string }>(auditFilterForm, {
    defaultValues: { action: '', targetId: '' },
  });
  const list = usePagedQuery((at) => auditQuery(at, filter.action, filter.targetId), {
    pageSize: AUDIT_PAGE_SIZE,
    total: (d) => d.total,
    filter,
  });
  const q = list.query;

  const onSubmit = form.handleSubmit((v) => setFilter((f) => ({ ...f, targetId: v.targetId.trim() })));

  return (
    <div className="space-y-4">
      <Card title={t('Audit Log')}>
        <form onSubmit={onSubmit} className="grid grid-cols-1 gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
          {/* A new action filters at once; the target id when the form is sent. */}
          <SelectField
            label={t('Action')}
            options={[
              { value: '', label: t('All actions') },
              ...(q.data?.actions ?? []).map((a) => ({ value: a, label: actionText(a) })),
            ]}
            {...form.register('action', {
              onChange: (e: { target: { value: string } }) => setFilter((f) => ({ ...f, action: e.target.value })),
            })}
          />
          <TextInput
            label={t('Target id')}
            maxLength={100}
            placeholder={t('User, deposit, withdrawal or tier id')}
            {...form.register('targetId')}
          />
          <Button type="submit">{t('Filter')}</Button>
        </form>
        {q.data && (
          <p className="mt-2 text-sm text-slate-500">
            {q.data.total === 1 ? t('1 entry') : t('{n} entries', { n: count(q.data.total) })}
          </p>
        )}
      </Card>
      <QueryState query={q} what={t('the audit log')} fallback={TEXT.auditFailed}>
        {(data) =>
          data.entries.length === 0 ? (
            <Card>
              <p className="text-slate-500">{t('No entries.')}</p>
            </Card>
          ) : (
            <ul className="space-y-3" aria-busy={q.isFetching}>
              {data.entries.map((e) => (
                <li key={e._id}>
                  <Entry entry={e} />
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <Pager label={t('Audit log pages')} {...list.pager} />
    </div>
  );
}

/** What the entry is about, by name: "Deposit of Grace Hopper (grace@...)", "Tier: Gold", "Export: deposits". */
function Target({ entry: e }: { entry: AuditEntry }) {
  if (e.subject) {
    const values = { name: fullName(e.subject), email: e.subject.email };
    const said =
      e.targetType === 'user'
        ? t('User {name} (<0>{email}</0>)', values)
        : e.targetType === 'deposit'
          ? t('Deposit of {name} (<0>{email}</0>)', values)
          : e.targetType === 'withdrawal'
            ? t('Withdrawal of {name} (<0>{email}</0>)', values)
            : t('{kind} {name} (<0>{email}</0>)', { ...values, kind: words(e.targetType) });
    return <>{rich(said, [() => <Email address={e.subject?.email ?? ''} />])}</>;
  }
  if (e.batch && e.targetType === 'payout_batch') return <BatchText batch={e.batch} />;
  if (e.tierName) return <>{t('Tier: {name}', { name: e.tierName })}</>;
  if (e.targetType === 'export') return <>{t('Export: {what}', { what: e.targetId })}</>;
  return <>{t('{kind} (no longer on record)', { kind: words(e.targetType) })}</>;
}

/** A payout batch as its list names it, with what it holds now. */
function BatchText({ batch: b }: { batch: NonNullable<AuditEntry['batch']> }) {
  const values = { date: dateTime(b.createdAt), total: usdc(b.total, 'amount') };
  return (
    <>
      {b.withdrawals === 1
        ? t('Payout batch of {date}: 1 withdrawal, {total}', values)
        : t('Payout batch of {date}: {n} withdrawals, {total}', { ...values, n: count(b.withdrawals) })}
    </>
  );
}

/** Who acted: an administrator, or the platform itself (the watcher found the payout on chain). */
function Actor({ entry: e }: { entry: AuditEntry }) {
  if (!e.admin) return <>{t('By the platform: the chain watcher found the payout')}</>;
  const values = { name: fullName(e.admin), email: e.admin.email };
  return (
    <>
      {rich(
        e.ip
          ? t('By {name} (<0>{email}</0>) from {ip}', { ...values, ip: e.ip })
          : t('By {name} (<0>{email}</0>)', values),
        [() => <Email address={values.email} />],
      )}
    </>
  );
}

function Entry({ entry: e }: { entry: AuditEntry }) {
  // The self-service actions (the administrator's own e-mail, password, second factor) concern the admin.
  const own = e.admin !== null && e.subject?._id === e.admin._id;
  return (
    <Card>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-base font-bold text-purple-900">{actionText(e.action)}</h3>
        <p className="text-xs text-slate-600">{dateTime(e.createdAt)}</p>
      </div>
      {!own && (
        <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-900">
          <Target entry={e} />
        </p>
      )}
      {e.batch && e.targetType !== 'payout_batch' && (
        <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-900">
          <BatchText batch={e.batch} />
        </p>
      )}
      <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-700">
        <Actor entry={e} />
      </p>
      {e.targetType !== 'export' && (
        <p className="text-xs break-all text-slate-600">{t('Reference: {ref}', { ref: e.targetId })}</p>
      )}
      {e.note && <p className="mt-1 text-sm text-slate-700">{t('Note: {note}', { note: e.note })}</p>}
      <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Snapshot action={e.action} label={t('Before')} value={e.before} />
        <Snapshot action={e.action} label={t('After')} value={e.after} />
      </div>
    </Card>
  );
}
