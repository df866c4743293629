import { useQuery } from '@tanstack/react-query';
import { TEXT } from '@harvest/shared/texts';
import { withdrawalPolicyBody, type WithdrawalPolicy } from '@harvest/shared/schemas/withdrawal-limits';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { AmountInput } from '../../../components/ui/field.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { dateTime, usdc } from '../../../lib/format.ts';
import { useFailure, useZodForm } from '../../../lib/form.ts';
import { t } from '../../../lib/i18n.tsx';
import { useCan } from '../../../lib/auth.tsx';
import { toast } from '../../../lib/toast.ts';
import { sayReceipt } from '../../../lib/server-text.ts';
import { useSaveWithdrawalPolicy, withdrawalPolicyQuery } from '../api/withdrawal-limits.ts';

interface PolicyValues {
  perInvestorDay: string;
  perInvestorMonth: string;
  platformDay: string;
}

/** An empty field is no limit. */
const limitOf = (v: string) => (v.trim() === '' ? null : v.trim());
const policyBody = (v: PolicyValues) => ({
  perInvestorDay: limitOf(v.perInvestorDay),
  perInvestorMonth: limitOf(v.perInvestorMonth),
  platformDay: limitOf(v.platformDay),
});
const text = (n: number | null) => (n === null ? '' : String(n));

/** The back office's withdrawal limits: per investor per 24 hours and per 30 days, and the platform's per 24 hours. */
export function WithdrawalPolicyPanel() {
  const q = useQuery(withdrawalPolicyQuery());
  const money = useCan('money');
  return (
    <Card title={t('Withdrawal limits')}>
      <QueryState query={q} what={t('withdrawal limits')}>
        {(data) =>
          money ? (
            <PolicyForm key={data.policy.updatedAt ?? 'none'} policy={data.policy} />
          ) : (
            <PolicyFigures policy={data.policy} />
          )
        }
      </QueryState>
    </Card>
  );
}

/** The limits as they stand, for a role that reads them but may not change them. */
function PolicyFigures({ policy }: { policy: WithdrawalPolicy }) {
  const limit = (n: number | null) => (n === null ? t('No limit') : usdc(n));
  const rows = [
    [t('Per investor, 24 hours (USDC)'), limit(policy.perInvestorDay)],
    [t('Per investor, 30 days (USDC)'), limit(policy.perInvestorMonth)],
    [t('Whole platform, 24 hours (USDC)'), limit(policy.platformDay)],
  ];
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
        {rows.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="font-semibold whitespace-nowrap text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <Usage policy={policy} />
    </div>
  );
}

/** What the platform-wide limit has used, and when the limits last changed. */
function Usage({ policy }: { policy: WithdrawalPolicy }) {
  return (
    <p className="text-sm text-slate-600">
      {t('Withdrawn on the platform in the last 24 hours: {amount}', { amount: usdc(policy.platformUsedDay) })}
      {policy.updatedAt && <> · {t('Updated {date}', { date: dateTime(policy.updatedAt) })}</>}
    </p>
  );
}

function PolicyForm({ policy }: { policy: WithdrawalPolicy }) {
  const form = useZodForm<PolicyValues>(
    withdrawalPolicyBody,
    {
      defaultValues: {
        perInvestorDay: text(policy.perInvestorDay),
        perInvestorMonth: text(policy.perInvestorMonth),
        platformDay: text(policy.platformDay),
      },
    },
    { toInput: policyBody },
  );
  const errors = form.formState.errors;
  const failure = useFailure();
  const save = useSaveWithdrawalPolicy();

  async function onValid(v: PolicyValues) {
    failure.clear();
    try {
      const res = await save.mutateAsync(policyBody(v));
      toast.success('proposalId' in res ? res.message : sayReceipt(res));
    } catch (err) {
      failure.set(err, TEXT.withdrawalPolicyFailed);
      toast.error(errorText(err, TEXT.withdrawalPolicyFailed));
    }
  }

  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate className="space-y-3" aria-label={t('Withdrawal limits')}>
      <p className="text-sm text-slate-600">
        {t(
          'Every pending or paid withdrawal counts in a rolling window; a Withdraw All over a limit is refused and told when it will be possible. Leave a field empty for no limit. Withdrawals are also held for {hours} hours after a security change on the account.',
          { hours: policy.holdHours },
        )}
      </p>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <AmountInput
          label={t('Per investor, 24 hours (USDC)')}
          error={errors.perInvestorDay?.message}
          {...form.register('perInvestorDay')}
        />
        <AmountInput
          label={t('Per investor, 30 days (USDC)')}
          error={errors.perInvestorMonth?.message}
          {...form.register('perInvestorMonth')}
        />
        <AmountInput
          label={t('Whole platform, 24 hours (USDC)')}
          error={errors.platformDay?.message}
          {...form.register('platformDay')}
        />
      </div>
      <Usage policy={policy} />
      {failure.text && (
        <p role="alert" className="text-sm text-rose-700">
          {failure.text}
        </p>
      )}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? t('Saving...') : t('Save limits')}
      </Button>
    </form>
  );
}
