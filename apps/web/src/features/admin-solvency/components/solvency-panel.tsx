import { useQuery } from '@tanstack/react-query';
import { Card } from '../../../components/ui/card.tsx';
import { dateTime, usdc } from '../../../lib/format.ts';
import { solvencyQuery } from '../api/solvency.ts';

/** What the platform owes against what its addresses hold on chain; red below 100 %. */
export function SolvencyPanel() {
  const q = useQuery(solvencyQuery());
  const s = q.data;
  const covered = s?.coverage == null || s.coverage >= 1;
  return (
    <Card title="Solvency">
      {!s ? (
        <p className="text-sm text-slate-500">{q.isError ? 'Solvency could not be loaded.' : 'Loading...'}</p>
      ) : (
        <div className="space-y-2 text-sm" data-testid="solvency">
          {/* Until the chain has been read there is no coverage to alarm about, only "not known yet". */}
          <p
            className={`text-2xl font-bold ${covered ? 'text-emerald-700' : s.asOf ? 'text-rose-700' : 'text-slate-700'}`}
            data-testid="solvency-coverage"
            data-covered={covered ? 'yes' : 'no'}
          >
            {s.coverage == null
              ? 'Nothing owed'
              : s.asOf
                ? `${(s.coverage * 100).toFixed(1)} % covered`
                : 'Coverage not known yet'}
          </p>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-slate-700">
            <dt>Owed to investors</dt>
            <dd className="text-right font-medium">{usdc(s.liabilities)}</dd>
            <dt>On deposit addresses</dt>
            <dd className="text-right font-medium">{usdc(s.assets.depositAddresses)}</dd>
            <dt>On the payout address</dt>
            <dd className="text-right font-medium">{usdc(s.assets.payoutAddress)}</dd>
          </dl>
          <p className="text-xs text-slate-500">
            {s.asOf ? `On-chain balances read ${dateTime(s.asOf)}` : 'On-chain balances not read yet'}
          </p>
        </div>
      )}
    </Card>
  );
}
