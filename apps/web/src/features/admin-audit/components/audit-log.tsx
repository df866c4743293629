import { useState } from 'react';
import { TEXT } from '@harvest/shared/texts';
import { auditFilterForm, type AuditEntry } from '@harvest/shared/schemas/admin';
import { Pager } from '../../../components/ui/pager.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { LoadError } from '../../../components/ui/query-state.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { useZodForm } from '../../../lib/form.ts';
import { useQuery } from '@tanstack/react-query';
import { auditQuery } from '../../../lib/admin-queries.ts';
import { count, dateTime, fullName, usdc } from '../../../lib/format.ts';
import { FIRST_PAGE, type PageAt } from '../../../lib/paging.ts';
import { microToUsdc } from '@harvest/shared/money';
import { Email } from '../../../components/ui/email.tsx';

const PAGE_SIZE = 25;

/**
 * Money in the audit snapshots, shown in USDC like every amount. Deposit decisions and balance updates
 * record the amount as micro-USDC integers ("250000000"); withdrawals and tiers record USDC text ("250").
 */
const MICRO_FIELDS: Record<string, readonly string[]> = {
  deposit_approve: ['amount'],
  deposit_reject: ['amount'],
  balance_update: ['balance'],
};
const USDC_FIELDS = new Set(['amount', 'balance', 'netAmount', 'chainValue']);

/** Each action in words (the log stores a machine name such as "tier_update"). */
const ACTION_WORDS: Record<string, string> = {
  user_block: 'User blocked',
  user_unblock: 'User unblocked',
  email_change: 'E-mail changed',
  password_change: 'Password changed',
  two_factor_enable: 'Two-factor authentication turned on',
  two_factor_disable: 'Two-factor authentication turned off',
  deposit_approve: 'Deposit approved',
  deposit_reject: 'Deposit rejected',
  balance_update: 'Balance set',
  withdrawal_approve: 'Withdrawal approved',
  withdrawal_reject: 'Withdrawal rejected',
  tier_create: 'Tier created',
  tier_update: 'Tier updated',
  csv_export: 'CSV exported',
  statement_download: 'Statement downloaded',
  sessions_revoke: 'Sessions signed out',
  withdrawals_freeze: 'Withdrawals frozen',
  withdrawals_unfreeze: 'Withdrawals unfrozen',
};
/** A snapshot's field names in words. */
const FIELD_WORDS: Record<string, string> = {
  isBlocked: 'Blocked',
  email: 'E-mail',
  txHash: 'Transaction hash',
  netAmount: 'Net amount',
  chainValue: 'Amount on chain',
  returnedTo: 'Returned to',
  depositId: 'Credit deposit id',
  dailyRate: 'Daily rate (%)',
  sortOrder: 'Sort order',
  withdrawalsFrozen: 'Withdrawals frozen',
  sessionsEnded: 'Sessions ended',
};
/** "some_action" / "someField" as "Some action" / "Some field": a name the lists above do not know yet. */
const words = (name: string) => {
  const spaced = name
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};
export const actionText = (action: string) => ACTION_WORDS[action] ?? words(action);
/** The owner is named on the entry: their id again in the snapshot says nothing more. */
const HIDDEN_FIELDS = new Set(['userId']);

