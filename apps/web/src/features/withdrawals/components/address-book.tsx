import { useState } from 'react';
import { withStepUp } from '../../../lib/passkey.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FIRST_PAGE } from '../../../lib/paging.ts';
import { usePagedQuery } from '../../../lib/use-paged-query.ts';
import {
  addWithdrawalAddressBody,
  type AddWithdrawalAddressInput,
  type WithdrawalAddress,
} from '@harvest/shared/schemas/security';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { errorText, hasCode, isAbout } from '../../../lib/api-client.ts';
import { dateTime } from '../../../lib/format.ts';
import { firstError, useFailure, useZodForm } from '../../../lib/form.ts';
import { msg } from '@harvest/shared/i18n';
import { known, rich, t } from '../../../lib/i18n.tsx';
import { sayReceipt } from '../../../lib/server-text.ts';
import { toast } from '../../../lib/toast.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import {
  ADDRESS_CHOICE_SIZE,
  ADDRESS_PAGE_SIZE,
  addAddress,
  addressesQuery,
  removeAddress,
} from '../api/address-book.ts';
import { browserWallet, proveWithWallet } from '../api/address-proof.ts';
import { ChainValue } from '../../../components/ui/chain-value.tsx';

/** What an address's state means to its owner, in words. */
export function addressState(a: Pick<WithdrawalAddress, 'status' | 'usableAt'>): { text: string; tone: string } {
  if (a.status === 'active') return { text: t('Active'), tone: 'bg-emerald-100 text-emerald-800' };
  if (a.status === 'cooling_down')
    return { text: t('Usable from {at}', { at: dateTime(a.usableAt) }), tone: 'bg-amber-100 text-amber-900' };
  return { text: t('Confirm it from the e-mail we sent you'), tone: 'bg-slate-100 text-slate-800' };
}

/**
 * With the lock on and no address of the book usable yet, what Withdraw All waits for: the first address to end
 * its cool-down, or one to be confirmed from its e-mail. Null when one is usable (or the book is empty).
 */
export function waitingNote(addresses: WithdrawalAddress[] | undefined): string | null {
  if (!addresses?.length || addresses.some((a) => a.status === 'active')) return null;
  const next = addresses
    .filter((a) => a.status === 'cooling_down')
    .sort((a, b) => Date.parse(a.usableAt) - Date.parse(b.usableAt))[0];
  if (next)
    return t('No address of your book is usable yet: {label} becomes usable on {at}.', {
      label: next.label,
      at: dateTime(next.usableAt),
    });
  return t('No address of your book is usable yet: confirm {label} from the e-mail we sent you.', {
    label: addresses[0]?.label ?? '',
  });
}

