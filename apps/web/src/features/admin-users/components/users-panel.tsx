import { msg } from '@harvest/shared/i18n';
import { useState, type ReactNode } from 'react';
import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { statementTexts } from '@harvest/shared/statement-texts';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { userSearchForm, type AdminUser } from '@harvest/shared/schemas/admin';
import { Pager } from '../../../components/ui/pager.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { SearchForm } from '../../../components/ui/search-form.tsx';
import { useZodForm } from '../../../lib/form.ts';
import { useToggleBlock } from '../api/toggle-block.ts';
import { adminUsersQuery, userDepositsQuery, USER_DEPOSITS_PAGE_SIZE, USERS_PAGE_SIZE } from '../api/users.ts';
import { count, date, dateTime, usdc } from '../../../lib/format.ts';
import { Email } from '../../../components/ui/email.tsx';
import { nextPage, prevPage } from '../../../lib/paging.ts';
import { usePagedQuery } from '../../../lib/use-paged-query.ts';
import { rich, t } from '../../../lib/i18n.tsx';
import { sayReceipt } from '../../../lib/server-text.ts';
import { UserSecurity } from './user-security.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';
import { useCan } from '../../../lib/auth.tsx';

const DEPOSIT_STYLE = {
  pending: 'bg-amber-100 text-amber-800',
  confirmed: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-rose-100 text-rose-800',
} as const;
const TYPE_LABEL = { demo: msg('Demo'), real: msg('On-chain'), admin_credit: msg('Admin credit') } as const;

export interface UsersPanelSlots {
  /** Toolbar items for the current search (e.g. the CSV download). */
  toolbar?: (search: string) => ReactNode;
  /** The Update Balance form for one user (it shows the current balance); call onDone after a change. */
  balanceForm?: (user: AdminUser, onDone: () => void) => ReactNode;
  /** The Download Statement form for one user (a period and a format). */
  statementForm?: (user: AdminUser) => ReactNode;
}