function fieldText(action: string, key: string, v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (USDC_FIELDS.has(key) && (typeof v === 'string' || typeof v === 'number')) {
    const micro = MICRO_FIELDS[action]?.includes(key) && typeof v === 'string' && /^-?\d+$/.test(v);
    const n = micro ? microToUsdc(BigInt(v)) : Number(v);
    if (Number.isFinite(n)) return usdc(n, key === 'balance' ? 'balance' : 'amount');
  }
  // A nested record (an export's filter) as "Status: pending"; an empty one as "None".
  if (typeof v === 'object' && !Array.isArray(v)) {
    const parts = Object.entries(v).map(([k, x]) => `${FIELD_WORDS[k] ?? words(k)}: ${fieldText(action, k, x)}`);
    return parts.length ? parts.join(', ') : 'None';
  }
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
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
              <dt className="text-slate-600">{FIELD_WORDS[k] ?? words(k)}</dt>
              <dd className="font-mono break-all text-slate-900">{fieldText(action, k, v)}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

/** The append-only audit log of admin actions: paged, filtered by action and target. */
export function AuditLog() {
  const [at, setAt] = useState<PageAt>(FIRST_PAGE);
  const [filter, setFilter] = useState({ action: '', targetId: '' });
  const form = useZodForm<{ action: string; targetId: string }>(auditFilterForm, {
    defaultValues: { action: '', targetId: '' },
  });
  const q = useQuery(auditQuery(at, PAGE_SIZE, filter.action, filter.targetId));
  const pages = Math.max(1, Math.ceil((q.data?.total ?? 0) / PAGE_SIZE));

  const onSubmit = form.handleSubmit((v) => {
    setFilter((f) => ({ ...f, targetId: v.targetId.trim() }));
    setAt(FIRST_PAGE);
  });

  return (
    <div className="space-y-4">
      <Card title="Audit Log">
        <form onSubmit={onSubmit} className="grid grid-cols-1 gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
          {/* A new action filters at once; the target id when the form is sent. */}
          <SelectField
            label="Action"
            options={[
              { value: '', label: 'All actions' },
              ...(q.data?.actions ?? []).map((a) => ({ value: a, label: actionText(a) })),
            ]}
            {...form.register('action', {
              onChange: (e: { target: { value: string } }) => {
                setFilter((f) => ({ ...f, action: e.target.value }));
                setAt(FIRST_PAGE);
              },
            })}
          />
          <TextInput
            label="Target id"
            maxLength={100}
            placeholder="User, deposit, withdrawal or tier id"
            {...form.register('targetId')}
          />
          <Button type="submit">Filter</Button>
        </form>
        {q.data && (
          <p className="mt-2 text-sm text-slate-500">
            {count(q.data.total)} {q.data.total === 1 ? 'entry' : 'entries'}
          </p>
        )}
      </Card>
      {q.isPending ? (
        <p role="status" className="text-white">
          Loading audit log...
        </p>
      ) : q.isError ? (
        <Card>
          <LoadError
            error={q.error}
            what="the audit log"
            fallback={TEXT.auditFailed}
            onRetry={() => void q.refetch()}
          />
        </Card>
      ) : q.data.entries.length === 0 ? (
        <Card>
          <p className="text-slate-500">No entries.</p>
        </Card>
      ) : (
        <ul className="space-y-3" aria-busy={q.isFetching}>
          {q.data.entries.map((e) => (
            <li key={e._id}>
              <Entry entry={e} />
            </li>
          ))}
        </ul>
      )}
      <Pager label="Audit log pages" at={at} pages={pages} cursors={q.data} busy={q.isPlaceholderData} onGo={setAt} />
    </div>
  );
}

/** What the entry is about, by name: "Deposit of Grace Hopper (grace@...)", "Tier: Gold", "Export: deposits". */
function Target({ entry: e }: { entry: AuditEntry }) {
  const kind = { user: 'User', deposit: 'Deposit of', withdrawal: 'Withdrawal of', tier: 'Tier:', export: 'Export:' }[
    e.targetType
  ];
  if (e.subject)
    return (
      <>
        {kind ?? words(e.targetType)} {fullName(e.subject)} (<Email address={e.subject.email} />)
      </>
    );
  if (e.tierName) return <>Tier: {e.tierName}</>;
  if (e.targetType === 'export') return <>Export: {e.targetId}</>;
  return <>{words(e.targetType)} (no longer on record)</>;
}

function Entry({ entry: e }: { entry: AuditEntry }) {
  // The self-service actions (the administrator's own e-mail, password, second factor) concern the admin.
  const own = e.subject?._id === e.admin._id;
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
      <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-700">
        By {fullName(e.admin)} (<Email address={e.admin.email} />){e.ip ? ` from ${e.ip}` : ''}
      </p>
      {e.targetType !== 'export' && <p className="text-xs break-all text-slate-600">Reference: {e.targetId}</p>}
      {e.note && <p className="mt-1 text-sm text-slate-700">Note: {e.note}</p>}
      <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Snapshot action={e.action} label="Before" value={e.before} />
        <Snapshot action={e.action} label="After" value={e.after} />
      </div>
    </Card>
  );
}
