import { msg } from '@harvest/shared/i18n';
import { useEffect, useRef, useState } from 'react';
import {
  HISTORY_PAGE_SIZE,
  HISTORY_SEARCH_MAX,
  HISTORY_STATUSES,
  type HistoryItem,
  type HistoryStatus,
} from '@harvest/shared/schemas/history';
import { Button } from '../../../components/ui/button.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { SearchForm } from '../../../components/ui/search-form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { count, dateTime, ltr, usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { usePagedQuery } from '../../../lib/use-paged-query.ts';
import { historyQuery } from '../api/history.ts';

const STATUS_LABEL: Record<HistoryStatus, string> = {
  pending: msg('Pending'),
  confirmed: msg('Confirmed'),
  failed: msg('Failed'),
  // A paid withdrawal reads Completed, as on the investor's withdrawal cards.
  approved: msg('Completed'),
  rejected: msg('Rejected'),
};
const STATUS_STYLE: Record<HistoryStatus, string> = {
  pending: 'bg-amber-100 text-amber-800',
  confirmed: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-rose-100 text-rose-800',
  approved: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-rose-100 text-rose-800',
};
const isStatus = (v: string): v is HistoryStatus => HISTORY_STATUSES.some((s) => s === v);

/** Every deposit and withdrawal of the investor: paged, filtered by status, searched by hash or address. */
export function FullHistory({ onBack }: { onBack: () => void }) {
  const [filter, setFilter] = useState<{ status: HistoryStatus | ''; q: string }>({ status: '', q: '' });
  const [typed, setTyped] = useState('');
  const list = usePagedQuery((at) => historyQuery(at.page, filter.status, filter.q), {
    pageSize: HISTORY_PAGE_SIZE,
    total: (d) => d.total,
    filter,
  });
  const q = list.query;
  // Opened from the Deposit tab: reading starts at the view's heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const filtered = filter.status !== '' || filter.q !== '';

  return (
    <section aria-labelledby="full-history" className="space-y-4 rounded-2xl bg-white/95 p-5 shadow-lg">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="full-history" ref={heading} tabIndex={-1} className="text-lg font-bold text-slate-900">
          {t('Full history')}
        </h2>
        <Button variant="secondary" onClick={onBack}>
          {t('Back to Deposit')}
        </Button>
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[12rem_1fr] sm:items-end">
        <SelectField
          label={t('Status')}
          value={filter.status}
          onChange={(e) => {
            const v = e.target.value;
            setFilter((f) => ({ ...f, status: isStatus(v) ? v : '' }));
          }}
          options={[
            { value: '', label: t('All statuses') },
            ...HISTORY_STATUSES.map((s) => ({ value: s, label: t(STATUS_LABEL[s]) })),
          ]}
        />
        <SearchForm
          label={t('Search by transaction hash or address')}
          onSubmit={(e) => {
            e.preventDefault();
            setFilter((f) => ({ ...f, q: typed.trim() }));
          }}
          input={{
            value: typed,
            onChange: (e) => setTyped(e.target.value),
            placeholder: t('Transaction hash or address'),
            maxLength: HISTORY_SEARCH_MAX,
            dir: 'ltr',
          }}
        >
          {filter.q && (
            <Button
              variant="secondary"
              onClick={() => {
                setTyped('');
                setFilter((f) => ({ ...f, q: '' }));
              }}
            >
              {t('Clear')}
            </Button>
          )}
        </SearchForm>
      </div>
      <p className="text-sm text-slate-600" aria-live="polite">
        {q.data && (q.data.total === 1 ? t('1 entry') : t('{n} entries', { n: count(q.data.total) }))}
      </p>
      <QueryState query={q} what={t('your history')}>
        {(data) =>
          data.items.length === 0 ? (
            <p className="text-sm text-slate-700">
              {filtered
                ? t('No deposits or withdrawals match this status and search.')
                : t('No deposits or withdrawals yet.')}
            </p>
          ) : (
            <ul className="divide-y divide-slate-200" aria-label={t('Full history')} aria-busy={q.isFetching}>
              {data.items.map((i) => (
                <Row key={i._id} item={i} />
              ))}
            </ul>
          )
        }
      </QueryState>
      <Pager label={t('Full history pages')} {...list.pager} onLight />
    </section>
  );
}

/** A hash or address: whole, wrapping anywhere, left to right in every language; also in its title. */
function Value({ text }: { text: string | null }) {
  return (
    <dd className="font-mono [overflow-wrap:anywhere] text-slate-900" title={text ?? undefined}>
      {text ? ltr(text) : '—'}
    </dd>
  );
}

function Row({ item: i }: { item: HistoryItem }) {
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold text-slate-900">
          {i.kind === 'deposit'
            ? t('Deposit of {amount}', { amount: usdc(i.amount) })
            : t('Withdrawal of {amount}', { amount: usdc(i.amount) })}
        </span>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[i.status]}`}>
          {t(STATUS_LABEL[i.status])}
        </span>
      </div>
      <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs text-slate-600">
        {i.fee !== null && (
          <>
            <dt>{t('Fee')}</dt>
            <dd className="text-slate-900">{usdc(i.fee)}</dd>
          </>
        )}
        <dt>{t('Tx Hash')}</dt>
        <Value text={i.txHash} />
        <dt>{i.kind === 'deposit' ? t('From') : t('Wallet')}</dt>
        <Value text={i.address} />
        <dt>{i.kind === 'deposit' ? t('Submitted') : t('Requested')}</dt>
        <dd>{dateTime(i.at)}</dd>
        {i.processedAt && (
          <>
            <dt>{t('Processed')}</dt>
            <dd>{dateTime(i.processedAt)}</dd>
          </>
        )}
      </dl>
    </li>
  );
}
