import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { PorProof } from '@harvest/shared/schemas/proof-of-reserves';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { save } from '../../../lib/download.ts';
import { dateTime, usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { myProofQuery, snapshotQuery } from '../api/por.ts';

type Check = { ok: true } | { ok: false; reason: string } | null;

/**
 * "Proof of reserves" on the investor's dashboard: their amount in the latest snapshot (the one their proof names),
 * a check run in this browser with the independent verifier's own code (the path from their leaf to the published
 * root, every sum), and their inclusion proof as a JSON file.
 */
export function MyProof() {
  const proof = useQuery(myProofQuery());
  // The proof's own snapshot, not the latest: a snapshot taken meanwhile (or a cached latest) has another root.
  const snapshot = useQuery({ ...snapshotQuery(proof.data?.snapshotId ?? ''), enabled: Boolean(proof.data) });
  const [check, setCheck] = useState<Check>(null);
  if (snapshot.isError || proof.isError) return null;
  return (
    <QueryState
      query={proof}
      what={t('your proof of reserves')}
      lines={2}
      frame={(state) => <Card title={t('Proof of reserves')}>{state}</Card>}
    >
      {(p) => (
        <Card title={t('Proof of reserves')}>
          <div data-testid="my-proof" className="space-y-3 text-slate-700">
            <p>
              {t('Your amount in the snapshot of {time}: {amount}', {
                time: snapshot.data ? dateTime(snapshot.data.takenAt) : '…',
                amount: usdc(Number(BigInt(p.amount)) / 1e6, 'balance'),
              })}
            </p>
            <div className="flex flex-wrap gap-2">
              <Button
                disabled={!snapshot.data}
                onClick={async () => {
                  if (!snapshot.data) return;
                  // The verifier (keccak and all) loads when asked for, not with the dashboard.
                  const { usdcToMicro, verifyInclusion } = await import('@harvest/por-verifier/merkle');
                  const v = verifyInclusion(p, {
                    root: snapshot.data.root,
                    total: usdcToMicro(snapshot.data.total).toString(),
                  });
                  setCheck(v.ok ? { ok: true } : v);
                }}
              >
                {t('Verify in my browser')}
              </Button>
              <Button variant="secondary" onClick={() => downloadProof(p)}>
                {t('Download my inclusion proof')}
              </Button>
            </div>
            {check && (
              <p
                role="status"
                data-testid="my-proof-check"
                data-ok={check.ok ? 'yes' : 'no'}
                className={check.ok ? 'font-semibold text-emerald-800' : 'font-semibold text-red-700'}
              >
                {check.ok
                  ? t('Verified: your amount is in the published total, and every sum on the way adds up.')
                  : t('Not verified: {reason}', { reason: check.reason })}
              </p>
            )}
            <a href="/proof-of-reserves" className="text-sm font-semibold text-purple-800 underline">
              {t('See the published proof of reserves')}
            </a>
          </div>
        </Card>
      )}
    </QueryState>
  );
}

function downloadProof(p: PorProof) {
  const blob = new Blob([`${JSON.stringify(p, null, 2)}\n`], { type: 'application/json' });
  save({ name: `proof-of-reserves-${p.snapshotId}.json`, blob });
}
