import { useState } from 'react';
import type { Address } from 'viem';
import { TEXT } from '@harvest/shared/texts';
import { WALLET_TEXT } from '@harvest/shared/wallet-texts';
import { walletDepositBody } from '@harvest/shared/schemas/deposits';
import type { DepositSettings } from '@harvest/shared/schemas/deposit-settings';
import { parseUsdc } from '@harvest/shared/money';
import { Button } from '../../../components/ui/button.tsx';
import { AmountInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { firstError, useFailure, useZodForm } from '../../../lib/form.ts';
import { toast } from '../../../lib/toast.ts';
import { useSubmitDeposit } from '../api/submit-deposit.ts';
import type { Eip1193 } from '../lib/wallet.ts';
import { t } from '../../../lib/i18n.tsx';

/** The browser's EIP-1193 wallet (MetaMask and the like inject `window.ethereum`), if there is one. */
export function browserWallet(): Eip1193 | null {
  if (typeof window === 'undefined') return null;
  const eth = (window as { ethereum?: Partial<Eip1193> }).ethereum;
  return eth && typeof eth.request === 'function' ? (eth as Eip1193) : null;
}

/** Whether the button is offered: a wallet in the browser, per-investor addresses, a real chain. */
export function walletDepositAvailable(settings: DepositSettings | undefined, address: string | undefined): boolean {
  return Boolean(settings?.ownAddress && settings.usdcContract && address && browserWallet());
}

interface Values {
  amount: string;
}

/**
 * "Send from my wallet": the investor types an amount, their browser wallet is asked to switch to the
 * server's chain and to send the USDC transfer to their own deposit address, and the transaction hash is
 * submitted for them (process-deposit, with an Idempotency-Key) so the deposit shows at once. Hidden
 * without a wallet. viem's wallet code is loaded on the first press, not with the page.
 */
export function WalletDeposit({ settings, address }: { settings: DepositSettings | undefined; address: string }) {
  const form = useZodForm<Values>(walletDepositBody, { defaultValues: { amount: '' } });
  const submit = useSubmitDeposit();
  const [stage, setStage] = useState<'idle' | 'wallet' | 'mining'>('idle');
  const failure = useFailure();
  const errors = form.formState.errors;
  if (!settings || !walletDepositAvailable(settings, address)) return null;
  const { chainId, usdcContract } = settings;

  async function onValid(v: Values) {
    const provider = browserWallet();
    const amount = parseUsdc(v.amount.trim());
    if (!provider || !usdcContract || amount === null) return;
    failure.clear();
    setStage('wallet');
    let sent: { hash: `0x${string}`; from: string } | null = null;
    try {
      const wallet = await import('../lib/wallet.ts');
      try {
        sent = await wallet.sendFromWallet(provider, {
          chainId,
          token: usdcContract as Address,
          to: address as Address,
          amount,
        });
      } catch (err) {
        // The wallet's own failure, in our English words: said where it is shown.
        const text = wallet.walletErrorText(err);
        failure.set(null, text);
        toast.error(text);
        return;
      }
      setStage('mining');
      await wallet.waitMined(provider, sent.hash);
      const res = await submit.mutateAsync({ txHash: sent.hash, amount: v.amount.trim(), fromAddress: sent.from });
      if (res.deposit.status === 'failed') toast.error(res.message);
      else toast.success(res.message);
      form.reset({ amount: '' });
    } catch (err) {
      // The transfer went out; the watcher finds it even if the submission did not get through.
      if (sent) toast.info(WALLET_TEXT.sentNotSubmitted);
      else {
        failure.set(err, WALLET_TEXT.failed);
        toast.error(errorText(err, WALLET_TEXT.failed));
      }
    } finally {
      setStage('idle');
    }
  }

  return (
    <form
      onSubmit={form.handleSubmit(onValid, (errs) => toast.error(firstError(errs) ?? TEXT.minDeposit))}
      noValidate
      aria-label={t('Send from my wallet')}
      className="space-y-3 rounded-xl border border-purple-200 bg-purple-50/60 p-4"
    >
      <p className="text-sm text-slate-700">
        {t('Have a browser wallet? Send USDC to your address from it; the deposit shows up below at once.')}
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 sm:w-64">
          <AmountInput
            label={t('Amount to send (USDC)')}
            placeholder="0.5"
            error={errors.amount?.message}
            {...form.register('amount')}
          />
        </div>
        <Button type="submit" disabled={stage !== 'idle'} className="sm:mt-6">
          {stage === 'wallet'
            ? t('Confirm in your wallet...')
            : stage === 'mining'
              ? t('Waiting for the transfer...')
              : t('Send from my wallet')}
        </Button>
      </div>
      {failure.text && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {failure.text}
        </p>
      )}
    </form>
  );
}
