import { useEffect, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { Button } from '../../../components/ui/button.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { generateInvitation, signupUrl } from '../api/invitation.ts';
import { t } from '../../../lib/i18n.tsx';

export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [code, setCode] = useState<string | null>(null);
  const [qr, setQr] = useState<string | null>(null);

  useEffect(() => {
    if (!open || code) return;
    generateInvitation()
      .then((r) => setCode(r.code))
      .catch((err: unknown) => {
        toast.error(errorText(err, TEXT.invitationFailed));
        onClose();
      });
  }, [open, code, onClose]);

  useEffect(() => {
    if (!code) return;
    // The QR library loads only when a code is shown.
    void import('qrcode').then((QR) => QR.toDataURL(signupUrl(code), { width: 220, margin: 1 })).then(setQr);
  }, [code]);

  return (
    <Dialog open={open} onClose={onClose} title={t('Invite a Friend')}>
      {!code ? (
        <p role="status" className="text-slate-600">
          {t('Generating your invitation...')}
        </p>
      ) : (
        <div className="space-y-4 text-center">
          <p className="text-sm text-slate-600">
            {t('Share your invitation code or link. People who sign up with it join your referral network.')}
          </p>
          <div>
            <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('Invitation Code')}</p>
            <p data-testid="invitation-code" className="font-mono text-2xl font-bold tracking-widest text-purple-800">
              {code}
            </p>
          </div>
          <CopyButton text={code} label={t('Copy Code')} done={t('Invitation code copied')} />
          {qr && (
            <img
              src={qr}
              alt={t('QR code of the signup link')}
              width={220}
              height={220}
              className="mx-auto rounded-lg border border-slate-200"
            />
          )}
          <p
            data-testid="signup-url"
            className="rounded-lg bg-slate-100 p-2 font-mono text-xs break-all text-slate-700"
          >
            {signupUrl(code)}
          </p>
          <div className="flex justify-center gap-2">
            <CopyButton text={signupUrl(code)} label={t('Copy URL')} done={t('Signup link copied')} />
            <Button onClick={onClose}>{t('Done')}</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
