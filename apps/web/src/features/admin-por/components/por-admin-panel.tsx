import { msg } from '@harvest/shared/i18n';
import { useState, type ChangeEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PorSnapshot, PorUnverifiedReason } from '@harvest/shared/schemas/proof-of-reserves';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useCan } from '../../../lib/auth.tsx';
import { useFailure } from '../../../lib/form.ts';
import { count, dateTime, percent, usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast.ts';
import { adminReservesQuery, adminSnapshotsQuery, useTakeSnapshot, useUploadSignatures } from '../api/por-admin.ts';

const REASON: Record<PorUnverifiedReason, string> = {
  unsigned: msg('No signature uploaded: listed, not counted'),
  malformed: msg('Not a signature: listed, not counted'),
  wrong_signer: msg('Signed by another key: listed, not counted'),
  not_owner: msg('Signed by an address that is not an owner of this wallet: listed, not counted'),
  too_few_owners: msg('Fewer owners signed than the wallet requires: listed, not counted'),
  refused: msg('The wallet refused the signature: listed, not counted'),
};

const KIND: Record<string, string> = {
  treasury: msg('Treasury'),
  payout: msg('Payout address'),
  shared: msg('Shared deposit address'),
  deposit: msg('Investor deposit address'),
};

/**
 * The back office's proof of reserves: every snapshot with its figures, "Take a snapshot now", and one snapshot's
 * reserve addresses with the signatures file `npm run por:sign` wrote uploaded against them. Only a role that moves
 * money (packages/shared/src/staff.ts) may act; every staff member may read.
 */
export function PorAdminPanel() {
  const q = useQuery(adminSnapshotsQuery());
  const mayAct = useCan('money');
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <div className="space-y-5">
      <Card
        title={t('Proof of reserves')}
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <a className="text-sm font-medium text-purple-800 underline" href="/proof-of-reserves">
              {t('Public page')}
            </a>
            {mayAct && <TakeSnapshot />}
          </div>
        }
      >
        <QueryState query={q} what={t('the snapshots')} lines={3} fallback={t('The snapshots could not be loaded.')}>
          {({ snapshots }) =>
            snapshots.length === 0 ? (
              <p className="text-sm text-slate-700">{t('No snapshot has been taken yet.')}</p>
            ) : (
              <ul className="divide-y divide-slate-200" data-testid="por-snapshots">
                {snapshots.map((s) => (
                  <SnapshotRow
                    key={s.id}
                    s={s}
                    shown={(chosen ?? snapshots[0]?.id) === s.id}
                    onShow={() => setChosen(s.id)}
                  />
                ))}
              </ul>
            )
          }
        </QueryState>
      </Card>
      {q.data && q.data.snapshots.length > 0 && (
        <SnapshotReserves
          snapshot={q.data.snapshots.find((s) => s.id === chosen) ?? q.data.snapshots[0]!}
          mayAct={mayAct}
        />
      )}
    </div>
  );
}

