import { msg } from '@harvest/shared/i18n';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { FoundPayout } from '@harvest/shared/schemas/withdrawals';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { count, dateTime, shortHash, usdc } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import { foundPayoutsQuery, useAssignPayout, useDismissPayout } from '../api/payouts.ts';
import { rich, t, known } from '../../../lib/i18n.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';
import { useCan } from '../../../lib/auth.tsx';

const SOURCE = { earning: msg('Cycle earning'), rewards: msg('Referral rewards'), balance: msg('Balance') } as const;

/**
 * Payouts read on chain that the watcher could not settle by itself (decision 0071): several sets of pending
 * withdrawals add up to one (the administrator picks, nothing is guessed), or none does. Shown only when there are.
 */
export function FoundPayouts() {
  const q = useQuery(foundPayoutsQuery());
  const payouts = q.data?.payouts ?? [];
  if (payouts.length === 0) return null;
  return (
    <Card title={t('Payouts found on chain')}>
      <p className="mb-3 text-sm text-slate-700">
        {t(
          'These USDC transfers left the payout address and could not be matched with pending withdrawals by themselves. Say which withdrawals each one paid, or that it paid none.',
        )}
      </p>
      <ul className="space-y-3">
        {payouts.map((p) => (
          <PayoutItem key={p._id} p={p} />
        ))}
      </ul>
    </Card>
  );
}

function PayoutItem({ p }: { p: FoundPayout }) {
  const byId = new Map(p.pendingToWallet.map((w) => [w._id, w]));
  // A candidate set (several fit) or any pending withdrawals to that wallet (none fits by itself).
  const choices = p.candidates.length > 0 ? p.candidates : p.pendingToWallet.map((w) => [w._id]);
  const [choice, setChoice] = useState<number | null>(null);
  const assign = useAssignPayout();
  const dismiss = useDismissPayout();
  const name = `payout-${p._id}`;
  const money = useCan('money');
  // Held: it paid a frozen account's withdrawals, which it does not complete (assigning is refused while frozen).
  const held = p.status === 'held';

  async function onAssign() {
    if (choice === null) return;
    try {
      toast.success((await assign.mutateAsync({ id: p._id, withdrawalIds: choices[choice] ?? [] })).message);
    } catch (err) {
      toast.error(errorText(err, t('The withdrawals could not be approved with this payout')));
    }
  }
  async function onDismiss() {
    try {
      toast.success((await dismiss.mutateAsync(p._id)).message);
    } catch (err) {
      toast.error(errorText(err, t('The payout could not be removed')));
    }
  }

  return (
    <li
      className={`rounded-xl border p-3 text-sm ${held ? 'border-red-200 bg-red-50' : 'border-amber-200 bg-amber-50'}`}
    >
      {held && (
        <span className="mb-1 inline-block rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-800">
          {t('Held: account frozen')}
        </span>
      )}
      <p className="font-semibold text-slate-900">
        {rich(t('<0>{amount}</0> to <1>{wallet}</1>', { amount: usdc(p.amount), wallet: p.walletAddress }), [
          (text) => <span className="whitespace-nowrap">{text}</span>,
          () => <ChainValue kind="address" value={p.walletAddress} className="text-xs font-normal" />,
        ])}
      </p>
      <p className="text-xs text-slate-700">
        {rich(
          t('Transaction <0>{hash}</0> · block {block}', { hash: shortHash(p.txHash), block: count(p.blockNumber) }),
          [() => <ChainValue kind="tx" value={p.txHash} />],
        )}
      </p>
      {p.detail && <p className={`mt-1 ${held ? 'text-red-800' : 'text-amber-900'}`}>{known(p.detail)}</p>}
      {!money ? null : choices.length > 0 ? (
        <fieldset className="mt-2 space-y-1">
          <legend className="font-medium text-slate-900">{t('It paid')}</legend>
          {choices.map((set, i) => (
            <label key={set.join(',')} className="flex items-start gap-2">
              <input
                type="radio"
                name={name}
                className="mt-1 accent-purple-700"
                checked={choice === i}
                onChange={() => setChoice(i)}
              />
              <span>
                {set
                  .map((id) => byId.get(id))
                  .map((w) =>
                    w
                      ? t('{what} {amount} (requested {date})', {
                          what: w.cycleNumber !== null ? t('Cycle #{n}', { n: w.cycleNumber }) : t(SOURCE[w.source]),
                          amount: usdc(w.netAmount),
                          date: dateTime(w.requestedAt),
                        })
                      : '',
                  )
                  .join(' + ')}
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p className="mt-2 text-slate-700">{t('No pending withdrawal to this wallet.')}</p>
      )}
      {money && (
        <div className="mt-2 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => void onDismiss()} disabled={dismiss.isPending}>
            {t('Paid no withdrawal')}
          </Button>
          {choices.length > 0 && (
            <Button variant="success" onClick={() => void onAssign()} disabled={choice === null || assign.isPending}>
              {assign.isPending ? t('Approving...') : t('Approve with this payout')}
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
