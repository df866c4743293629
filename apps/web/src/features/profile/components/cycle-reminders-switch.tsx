import { useState } from 'react';
import { errorText } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { t } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast.ts';
import { saveCycleReminders } from '../api/preferences.ts';

/** Profile: the opt-in e-mail when a running cycle becomes ready to complete, saved as soon as it is switched. */
export function CycleRemindersSwitch() {
  const { user, setUser } = useAuth();
  // The switch moves at once; a refusal puts it back where the account has it.
  const [saving, setSaving] = useState<boolean | null>(null);
  if (!user) return null;

  async function change(on: boolean) {
    setSaving(on);
    try {
      setUser((await saveCycleReminders(on)).user);
      toast.success(on ? t('Cycle reminders turned on') : t('Cycle reminders turned off'));
    } catch (err) {
      toast.error(errorText(err, t('Could not save cycle reminders')));
    } finally {
      setSaving(null);
    }
  }

  return (
    <section aria-labelledby="reminders-title" className="space-y-2 rounded-lg border border-slate-200 p-3 text-sm">
      <h3 id="reminders-title" className="font-semibold text-slate-800">
        {t('Cycle reminders')}
      </h3>
      <label className="flex items-start gap-3 text-slate-700">
        <input
          type="checkbox"
          role="switch"
          className="mt-0.5 h-5 w-5 shrink-0 accent-purple-700"
          checked={saving ?? user.cycleReminders}
          aria-busy={saving !== null}
          disabled={saving !== null}
          onChange={(e) => void change(e.target.checked)}
        />
        <span>{t('E-mail me when an earning cycle is ready to complete')}</span>
      </label>
    </section>
  );
}