/** Admin users (spec): paged, searchable list with badges, account summary, deposits, balance and blocking. */
export function UsersPanel({ toolbar, balanceForm, statementForm }: UsersPanelSlots) {
  const form = useZodForm<{ search: string }>(userSearchForm, { defaultValues: { search: '' } });
  const [search, setSearch] = useState('');
  const list = usePagedQuery((at) => adminUsersQuery(at, search), {
    pageSize: USERS_PAGE_SIZE,
    total: (d) => d.total,
    filter: search,
  });
  const q = list.query;

  const onSearch = form.handleSubmit((v) => setSearch(v.search.trim()));

  return (
    <div className="space-y-4">
      <Card title={t('Users')} actions={toolbar?.(search)}>
        <SearchForm
          label={t('Search users by name or e-mail')}
          onSubmit={onSearch}
          input={{
            placeholder: t('Search by name or e-mail'),
            maxLength: MAX_LENGTH.search,
            ...form.register('search'),
          }}
        >
          {search && (
            <Button
              variant="ghost"
              onClick={() => {
                form.reset({ search: '' });
                setSearch('');
              }}
            >
              {t('Clear')}
            </Button>
          )}
        </SearchForm>
        {q.data && (
          <p className="mt-2 text-sm [overflow-wrap:anywhere] text-slate-500" aria-live="polite">
            {search
              ? q.data.total === 1
                ? t('1 user matching “{search}”', { search })
                : t('{n} users matching “{search}”', { n: count(q.data.total), search })
              : q.data.total === 1
                ? t('1 user')
                : t('{n} users', { n: count(q.data.total) })}
          </p>
        )}
      </Card>
      <QueryState query={q} what={t('users')} fallback={TEXT.usersFailed}>
        {(data) =>
          data.users.length === 0 ? (
            <Card>
              <p className="text-slate-500">{t('No users found.')}</p>
            </Card>
          ) : (
            <ul className="space-y-4" aria-busy={q.isFetching}>
              {data.users.map((u) => (
                <li key={u._id}>
                  <UserCard
                    user={u}
                    balanceForm={balanceForm}
                    statementForm={statementForm}
                    onChanged={() => void q.refetch()}
                  />
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <Pager label={t('Users pages')} {...list.pager} />
    </div>
  );
}

function UserCard({
  user,
  balanceForm,
  statementForm,
  onChanged,
}: {
  user: AdminUser;
  balanceForm?: UsersPanelSlots['balanceForm'];
  statementForm?: UsersPanelSlots['statementForm'];
  onChanged: () => void;
}) {
  const [showDeposits, setShowDeposits] = useState(false);
  const [showBalance, setShowBalance] = useState(false);
  const [showStatement, setShowStatement] = useState(false);
  const [showSecurity, setShowSecurity] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const toggle = useToggleBlock();
  const support = useCan('support');
  const name = `${user.firstName} ${user.lastName}`.trim();
  // Both ways are confirmed first and said after ("User blocked: Ada Lovelace"). Failures are silent (spec); the
  // list is refetched either way, so the badge is the server's state.
  const doToggle = () =>
    toggle.mutate(user._id, {
      onSuccess: (res) => toast.success(t('{message}: {name}', { message: sayReceipt(res), name })),
      onError: () => undefined,
      onSettled: () => setConfirming(false),
    });

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="flex flex-wrap items-center gap-2 text-base font-bold text-slate-900">
            <span className="[overflow-wrap:anywhere]">{name}</span>
            {user.isAdmin && (
              <span className="rounded-full bg-purple-100 px-2 py-0.5 text-xs font-bold text-purple-800">
                {t('ADMIN')}
              </span>
            )}
            {user.isBlocked && (
              <span className="rounded-full bg-rose-100 px-2 py-0.5 text-xs font-bold text-rose-800">
                {t('BLOCKED')}
              </span>
            )}
            {user.withdrawalsFrozen && (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-900">
                {t('WITHDRAWALS FROZEN')}
              </span>
            )}
          </h3>
          <p className="text-sm text-slate-600">
            <Email address={user.email} />
          </p>
          <p className="text-xs text-slate-500">
            {user.phone ?? t('Phone not provided')} · {t('Joined {date}', { date: date(user.createdAt) })}
          </p>
        </div>
        {support && !user.isAdmin && (
          <Button
            variant={user.isBlocked ? 'secondary' : 'danger'}
            disabled={toggle.isPending}
            onClick={() => setConfirming(true)}
          >
            {user.isBlocked ? t('Unblock') : t('Block')}
          </Button>
        )}
        <ConfirmDialog
          open={confirming}
          title={user.isBlocked ? t('Unblock {name}?', { name }) : t('Block {name}?', { name })}
          confirmLabel={user.isBlocked ? t('Unblock') : t('Block')}
          destructive={!user.isBlocked}
          busy={toggle.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={doToggle}
        >
          <p className="[overflow-wrap:anywhere]">
            {user.isBlocked
              ? t('{name} ({email}) can sign in and use the account again.', { name, email: user.email })
              : t(
                  '{name} ({email}) is signed out at once and sees only the Blocked screen until you unblock the account.',
                  { name, email: user.email },
                )}
          </p>
        </ConfirmDialog>
      </div>
      {/* As many columns as hold the longest figure whole ("1,000,000,000.000000 USDC"). */}
      <dl className="mt-3 grid grid-cols-1 gap-2 text-sm md:grid-cols-[repeat(auto-fill,minmax(15rem,1fr))] md:gap-3">
        <Figure label={t('Balance')} value={usdc(user.balance, 'balance')} />
        <Figure label={t('Total Investment')} value={usdc(user.totalInvestment, 'balance')} />
        <Figure label={t('Total Earnings')} value={usdc(user.totalEarnings)} />
        <Figure label={t('Referral Rewards')} value={usdc(user.referralRewards)} />
        <Figure label={t('Total Deposits')} value={usdc(user.totalDeposits)} />
        <Figure label={t('Admin Adjustments (net)')} value={usdc(user.totalAdjustments)} />
      </dl>
      {user.withdrawalWallet && (
        <p className="mt-2 text-xs text-slate-600">
          {rich(t('Withdrawal wallet: <0>{wallet}</0>', { wallet: user.withdrawalWallet }), [
            () => <ChainValue kind="address" value={user.withdrawalWallet ?? ''} />,
          ])}
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" aria-expanded={showDeposits} onClick={() => setShowDeposits((s) => !s)}>
          {showDeposits ? t('Hide Deposits') : t('View Deposits')}
        </Button>
        {balanceForm && (
          <Button variant="secondary" aria-expanded={showBalance} onClick={() => setShowBalance((s) => !s)}>
            {showBalance ? t('Close Update Balance') : t('Update Balance')}
          </Button>
        )}
        {statementForm && (
          <Button variant="secondary" aria-expanded={showStatement} onClick={() => setShowStatement((s) => !s)}>
            {showStatement ? statementTexts(t).screen.adminClose : statementTexts(t).screen.adminOpen}
          </Button>
        )}
        <Button variant="secondary" aria-expanded={showSecurity} onClick={() => setShowSecurity((s) => !s)}>
          {showSecurity ? t('Hide Security') : t('Security')}
        </Button>
      </div>
      {showSecurity && <UserSecurity user={user} name={name} />}
      {showDeposits && <UserDeposits userId={user._id} />}
      {showStatement && statementForm && <div className="mt-3 rounded-xl bg-slate-50 p-4">{statementForm(user)}</div>}
      {showBalance && balanceForm && (
        <div className="mt-3 rounded-xl bg-slate-50 p-4">
          {balanceForm(user, () => {
            setShowBalance(false);
            onChanged();
          })}
        </div>
      )}
    </Card>
  );
}

/** One figure: label and amount side by side on a phone, stacked in a column wider up; the amount on one line. */
function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 rounded-lg bg-slate-50 p-2 md:block">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="font-semibold whitespace-nowrap text-slate-900">{value}</dd>
    </div>
  );
}

function UserDeposits({ userId }: { userId: string }) {
  const {
    query: q,
    at,
    pages,
    pager,
  } = usePagedQuery((at) => userDepositsQuery(userId, at), {
    pageSize: USER_DEPOSITS_PAGE_SIZE,
    total: (d) => d.total,
    filter: userId,
  });
  return (
    <div className="mt-3">
      <QueryState query={q} what={t('deposits')} lines={2}>
        {(data) =>
          data.deposits.length === 0 ? (
            <p className="text-sm text-slate-500">{t('No deposits.')}</p>
          ) : (
            <ul className="divide-y divide-slate-200 text-sm">
              {data.deposits.map((d) => (
                <li key={d._id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">
                      {usdc(d.amount)} <span className="text-xs text-slate-500">· {t(TYPE_LABEL[d.type])}</span>
                    </p>
                    <p className="text-xs text-slate-600">
                      {d.txHash ? (
                        <ChainValue kind="tx" value={d.txHash} short="adminDeposits" />
                      ) : (
                        t('No transaction hash')
                      )}{' '}
                      · <span className="whitespace-nowrap">{dateTime(d.createdAt)}</span>
                    </p>
                  </div>
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${DEPOSIT_STYLE[d.status]}`}
                  >
                    {d.status === 'pending' ? t('pending') : d.status === 'confirmed' ? t('confirmed') : t('failed')}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {pages > 1 && (
        <div className="mt-2 flex items-center gap-2 text-sm">
          <Button
            variant="ghost"
            disabled={at.page <= 1 || pager.busy}
            onClick={() => pager.onGo(prevPage(at, q.data))}
          >
            {t('Newer')}
          </Button>
          <span>
            {at.page} / {pages}
          </span>
          <Button
            variant="ghost"
            disabled={at.page >= pages || pager.busy}
            onClick={() => pager.onGo(nextPage(at, q.data))}
          >
            {t('Older')}
          </Button>
        </div>
      )}
    </div>
  );
}
