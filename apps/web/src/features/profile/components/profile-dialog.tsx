import { useState, type ReactNode } from 'react';
import { toast } from '../../../lib/toast.ts';
import { profileBody } from '@harvest/shared/schemas/user';
import { TEXT } from '@harvest/shared/texts';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText, hasCode, isAbout, tokenStore } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { firstError, useFailure, useZodForm } from '../../../lib/form.ts';
import { updateEmail, updateProfile } from '../api/profile.ts';
import { Email } from '../../../components/ui/email.tsx';
import { t } from '../../../lib/i18n.tsx';
import { CycleRemindersSwitch } from './cycle-reminders-switch.tsx';

interface ProfileValues {
  firstName: string;
  lastName: string;
  email: string;
  emailPassword: string;
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
  totpCode: string;
}

/**
 * The profile request the form makes: the password trio only when a new password is being set, with the
 * authenticator code when it is on (a password change never asks for less than the sign-in).
 */
const profileInput = (v: ProfileValues) => ({
  firstName: v.firstName,
  lastName: v.lastName,
  ...(v.newPassword || v.confirmPassword
    ? {
        currentPassword: v.currentPassword,
        newPassword: v.newPassword,
        confirmPassword: v.confirmPassword,
        ...(v.totpCode.trim() ? { totpCode: v.totpCode.trim() } : {}),
      }
    : {}),
});

/** `security` is composed in by the app layer (e.g. the two-factor section) and shown in the read view. */
export function ProfileDialog({
  open,
  onClose,
  startInEdit,
  security,
}: {
  open: boolean;
  onClose: () => void;
  startInEdit: boolean;
  security?: ReactNode;
}) {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <Dialog open={open} onClose={onClose} title={t('Profile')} wide>
      <ProfileBody key={String(open)} startInEdit={startInEdit} onClose={onClose} security={security} />
    </Dialog>
  );
}

function ProfileBody({
  startInEdit,
  onClose,
  security,
}: {
  startInEdit: boolean;
  onClose: () => void;
  security?: ReactNode;
}) {
  const { user, setUser } = useAuth();
  const [editing, setEditing] = useState(startInEdit);
  const form = useZodForm<ProfileValues>(
    profileBody,
    {
      defaultValues: {
        firstName: user?.firstName ?? '',
        lastName: user?.lastName ?? '',
        email: user?.email ?? '',
        emailPassword: '',
        currentPassword: '',
        newPassword: '',
        confirmPassword: '',
        totpCode: '',
      },
    },
    { toInput: profileInput },
  );
  const errors = form.formState.errors;
  const failure = useFailure();
  const email = form.watch('email');
  if (!user) return null;
  // Errors show in the dialog, under their field (and in a toast).
  const report = (field: keyof ProfileValues, err: unknown, fallback: string) => {
    form.fail(field, err, fallback);
    toast.error(errorText(err, fallback));
  };

  async function onSave(v: ProfileValues) {
    failure.clear();
    if (v.confirmPassword && !v.newPassword) return report('confirmPassword', null, TEXT.newPasswordsMismatch);
    const emailChanged = Boolean(user?.isAdmin) && v.email.trim().toLowerCase() !== user?.email;
    try {
      // The e-mail first: its password check failing leaves the rest of the form unsaved too.
      if (emailChanged) await updateEmail({ newEmail: v.email.trim(), password: v.emailPassword });
      const res = await updateProfile(profileInput(v));
      if (res.token) tokenStore.set(res.token);
      setUser(res.user);
      toast.success(t('Profile updated'));
      setEditing(false);
      form.reset({ ...v, emailPassword: '', currentPassword: '', newPassword: '', confirmPassword: '', totpCode: '' });
    } catch (err) {
      const fallback = TEXT.profileFailed;
      if (hasCode(err, 'wrong_password'))
        report(emailChanged && !v.newPassword ? 'emailPassword' : 'currentPassword', err, fallback);
      else if (hasCode(err, 'two_factor_required') || hasCode(err, 'two_factor_invalid'))
        report('totpCode', err, fallback);
      else if (emailChanged && isAbout(err, 'newEmail')) report('email', err, fallback);
      else {
        failure.set(err, fallback);
        toast.error(errorText(err, fallback));
      }
    }
  }

  if (!editing) {
    return (
      <div className="space-y-4">
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="font-medium text-slate-600">{t('Full Name')}</dt>
            <dd className="text-base text-slate-900">
              {user.firstName} {user.lastName}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">{t('Email')}</dt>
            <dd className="text-base text-slate-900">
              <Email address={user.email} />
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">{t('Phone')}</dt>
            <dd className="text-base text-slate-900">{user.phone ?? t('Not provided')}</dd>
          </div>
        </dl>
        {!user.isAdmin && user.fourEyes && (
          <p className="mt-3 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
            {t('Changes to your money need two staff members')}
          </p>
        )}
        {!user.isAdmin && <CycleRemindersSwitch />}
        {security}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('Close')}
          </Button>
          <Button onClick={() => setEditing(true)}>{t('Edit Profile')}</Button>
        </div>
      </div>
    );
  }

  return (
    <form
      onSubmit={form.handleSubmit(onSave, (errs) => toast.error(firstError(errs) ?? TEXT.profileFailed))}
      className="space-y-3"
      noValidate
    >
      <TextInput
        label={t('First Name')}
        maxLength={MAX_LENGTH.name}
        error={errors.firstName?.message}
        {...form.register('firstName')}
      />
      <TextInput
        label={t('Last Name')}
        maxLength={MAX_LENGTH.name}
        error={errors.lastName?.message}
        {...form.register('lastName')}
      />
      <TextInput
        label={t('Email')}
        type="email"
        maxLength={MAX_LENGTH.email}
        error={errors.email?.message}
        {...form.register('email')}
        disabled={!user.isAdmin}
        hint={user.isAdmin ? undefined : t('Only administrators can change their email.')}
      />
      {user.isAdmin && email.trim().toLowerCase() !== user.email && (
        <PasswordInput
          label={t('Password to confirm the new email')}
          autoComplete="current-password"
          maxLength={MAX_LENGTH.password}
          error={errors.emailPassword?.message}
          {...form.register('emailPassword')}
        />
      )}
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-700">{t('Change password (optional)')}</legend>
        <PasswordInput
          label={t('Current Password')}
          autoComplete="current-password"
          maxLength={MAX_LENGTH.password}
          error={errors.currentPassword?.message}
          {...form.register('currentPassword')}
        />
        <PasswordInput
          label={t('New Password')}
          autoComplete="new-password"
          maxLength={MAX_LENGTH.password}
          error={errors.newPassword?.message}
          {...form.register('newPassword')}
        />
        <PasswordInput
          label={t('Confirm New Password')}
          autoComplete="new-password"
          maxLength={MAX_LENGTH.password}
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
        {user.twoFactorEnabled && (
          <TextInput
            label={t('Authentication or recovery code')}
            autoComplete="one-time-code"
            maxLength={MAX_LENGTH.authCode}
            error={errors.totpCode?.message}
            {...form.register('totpCode')}
          />
        )}
      </fieldset>
      {failure.text && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {failure.text}
        </p>
      )}
      <div className="flex justify-end gap-2 pt-2">
        <Button variant="secondary" onClick={() => setEditing(false)}>
          {t('Cancel')}
        </Button>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? t('Saving...') : t('Save Changes')}
        </Button>
      </div>
    </form>
  );
}
