import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { createTierBody, type AdminTier } from '@harvest/shared/schemas/admin';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { AmountInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useFailure, useZodForm } from '../../../lib/form.ts';
import { useSaveTier } from '../api/save-tier.ts';
import { useQuery } from '@tanstack/react-query';
import { adminTiersQuery } from '../api/tiers.ts';
import { dateTime, percent, usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { useCan } from '../../../lib/auth.tsx';

/** Tier management: create, edit, activate and deactivate. Bought investments keep their terms. */
export function TiersManager() {
  const q = useQuery(adminTiersQuery());
  const [editing, setEditing] = useState<AdminTier | 'new' | null>(null);
  const save = useSaveTier();
  const money = useCan('money');

  async function setActive(tier: AdminTier, active: boolean) {
    try {
      await save.mutateAsync({ id: tier._id, body: { active } });
      toast.success(active ? t('{tier} activated', { tier: tier.name }) : t('{tier} deactivated', { tier: tier.name }));
    } catch (err) {
      toast.error(errorText(err, TEXT.tierSaveFailed));
    }
  }

  return (
    <div className="space-y-4">
      <Card
        title={t('Investment Tiers')}
        actions={money && <Button onClick={() => setEditing('new')}>{t('New Tier')}</Button>}
      >
        <p className="text-sm text-slate-600">
          {t(
            'Changes apply to new investments only: an investment keeps the name, amount and daily rate it was bought with. Inactive tiers are hidden from investors.',
          )}
        </p>
      </Card>
      {money && editing && <TierForm tier={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <QueryState
        query={q}
        what={t('tiers')}
        fallback={t('Failed to load tiers')}
        frame={(state) => <Card>{state}</Card>}
      >
        {(data) =>
          data.tiers.length === 0 ? (
            <Card>
              <p className="text-slate-500">{t('No tiers yet.')}</p>
            </Card>
          ) : (
            <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {data.tiers.map((tier) => (
                <li key={tier._id}>
                  {/* Told apart by its badge and a dashed edge: a faded card would fade its buttons below legible contrast. */}
                  <Card className={tier.active ? '' : 'outline-2 outline-slate-300 outline-dashed'}>
                    <div className="flex items-start justify-between gap-2">
                      <h3 className="text-base font-bold [overflow-wrap:anywhere] text-slate-900">{tier.name}</h3>
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-bold ${tier.active ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'}`}
                      >
                        {tier.active ? t('ACTIVE') : t('INACTIVE')}
                      </span>
                    </div>
                    <p className="mt-2 text-xl font-bold text-purple-700">{usdc(tier.amount)}</p>
                    <p className="text-sm text-slate-600">
                      {t('{rate} daily · order {order}', { rate: percent(tier.dailyRate), order: tier.sortOrder })}
                    </p>
                    <p className="text-xs text-slate-500">{t('Updated {date}', { date: dateTime(tier.updatedAt) })}</p>
                    {money && (
                      <div className="mt-3 flex flex-wrap gap-2">
                        <Button variant="secondary" onClick={() => setEditing(tier)}>
                          {t('Edit')}
                        </Button>
                        <Button
                          variant={tier.active ? 'danger' : 'success'}
                          disabled={save.isPending}
                          onClick={() => void setActive(tier, !tier.active)}
                        >
                          {tier.active ? t('Deactivate') : t('Activate')}
                        </Button>
                      </div>
                    )}
                  </Card>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </div>
  );
}

interface TierValues {
  name: string;
  amount: string;
  dailyRate: string;
  sortOrder: string;
  active: boolean;
}

/** The request body the form's strings make: the shared schema checks it and names the wrong field. */
const tierBody = (v: TierValues) => ({
  name: v.name,
  amount: v.amount.trim(),
  dailyRate: v.dailyRate.trim() === '' ? Number.NaN : Number(v.dailyRate),
  active: v.active,
  sortOrder: Number(v.sortOrder) || 0,
});

function TierForm({ tier, onClose }: { tier: AdminTier | null; onClose: () => void }) {
  const form = useZodForm<TierValues>(
    createTierBody,
    {
      defaultValues: {
        name: tier?.name ?? '',
        amount: tier ? String(tier.amount) : '',
        dailyRate: tier ? String(tier.dailyRate) : '',
        sortOrder: tier ? String(tier.sortOrder) : '0',
        active: tier?.active ?? true,
      },
    },
    { toInput: tierBody },
  );
  const errors = form.formState.errors;
  const failure = useFailure();
  const save = useSaveTier();

  async function onValid(values: TierValues) {
    failure.clear();
    try {
      const res = await save.mutateAsync({ id: tier?._id, body: tierBody(values) });
      toast.success('proposalId' in res ? res.message : tier ? t('Tier updated') : t('Tier created'));
      onClose();
    } catch (err) {
      failure.set(err, TEXT.tierSaveFailed);
    }
  }

  return (
    <Card title={tier ? t('Edit {tier}', { tier: tier.name }) : t('New Tier')}>
      <form
        onSubmit={form.handleSubmit(onValid)}
        noValidate
        className="grid grid-cols-1 gap-3 sm:grid-cols-2"
        aria-label={tier ? t('Edit tier') : t('New tier')}
      >
        <TextInput
          label={t('Name')}
          maxLength={MAX_LENGTH.tierName}
          required
          error={errors.name?.message}
          {...form.register('name')}
        />
        <AmountInput label={t('Amount (USDC)')} required error={errors.amount?.message} {...form.register('amount')} />
        <TextInput
          label={t('Daily rate (%)')}
          type="number"
          inputMode="decimal"
          dir="ltr"
          min="0"
          max="100"
          step="any"
          required
          error={errors.dailyRate?.message}
          {...form.register('dailyRate')}
        />
        <TextInput
          label={t('Display order')}
          type="number"
          step="1"
          error={errors.sortOrder?.message}
          {...form.register('sortOrder')}
        />
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700 sm:col-span-2">
          <input type="checkbox" className="h-4 w-4" {...form.register('active')} />
          {t('Active (investors can buy it)')}
        </label>
        {failure.text && (
          <p role="alert" className="text-sm text-rose-700 sm:col-span-2">
            {failure.text}
          </p>
        )}
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? t('Saving...') : t('Save Tier')}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            {t('Cancel')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
