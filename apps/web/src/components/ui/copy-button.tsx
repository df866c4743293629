import { toast } from '../../lib/toast.ts';
import { Button } from './button.tsx';
import { t } from '../../lib/i18n.tsx';

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyButton({ text, label, done }: { text: string; label: string; done?: string }) {
  return (
    <Button
      variant="secondary"
      onClick={async () =>
        (await copyText(text))
          ? toast.success(done ?? t('Copied!'))
          : toast.error(t('Could not copy. Please copy it by hand.'))
      }
    >
      {label}
    </Button>
  );
}
