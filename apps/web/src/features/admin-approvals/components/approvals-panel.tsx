import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  PROPOSAL_ABILITY,
  PROPOSAL_KINDS,
  type Proposal,
  type ProposalChange,
  type ProposalKind,
} from '@harvest/shared/schemas/proposals';
import { can } from '@harvest/shared/staff';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useAuth, useCan } from '../../../lib/auth.tsx';
import { bidiName, count, dateTime, fullName, percent, usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast.ts';
import { proposalsQuery, useDecideProposal } from '../api/proposals.ts';
import { roleLabel } from '../../../lib/role-label.ts';

function kindLabel(kind: ProposalKind): string {
  switch (kind) {
    case 'balance_update':
      return t('Update Balance');
    case 'deposit_approve':
      return t('Approve deposit');
    case 'withdrawal_approve':
      return t('Approve withdrawal');
    case 'tier_update':
      return t('Tier amount or rate');
    case 'tier_create':
      return t('New tier');
    case 'withdrawals_unfreeze':
      return t('Lift withdrawal freeze');
    case 'staff_role':
      return t('Role change');
    case 'staff_invite':
      return t('Staff invitation');
    case 'withdrawal_policy':
      return t('Withdrawal limits');
  }
}

function fieldLabel(field: ProposalChange['field']): string {
  switch (field) {
    case 'balance':
      return t('Balance');
    case 'name':
      return t('Name');
    case 'active':
      return t('Status');
    case 'sortOrder':
      return t('Sort order');
    case 'amount':
      return t('Amount');
    case 'dailyRate':
      return t('Daily rate');
    case 'withdrawalsFrozen':
      return t('Withdrawals');
    case 'role':
      return t('Role');
    case 'perInvestorDay':
      return t('Per investor, 24 hours');
    case 'perInvestorMonth':
      return t('Per investor, 30 days');
    case 'platformDay':
      return t('Whole platform, 24 hours');
  }
}

const LIMIT_FIELDS: ProposalChange['field'][] = ['perInvestorDay', 'perInvestorMonth', 'platformDay'];

function valueText(field: ProposalChange['field'], v: string | null): string {
  if (v === null) return field === 'role' ? t('Not staff') : LIMIT_FIELDS.includes(field) ? t('No limit') : '—';
  switch (field) {
    case 'balance':
      return usdc(Number(v), 'balance');
    case 'name':
      return bidiName(v);
    case 'sortOrder':
      return v;
    case 'active':
      return v === 'true' ? t('ACTIVE') : t('INACTIVE');
    case 'amount':
      return usdc(Number(v));
    case 'dailyRate':
      return percent(Number(v));
    case 'withdrawalsFrozen':
      return v === 'true' ? t('Frozen') : t('Not frozen');
    case 'role':
      return roleLabel(v);
    case 'perInvestorDay':
    case 'perInvestorMonth':
    case 'platformDay':
      return usdc(Number(v));
  }
}

/** Four-eyes: what waits for a second staff member, what each will do, and Approve or Reject with a confirmation. */
export function ApprovalsPanel() {
  const q = useQuery(proposalsQuery());
  const { user } = useAuth();
  const approver = useCan('approve');
  const decide = useDecideProposal();
  const [asking, setAsking] = useState<{ p: Proposal; decision: 'approve' | 'reject' } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    if (!asking) return;
    try {
      const res = await decide.mutateAsync({ id: asking.p.id, decision: asking.decision });
      toast.success(res.message);
      setAsking(null);
      setError(null);
    } catch (err) {
      setError(errorText(err, t('The decision failed')));
    }
  }

  return (
    <QueryState query={q} what={t('approvals')} frame={(state) => <Card title={t('Approvals')}>{state}</Card>}>
      {(data) => (
        <div className="space-y-4">
          <Card title={t('Approvals')}>
            <p className="text-sm text-slate-700">
              {t('{n} waiting for a second staff member. Each expires 24 hours after it was proposed.', {
                n: count(data.counts.open),
              })}
            </p>
            {data.counts.open > 0 && (
              <ul className="mt-2 flex flex-wrap gap-2 text-xs">
                {PROPOSAL_KINDS.filter((kind) => data.counts.byKind[kind]).map((kind) => (
                  <li key={kind} className="rounded-full bg-purple-100 px-2 py-0.5 font-semibold text-purple-900">
                    {kindLabel(kind)}: {count(data.counts.byKind[kind] ?? 0)}
                  </li>
                ))}
              </ul>
            )}
          </Card>
          {data.proposals.length === 0 ? (
            <Card>
              <p className="text-slate-600">{t('Nothing waits for approval.')}</p>
            </Card>
          ) : (
            <ul className="space-y-3">
              {data.proposals.map((p) => {
                const mine = p.proposedBy._id === user?.id;
                const allowed = approver && can(user?.role, PROPOSAL_ABILITY[p.kind]);
                return (
                  <li key={p.id}>
                    <Card>
                      <h3 className="text-base font-bold text-slate-900">{kindLabel(p.kind)}</h3>
                      {p.user && (
                        <p className="text-sm [overflow-wrap:anywhere] text-slate-700">
                          {bidiName(fullName(p.user))} · {p.user.email}
                        </p>
                      )}
                      {p.detail && <p className="text-sm [overflow-wrap:anywhere] text-slate-600">{p.detail}</p>}
                      <dl className="mt-2 grid grid-cols-1 gap-1 text-sm sm:grid-cols-2">
                        {p.changes.map((c) => (
                          <div key={c.field} className="flex flex-wrap gap-x-2">
                            <dt className="font-semibold text-slate-700">{fieldLabel(c.field)}:</dt>
                            <dd className="min-w-0 [overflow-wrap:anywhere] text-slate-900">
                              {t('{before} → {after}', {
                                before: valueText(c.field, c.before),
                                after: valueText(c.field, c.after),
                              })}
                            </dd>
                          </div>
                        ))}
                        {p.difference !== null && (
                          <div className="flex flex-wrap gap-x-2">
                            <dt className="font-semibold text-slate-700">{t('Difference')}:</dt>
                            <dd className="text-slate-900">
                              {Number(p.difference) > 0 ? '+' : ''}
                              {usdc(Number(p.difference), 'balance')}
                            </dd>
                          </div>
                        )}
                      </dl>
                      <p className="mt-2 text-xs [overflow-wrap:anywhere] text-slate-600">
                        {t('Proposed by {name} ({email}) at {at}; expires {expires}', {
                          name: bidiName(fullName(p.proposedBy)),
                          email: p.proposedBy.email,
                          at: dateTime(p.proposedAt),
                          expires: dateTime(p.expiresAt),
                        })}
                      </p>
                      <div className="mt-3 flex flex-wrap gap-2">
                        {mine ? (
                          <p className="text-sm text-slate-600">
                            {t('You proposed this: another staff member approves it.')}
                          </p>
                        ) : (
                          allowed && (
                            <Button onClick={() => setAsking({ p, decision: 'approve' })}>{t('Approve')}</Button>
                          )
                        )}
                        {(mine || allowed) && (
                          <Button variant="danger" onClick={() => setAsking({ p, decision: 'reject' })}>
                            {t('Reject')}
                          </Button>
                        )}
                      </div>
                    </Card>
                  </li>
                );
              })}
            </ul>
          )}
          <ConfirmDialog
            open={asking !== null}
            title={asking?.decision === 'approve' ? t('Approve this change?') : t('Reject this proposal?')}
            confirmLabel={asking?.decision === 'approve' ? t('Approve') : t('Reject')}
            destructive={asking?.decision === 'reject'}
            busy={decide.isPending}
            error={error}
            onConfirm={() => void confirm()}
            onCancel={() => {
              setAsking(null);
              setError(null);
            }}
          >
            {asking && (
              <p>
                {asking.decision === 'approve'
                  ? t('{what} takes effect now, as shown.', { what: kindLabel(asking.p.kind) })
                  : t('{what} will not happen.', { what: kindLabel(asking.p.kind) })}
              </p>
            )}
          </ConfirmDialog>
        </div>
      )}
    </QueryState>
  );
}