/** Adds an address to the book: label, address (EIP-55 checked), the login password again. */
export function AddAddressForm({
  onDone,
  onCancel,
  nested = false,
}: {
  onDone: (a: WithdrawalAddress) => void;
  onCancel: () => void;
  /** Inside another form (Withdraw All): a group whose button submits this part only (forms do not nest). */
  nested?: boolean;
}) {
  const qc = useQueryClient();
  const form = useZodForm<AddWithdrawalAddressInput>(addWithdrawalAddressBody, {
    defaultValues: { label: '', address: '', password: '' },
  });
  const errors = form.formState.errors;
  const failure = useFailure();
  const [proof, setProof] = useState<{ address: string; message: string; signature: string } | null>(null);
  const address = form.watch('address').trim();
  const proven = proof !== null && proof.address === address;
  async function prove() {
    try {
      setProof({ address, ...(await proveWithWallet(address)) });
    } catch (err) {
      toast.error(errorText(err, err instanceof Error ? known(err.message) : t('The wallet did not sign the message')));
    }
  }
  async function onSubmit(v: AddWithdrawalAddressInput) {
    failure.clear();
    try {
      const body = {
        label: v.label.trim(),
        address: v.address.trim(),
        password: v.password,
        ...(proof && proof.address === v.address.trim() ? { message: proof.message, signature: proof.signature } : {}),
      };
      const res = await withStepUp((passkey) => addAddress({ ...body, ...(passkey ? { passkey } : {}) }), {
        purpose: 'add_address',
        address: body.address,
      });
      toast.success(sayReceipt(res));
      await qc.invalidateQueries({ queryKey: queryKeys.account.all });
      onDone(res.address);
    } catch (err) {
      const fallback = msg('Could not add the address');
      toast.error(errorText(err, fallback));
      if (hasCode(err, 'wrong_password')) form.fail('password', err, fallback);
      else if (hasCode(err, 'conflict') || isAbout(err, 'address')) form.fail('address', err, fallback);
      else failure.set(err, fallback);
    }
  }
  const submit = form.handleSubmit(onSubmit, (e) => toast.error(firstError(e) ?? t('Could not add the address')));
  const Box = nested ? 'div' : 'form';
  return (
    <Box
      role={nested ? 'group' : undefined}
      aria-label={t('Add a withdrawal address')}
      className="space-y-2 rounded-lg bg-slate-50 p-3"
      {...(nested ? {} : { noValidate: true, onSubmit: submit })}
    >
      <TextInput
        label={t('Label')}
        maxLength={MAX_LENGTH.addressLabel}
        placeholder={t('My hardware wallet')}
        error={errors.label?.message}
        {...form.register('label')}
      />
      <TextInput
        label={t('Wallet address (Polygon USDC)')}
        placeholder="0x..."
        autoComplete="off"
        spellCheck={false}
        dir="ltr"
        className="font-mono"
        error={errors.address?.message}
        {...form.register('address')}
      />
      {browserWallet() && !proven && (
        <Button variant="secondary" onClick={() => void prove()}>
          {t('Prove with my wallet')}
        </Button>
      )}
      {proven && (
        <p role="status" className="rounded-lg bg-emerald-50 p-2 text-emerald-900">
          {t('Signed by the wallet that owns this address: no e-mailed confirmation needed.')}
        </p>
      )}
      <PasswordInput
        label={t('Login password')}
        autoComplete="current-password"
        maxLength={MAX_LENGTH.password}
        hint={t('We e-mail you a link to confirm the address; it becomes usable after the waiting period.')}
        error={errors.password?.message}
        {...form.register('password')}
      />
      {failure.text && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {failure.text}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={onCancel}>
          {t('Cancel')}
        </Button>
        <Button
          type={nested ? 'button' : 'submit'}
          onClick={nested ? () => void submit() : undefined}
          disabled={form.formState.isSubmitting}
        >
          {form.formState.isSubmitting ? t('Adding...') : t('Add address')}
        </Button>
      </div>
    </Box>
  );
}

/** Profile: the withdrawal address book, with each address's state, Remove (at once) and Add. */
export function AddressBookSection() {
  const qc = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<WithdrawalAddress | null>(null);
  const [busy, setBusy] = useState(false);
  const list = usePagedQuery(addressesQuery, { pageSize: ADDRESS_PAGE_SIZE, total: (d) => d.pagination.total });
  const query = list.query;

  async function remove() {
    if (!removing) return;
    setBusy(true);
    try {
      toast.success(sayReceipt(await removeAddress(removing._id)));
      await qc.invalidateQueries({ queryKey: queryKeys.account.all });
      setRemoving(null);
    } catch (err) {
      toast.error(errorText(err, t('Could not remove the address')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="address-book-title" className="space-y-3 rounded-lg border border-slate-200 p-3 text-sm">
      <h3 id="address-book-title" className="font-semibold text-slate-800">
        {t('Withdrawal addresses')}
      </h3>
      <QueryState query={query} what={t('your withdrawal addresses')} lines={2}>
        {(data) =>
          data.addresses.length === 0 ? (
            <p className="text-slate-700">{t('No saved addresses yet.')}</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {data.addresses.map((a) => {
                const s = addressState(a);
                return (
                  <li key={a._id} className="flex flex-wrap items-start justify-between gap-2 py-2">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium [overflow-wrap:anywhere] text-slate-900">{a.label}</p>
                      <p className="text-xs text-slate-700">
                        <ChainValue kind="address" value={a.address} />
                      </p>
                      <span className={`mt-1 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${s.tone}`}>
                        {s.text}
                      </span>
                      {a.proven && (
                        <span className="ms-2 mt-1 inline-block rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                          {t('Proven by its wallet')}
                        </span>
                      )}
                    </div>
                    <Button
                      variant="danger"
                      onClick={() => setRemoving(a)}
                      aria-label={t('Remove {label}', { label: a.label })}
                    >
                      {t('Remove')}
                    </Button>
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryState>
      <Pager label={t('Address pages')} {...list.pager} onLight />
      {adding ? (
        <AddAddressForm onDone={() => setAdding(false)} onCancel={() => setAdding(false)} />
      ) : (
        <Button variant="secondary" onClick={() => setAdding(true)}>
          {t('Add an address')}
        </Button>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={removing ? t('Remove {label}?', { label: removing.label }) : t('Remove this address?')}
        confirmLabel={t('Remove')}
        destructive
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      >
        {rich(
          t('<0>{address}</0> is removed at once; to use it again you add it again and wait for the waiting period.', {
            address: removing?.address ?? '',
          }),
          [() => <ChainValue kind="address" value={removing?.address ?? ''} className="text-xs" />],
        )}
      </ConfirmDialog>
    </section>
  );
}

/**
 * Withdraw All with the address lock on: "choose or add". Active addresses of the book can be chosen; the others
 * show when they become usable; a new one can be added here (it becomes usable after the waiting period).
 */
export function AddressChoice({
  value,
  onChange,
  error,
  waiting,
}: {
  value: string;
  onChange: (address: string) => void;
  error?: string | undefined;
  /** Nothing to choose yet: when it will be (waitingNote), said in place of `error`. */
  waiting: string | null;
}) {
  const [adding, setAdding] = useState(false);
  const query = useQuery(addressesQuery(FIRST_PAGE, ADDRESS_CHOICE_SIZE));
  const errorId = 'address-choice-error';
  return (
    <fieldset className="space-y-2" aria-describedby={error || waiting ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">{t('Pay to an address of your address book')}</legend>
      <QueryState query={query} what={t('your withdrawal addresses')} lines={2}>
        {(data) =>
          data.addresses.length === 0 ? (
            <p className="text-sm text-slate-700">{t('Your address book is empty: add the address to pay to.')}</p>
          ) : (
            <ul className="space-y-1">
              {data.addresses.map((a) => {
                const usable = a.status === 'active';
                const s = addressState(a);
                return (
                  <li
                    key={a._id}
                    className={`rounded-lg border p-2 text-sm ${value.toLowerCase() === a.address.toLowerCase() ? 'border-purple-600 bg-purple-50' : 'border-slate-200'}`}
                  >
                    <label className={`flex items-start gap-2 ${usable ? 'cursor-pointer' : ''}`}>
                      <input
                        type="radio"
                        name="book-address"
                        className="mt-1"
                        value={a.address}
                        disabled={!usable}
                        checked={value.toLowerCase() === a.address.toLowerCase()}
                        onChange={() => onChange(a.address)}
                      />
                      <span className="min-w-0 flex-1">
                        <span className="block font-medium [overflow-wrap:anywhere] text-slate-900">{a.label}</span>
                        {!usable && <span className="block text-xs text-slate-700">{s.text}</span>}
                      </span>
                    </label>
                    {/* Beside the label, not in it: a label may hold no second control (the copy button). */}
                    <ChainValue kind="address" value={a.address} className="ps-6 text-xs text-slate-700" />
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryState>
      {waiting ? (
        <p id={errorId} className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {waiting}
        </p>
      ) : (
        error && (
          <p id={errorId} className="text-sm font-medium text-red-700">
            {known(error)}
          </p>
        )
      )}
      {adding ? (
        <AddAddressForm nested onDone={() => setAdding(false)} onCancel={() => setAdding(false)} />
      ) : (
        <Button variant="secondary" onClick={() => setAdding(true)}>
          {t('Add a new address')}
        </Button>
      )}
    </fieldset>
  );
}
