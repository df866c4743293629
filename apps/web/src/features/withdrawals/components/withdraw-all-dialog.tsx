import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { EVM_ADDRESS } from '@harvest/shared/schemas/common';
import { TEXT } from '@harvest/shared/texts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useRequestAll } from '../api/request-all.ts';
import type { Breakdown } from '../lib/breakdown.ts';
import { usdExact } from '../lib/format.ts';

function BreakdownList({ b }: { b: Breakdown }) {
  return (
    <dl
      className="grid grid-cols-2 gap-x-4 gap-y-1.5 rounded-xl bg-purple-50 p-3 text-sm"
      aria-label="Withdrawal breakdown"
    >
      <dt className="text-slate-600">Cycle earnings ({b.earningsCount})</dt>
      <dd className="text-right text-slate-900">{usdExact(b.earnings)}</dd>
      <dt className="text-slate-600">Rewards and balance</dt>
      <dd className="text-right text-slate-900">{usdExact(b.other)}</dd>
      <dt className="font-medium text-slate-700">Gross</dt>
      <dd className="text-right font-medium text-slate-900">{usdExact(b.gross)}</dd>
      <dt className="text-slate-600">Fee (15% on earnings)</dt>
      <dd className="text-right text-rose-700">−{usdExact(b.fee)}</dd>
      <dt className="font-semibold text-slate-900">You receive (net)</dt>
      <dd className="text-right font-bold text-emerald-700">{usdExact(b.net)}</dd>
    </dl>
  );
}

/** Withdraw All: wallet (pre-filled with the last one), withdrawal password, the breakdown, then a confirmation step. */
export function WithdrawAllDialog({
  open,
  onClose,
  breakdown,
  lastWallet,
  onDone,
}: {
  open: boolean;
  onClose: () => void;
  breakdown: Breakdown;
  lastWallet: string | null;
  onDone: (wallet: string) => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title="Withdraw All">
      <WithdrawAllBody
        key={String(open)}
        breakdown={breakdown}
        lastWallet={lastWallet}
        onClose={onClose}
        onDone={onDone}
      />
    </Dialog>
  );
}

function WithdrawAllBody({
  breakdown,
  lastWallet,
  onClose,
  onDone,
}: {
  breakdown: Breakdown;
  lastWallet: string | null;
  onClose: () => void;
  onDone: (wallet: string) => void;
}) {
  const [wallet, setWallet] = useState(lastWallet ?? '');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const mutation = useRequestAll();

  function onReview(e: FormEvent) {
    e.preventDefault();
    if (!wallet.trim()) return void toast.error(TEXT.walletRequired);
    if (!EVM_ADDRESS.test(wallet.trim())) return void toast.error(TEXT.invalidWallet);
    if (!password) return void toast.error(TEXT.withdrawalPasswordRequired);
    if (breakdown.gross <= 0) return void toast.error(TEXT.noFunds);
    setStep('confirm');
  }

  async function onConfirm() {
    try {
      const res = await mutation.mutateAsync({ walletAddress: wallet.trim(), withdrawalPassword: password });
      toast.success(res.message);
      onDone(wallet.trim().toLowerCase());
      onClose();
    } catch (err) {
      toast.error(errorText(err, TEXT.withdrawFailed));
      setStep('form');
    }
  }

  if (step === 'confirm') {
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          Please confirm this withdrawal. Withdrawals may take up to 48 hours to process.
        </p>
        <BreakdownList b={breakdown} />
        <div className="text-sm">
          <p className="font-medium text-slate-500">To wallet</p>
          <p className="font-mono text-xs break-all text-slate-900">{wallet.trim()}</p>
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setStep('form')} disabled={mutation.isPending}>
            Back
          </Button>
          <Button variant="success" onClick={onConfirm} disabled={mutation.isPending}>
            {mutation.isPending ? 'Submitting...' : 'Confirm Withdrawal'}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onReview} className="space-y-4" noValidate>
      <BreakdownList b={breakdown} />
      <TextInput
        label="Wallet Address (Polygon USDC)"
        value={wallet}
        onChange={(e) => setWallet(e.target.value)}
        placeholder="0x..."
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
      />
      <PasswordInput
        label="Withdrawal Password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="current-password"
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">Review Withdrawal</Button>
      </div>
    </form>
  );
}
