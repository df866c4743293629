import { useEffect, useState } from 'react';
import { t } from '../../../lib/i18n.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';

/**
 * The deposit address with a copy button and a QR code, the instructions and the network warning.
 * `own`: the investor's own address (deposits show up by themselves); otherwise the shared platform
 * address (deposits are claimed with the form).
 */
export function DepositAddress({ address, own = false }: { address: string; own?: boolean }) {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    if (!address) return;
    let live = true;
    void import('qrcode')
      .then((QR) => QR.toDataURL(address, { width: 180, margin: 1 }))
      .then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [address]);
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-slate-600">
            {own ? t('Your deposit address (USDC on Polygon)') : t('Deposit address (USDC on Polygon)')}
          </p>
          <div className="mt-1 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-900" data-testid="deposit-address">
            {address && <ChainValue kind="address" value={address} done={t('Deposit address copied')} />}
          </div>
        </div>
        {qr && (
          <img src={qr} alt={t('QR code of the deposit address')} width={140} height={140} className="rounded-lg" />
        )}
      </div>
      <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        <p className="font-semibold">{t('Only USDC on the Polygon network is accepted.')}</p>
        <p>
          {t(
            'Sending any other token, or USDC on any other network, to this address will not be credited and may be lost.',
          )}
        </p>
      </div>
      {own ? (
        <ol className="list-decimal space-y-1 ps-5 text-sm text-slate-700">
          <li>{t('Send USDC on the Polygon network from any wallet to your address above (minimum $0.5 USDC).')}</li>
          <li>{t('The deposit shows up below by itself within a minute, with its confirmations.')}</li>
          <li>{t('Your balance is credited once the transfer is confirmed. No transaction hash to paste.')}</li>
        </ol>
      ) : (
        <ol className="list-decimal space-y-1 ps-5 text-sm text-slate-700">
          <li>{t('Send USDC on the Polygon network from your wallet to the address above (minimum $0.5 USDC).')}</li>
          <li>{t('Copy the transaction hash from your wallet or a block explorer once the transfer is sent.')}</li>
          <li>{t('Submit the transaction hash, the exact amount and the address you sent from in the form below.')}</li>
          <li>{t('Your balance is credited once the transaction is confirmed.')}</li>
        </ol>
      )}
    </div>
  );
}