function SnapshotRow({ s, shown, onShow }: { s: PorSnapshot; shown: boolean; onShow: () => void }) {
  const figures = [
    [t('Liabilities'), usdc(s.total)],
    [t('Leaves of the tree'), count(s.leaves)],
    [t('Investors'), count(s.investors)],
    [t('Coverage'), s.coverage === null ? '—' : percent(s.coverage * 100, { min: 1, max: 2 })],
    [t('Reserves counted'), usdc(s.reserves.counted)],
    [t('Reserves listed'), usdc(s.reserves.listed)],
  ];
  return (
    <li className="space-y-2 py-3" data-testid="por-snapshot" data-id={s.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-slate-900">
          {s.blockNumber === null
            ? t('{date}, no block read', { date: dateTime(s.takenAt) })
            : t('{date}, block {block}', { date: dateTime(s.takenAt), block: count(s.blockNumber) })}
        </p>
        <Button variant="secondary" onClick={onShow} disabled={shown} aria-pressed={shown}>
          {shown ? t('Reserves shown below') : t('Show reserves')}
        </Button>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-2 lg:grid-cols-3">
        {figures.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-3">
            <dt>{label}</dt>
            <dd className="text-end font-medium whitespace-nowrap text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

/** Asks first: a snapshot is published at once and never changes. */
function TakeSnapshot() {
  const take = useTakeSnapshot();
  const failure = useFailure();
  const [open, setOpen] = useState(false);
  async function onConfirm() {
    failure.clear();
    try {
      const s = await take.mutateAsync();
      setOpen(false);
      toast.success(
        t('Snapshot taken: {total} owed to {n} investors', { total: usdc(s.total), n: count(s.investors) }),
      );
    } catch (err) {
      failure.set(err, t('The snapshot could not be taken'));
    }
  }
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('Take a snapshot now')}</Button>
      <ConfirmDialog
        open={open}
        title={t('Take a snapshot now?')}
        confirmLabel={t('Take and publish')}
        busy={take.isPending}
        error={failure.text}
        onConfirm={onConfirm}
        onCancel={() => {
          failure.clear();
          setOpen(false);
        }}
      >
        <p>
          {t(
            "Every user's balance goes into a new Merkle-sum tree and every reserve address's USDC is read at the current block. The snapshot is published at once and never changes.",
          )}
        </p>
      </ConfirmDialog>
    </>
  );
}

interface SignaturesFile {
  snapshotId?: unknown;
  signatures?: unknown;
}

/** The signatures in a file `npm run por:sign` wrote, or why the file is not one for this snapshot. */
function signaturesOf(text: string, snapshotId: string): { address: string; signature: string }[] | string {
  let file: SignaturesFile;
  try {
    file = JSON.parse(text) as SignaturesFile;
  } catch {
    return t('This file is not the JSON that npm run por:sign writes.');
  }
  const list = Array.isArray(file.signatures) ? (file.signatures as unknown[]) : null;
  const valid = list?.every(
    (s) =>
      typeof s === 'object' &&
      s !== null &&
      typeof (s as { address?: unknown }).address === 'string' &&
      typeof (s as { signature?: unknown }).signature === 'string',
  );
  if (!list || !valid) return t('This file is not the JSON that npm run por:sign writes.');
  if (file.snapshotId !== snapshotId)
    return t('This file signs snapshot {other}, not the one shown ({id}).', {
      other: String(file.snapshotId),
      id: snapshotId,
    });
  return list as { address: string; signature: string }[];
}

function SnapshotReserves({ snapshot, mayAct }: { snapshot: PorSnapshot; mayAct: boolean }) {
  const q = useQuery(adminReservesQuery(snapshot.id));
  const upload = useUploadSignatures();
  const [problem, setProblem] = useState<string | null>(null);

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const input = e.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setProblem(null);
    const signatures = signaturesOf(await file.text(), snapshot.id);
    input.value = '';
    if (typeof signatures === 'string') return setProblem(signatures);
    try {
      const r = await upload.mutateAsync({ id: snapshot.id, signatures });
      const verified = r.reserves.filter((a) => a.verified).length;
      toast.success(
        t('Signatures checked: {verified} of {listed} reserve addresses counted', {
          verified: count(verified),
          listed: count(r.reserves.length),
        }),
      );
    } catch (err) {
      setProblem(errorText(err, t('The signatures could not be uploaded')));
    }
  }

  return (
    <Card title={t('Reserves at {date}', { date: dateTime(snapshot.takenAt) })}>
      <QueryState query={q} what={t('the reserve addresses')} lines={3}>
        {(r) => (
          <div className="space-y-4 text-sm">
            <div className="space-y-1">
              <p className="font-medium text-slate-900">{t('The message every reserve address signs')}</p>
              <pre
                className="rounded-lg bg-slate-100 p-3 text-xs whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]"
                dir="ltr"
                data-testid="por-message"
              >
                {r.message}
              </pre>
            </div>
            {mayAct && (
              <div className="space-y-1">
                <label htmlFor="por-signatures" className="block font-medium text-slate-900">
                  {t('Upload the signatures file (npm run por:sign)')}
                </label>
                <input
                  id="por-signatures"
                  type="file"
                  accept="application/json,.json"
                  onChange={onFile}
                  disabled={upload.isPending}
                  className="block w-full min-w-0 text-sm text-slate-800 file:me-3 file:rounded-lg file:border-0 file:bg-purple-100 file:px-3 file:py-2 file:font-medium file:text-purple-900"
                />
                {upload.isPending && <p className="text-slate-700">{t('Checking the signatures on chain...')}</p>}
                {problem && (
                  <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-800">
                    {problem}
                  </p>
                )}
              </div>
            )}
            {r.reserves.length === 0 ? (
              <p className="text-slate-700">{t('No reserve address was read for this snapshot.')}</p>
            ) : (
              <ul className="divide-y divide-slate-200" data-testid="por-admin-reserves">
                {r.reserves.map((a) => (
                  <li key={a.address} className="space-y-1 py-2" data-testid="por-reserve" data-address={a.address}>
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span className="min-w-0">
                        <span className="block text-xs text-slate-600">{KIND[a.kind] ? t(KIND[a.kind]!) : a.kind}</span>
                        <ChainValue kind="address" value={a.address} />
                      </span>
                      <span className="font-semibold whitespace-nowrap text-slate-900">{usdc(a.balance)}</span>
                    </div>
                    <p
                      data-verified={a.verified ? 'yes' : 'no'}
                      className={a.verified ? 'font-medium text-emerald-800' : 'text-slate-700'}
                    >
                      {a.verified ? t('Signature verified: counted') : t(REASON[a.reason ?? 'unsigned'])}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </QueryState>
    </Card>
  );
}
