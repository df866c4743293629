import { useState } from 'react';
import { confirmWithPasskey, passkeysQuery } from '../../../lib/passkey.ts';
import { toast } from '../../../lib/toast.ts';
import { requestAllBody, type RequestAllInput } from '@harvest/shared/schemas/withdrawals';
import { TEXT } from '@harvest/shared/texts';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText, hasCode, isAbout } from '../../../lib/api-client.ts';
import { firstError, useFailure, useZodForm } from '../../../lib/form.ts';
import { useRequestAll } from '../api/request-all.ts';
import type { Breakdown } from '../lib/breakdown.ts';
import { ltr, usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { sayReceipt } from '../../../lib/server-text.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { useQuery } from '@tanstack/react-query';
import { FIRST_PAGE } from '../../../lib/paging.ts';
import { ADDRESS_CHOICE_SIZE, addressesQuery } from '../api/address-book.ts';
import { AddressChoice, waitingNote } from './address-book.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';

function BreakdownList({ b }: { b: Breakdown }) {
  return (
    <dl
      className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1.5 rounded-xl bg-purple-50 p-3 text-sm"
      aria-label={t('Withdrawal breakdown')}
    >
      <dt className="text-slate-600">{t('Cycle earnings ({n})', { n: b.earningsCount })}</dt>
      <dd className="text-end text-slate-900">{usdc(b.earnings)}</dd>
      <dt className="text-slate-600">{t('Rewards and balance')}</dt>
      <dd className="text-end text-slate-900">{usdc(b.other)}</dd>
      <dt className="font-medium text-slate-700">{t('Gross')}</dt>
      <dd className="text-end font-medium text-slate-900">{usdc(b.gross)}</dd>
      <dt className="text-slate-600">{t('Fee (15% on earnings)')}</dt>
      <dd className={`text-end ${b.fee > 0 ? 'text-red-700' : 'text-slate-900'}`}>
        {b.fee > 0 ? ltr(`−${usdc(b.fee)}`) : usdc(b.fee)}
      </dd>
      <dt className="font-semibold text-slate-900">{t('You receive (net)')}</dt>
      <dd className="text-end font-bold text-emerald-700">{usdc(b.net)}</dd>
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
    <Dialog open={open} onClose={onClose} title={t('Withdraw All')}>
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
  const { user } = useAuth();
  // With the address lock on, Withdraw All pays only to an active address of the book: "choose or add".
  const fromBook = Boolean(user && user.withdrawalLock.status !== 'off');
  // With a passkey, its assertion for this address, total and list confirms it (in place of the authenticator code).
  const hasPasskey = (useQuery(passkeysQuery()).data?.passkeys.length ?? 0) > 0;
  const needsCode = Boolean(user?.twoFactorEnabled) && !hasPasskey;
  // The book AddressChoice reads (one request): with nothing usable yet, it and a submit say when it will be, in
  // place of "enter an address" with no field to enter it in.
  const book = useQuery({ ...addressesQuery(FIRST_PAGE, ADDRESS_CHOICE_SIZE), enabled: fromBook });
  const waiting = fromBook ? waitingNote(book.data?.addresses) : null;
  const form = useZodForm<RequestAllInput>(
    requestAllBody,
    { defaultValues: { walletAddress: fromBook ? '' : (lastWallet ?? ''), withdrawalPassword: '', totpCode: '' } },
    {
      toInput: (v) => ({
        walletAddress: v.walletAddress.trim(),
        withdrawalPassword: v.withdrawalPassword,
        ...(v.totpCode?.trim() ? { totpCode: v.totpCode.trim() } : {}),
      }),
    },
  );
  const errors = form.formState.errors;
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const mutation = useRequestAll();
  const wallet = form.watch('walletAddress');

  // Errors are shown here, inside the dialog, next to the field they concern (and in a toast).
  function report(field: keyof RequestAllInput, err: unknown, fallback: string) {
    form.fail(field, err, fallback);
    toast.error(errorText(err, fallback));
  }
  const failure = useFailure();
  function reportFailure(err: unknown, fallback: string) {
    failure.set(err, fallback);
    toast.error(errorText(err, fallback));
  }

  function onReview(v: RequestAllInput) {
    failure.clear();
    if (breakdown.gross <= 0) return reportFailure(null, TEXT.noFunds);
    if (needsCode && !v.totpCode?.trim()) return report('totpCode', null, TEXT.totpRequired);
    setStep('confirm');
  }

  async function onConfirm() {
    const v = form.getValues();
    try {
      const walletAddress = v.walletAddress.trim();
      const passkey = hasPasskey ? await confirmWithPasskey({ purpose: 'withdraw_all', walletAddress }) : undefined;
      const res = await mutation.mutateAsync({
        walletAddress,
        withdrawalPassword: v.withdrawalPassword,
        ...(needsCode ? { totpCode: v.totpCode?.trim() } : {}),
        ...(passkey ? { passkey } : {}),
      });
      toast.success(sayReceipt(res));
      onDone(v.walletAddress.trim().toLowerCase());
      onClose();
    } catch (err) {
      setStep('form');
      const fallback = TEXT.withdrawFailed;
      if (hasCode(err, 'wrong_password')) report('withdrawalPassword', err, fallback);
      else if (hasCode(err, 'two_factor_invalid') || hasCode(err, 'two_factor_required'))
        report('totpCode', err, fallback);
      else if (hasCode(err, 'address_not_active') || isAbout(err, 'walletAddress'))
        report('walletAddress', err, fallback);
      else reportFailure(err, fallback);
    }
  }

  if (step === 'confirm') {
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          {t('Please confirm this withdrawal. Withdrawals may take up to 48 hours to process.')}
        </p>
        <BreakdownList b={breakdown} />
        <div className="text-sm">
          <p className="font-medium text-slate-500">{t('To wallet')}</p>
          <p className="text-xs text-slate-900">
            <ChainValue kind="address" value={wallet.trim()} />
          </p>
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setStep('form')} disabled={mutation.isPending}>
            {t('Back')}
          </Button>
          <Button variant="success" onClick={onConfirm} disabled={mutation.isPending}>
            {mutation.isPending ? t('Submitting...') : t('Confirm Withdrawal')}
          </Button>
        </div>
      </div>
    );
  }

  // Frozen: nothing to fill in that the server would refuse; what is held, why, and who lifts it.
  if (user?.withdrawalsFrozen)
    return (
      <div className="space-y-4">
        <BreakdownList b={breakdown} />
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {t('Withdrawals are frozen on this account. Contact support to have the freeze lifted.')}
        </p>
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            {t('Close')}
          </Button>
        </div>
      </div>
    );

  return (
    <form
      onSubmit={form.handleSubmit(onReview, (errs) =>
        toast.error((errs.walletAddress && waiting) || (firstError(errs) ?? TEXT.withdrawFailed)),
      )}
      className="space-y-4"
      noValidate
    >
      <BreakdownList b={breakdown} />
      {fromBook ? (
        <AddressChoice
          value={wallet}
          onChange={(a) => form.setValue('walletAddress', a, { shouldValidate: form.formState.isSubmitted })}
          error={errors.walletAddress?.message}
          waiting={waiting}
        />
      ) : (
        <TextInput
          label={t('Wallet Address (Polygon USDC)')}
          error={errors.walletAddress?.message}
          {...form.register('walletAddress')}
          placeholder="0x..."
          autoComplete="off"
          spellCheck={false}
          dir="ltr"
          className="font-mono"
        />
      )}
      <PasswordInput
        label={t('Withdrawal Password')}
        error={errors.withdrawalPassword?.message}
        {...form.register('withdrawalPassword')}
        autoComplete="current-password"
        maxLength={MAX_LENGTH.password}
      />
      {needsCode && (
        <TextInput
          label={t('Authentication or recovery code')}
          autoComplete="one-time-code"
          maxLength={MAX_LENGTH.authCode}
          error={errors.totpCode?.message}
          {...form.register('totpCode')}
        />
      )}
      {failure.text && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {failure.text}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t('Cancel')}
        </Button>
        <Button type="submit">{t('Review Withdrawal')}</Button>
      </div>
    </form>
  );
}
