import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from '../../../lib/toast.ts';
import { MIN_PASSWORD_LENGTH } from '@harvest/shared/constants';
import { TEXT } from '@harvest/shared/texts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText, hasCode, tokenStore } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { updateEmail, updateProfile } from '../api/profile.ts';

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
    <Dialog open={open} onClose={onClose} title="Profile">
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
  const [form, setForm] = useState({
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    email: user?.email ?? '',
    emailPassword: '',
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [busy, setBusy] = useState(false);
  // Errors show in the dialog, under their field (and in a toast).
  type ErrorField =
    | 'firstName'
    | 'lastName'
    | 'email'
    | 'emailPassword'
    | 'currentPassword'
    | 'newPassword'
    | 'confirmPassword'
    | 'form';
  const [errors, setErrors] = useState<Partial<Record<ErrorField, string>>>({});
  if (!user) return null;
  const report = (field: ErrorField, text: string) => {
    setErrors({ [field]: text });
    toast.error(text);
  };
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  async function onSave(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    if (!form.firstName.trim()) return report('firstName', TEXT.firstNameRequired);
    if (!form.lastName.trim()) return report('lastName', TEXT.lastNameRequired);
    if (form.newPassword || form.confirmPassword) {
      if (form.newPassword !== form.confirmPassword) return report('confirmPassword', TEXT.newPasswordsMismatch);
      if (form.newPassword.length < MIN_PASSWORD_LENGTH) return report('newPassword', TEXT.newPasswordTooShort);
      if (!form.currentPassword) return report('currentPassword', TEXT.currentPasswordRequired);
    }
    const emailChanged = Boolean(user?.isAdmin) && form.email.trim().toLowerCase() !== user?.email;
    setBusy(true);
    try {
      // The e-mail first: its password check failing leaves the rest of the form unsaved too.
      if (emailChanged) await updateEmail({ newEmail: form.email.trim(), password: form.emailPassword });
      const res = await updateProfile({
        firstName: form.firstName,
        lastName: form.lastName,
        ...(form.newPassword
          ? {
              currentPassword: form.currentPassword,
              newPassword: form.newPassword,
              confirmPassword: form.confirmPassword,
            }
          : {}),
      });
      if (res.token) tokenStore.set(res.token);
      setUser(res.user);
      toast.success('Profile updated');
      setEditing(false);
      setForm((f) => ({ ...f, emailPassword: '', currentPassword: '', newPassword: '', confirmPassword: '' }));
    } catch (err) {
      const text = errorText(err, TEXT.profileFailed);
      if (hasCode(err, 'wrong_password'))
        report(emailChanged && !form.newPassword ? 'emailPassword' : 'currentPassword', text);
      else if (/email/i.test(text) && emailChanged) report('email', text);
      else report('form', text);
    } finally {
      setBusy(false);
    }
  }

  if (!editing) {
    return (
      <div className="space-y-4">
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="font-medium text-slate-600">Full Name</dt>
            <dd className="text-base text-slate-900">
              {user.firstName} {user.lastName}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Email</dt>
            <dd className="text-base break-all text-slate-900">{user.email}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Phone</dt>
            <dd className="text-base text-slate-900">{user.phone ?? 'Not provided'}</dd>
          </div>
        </dl>
        {security}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => setEditing(true)}>Edit Profile</Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSave} className="space-y-3" noValidate>
      <TextInput
        label="First Name"
        name="firstName"
        value={form.firstName}
        error={errors.firstName}
        onChange={set('firstName')}
      />
      <TextInput
        label="Last Name"
        name="lastName"
        value={form.lastName}
        error={errors.lastName}
        onChange={set('lastName')}
      />
      <TextInput
        label="Email"
        name="email"
        type="email"
        value={form.email}
        error={errors.email}
        onChange={set('email')}
        disabled={!user.isAdmin}
        hint={user.isAdmin ? undefined : 'Only administrators can change their email.'}
      />
      {user.isAdmin && form.email.trim().toLowerCase() !== user.email && (
        <PasswordInput
          label="Password to confirm the new email"
          name="emailPassword"
          autoComplete="current-password"
          value={form.emailPassword}
          error={errors.emailPassword}
          onChange={set('emailPassword')}
        />
      )}
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-700">Change password (optional)</legend>
        <PasswordInput
          label="Current Password"
          name="currentPassword"
          autoComplete="current-password"
          value={form.currentPassword}
          error={errors.currentPassword}
          onChange={set('currentPassword')}
        />
        <PasswordInput
          label="New Password"
          name="newPassword"
          autoComplete="new-password"
          value={form.newPassword}
          error={errors.newPassword}
          onChange={set('newPassword')}
        />
        <PasswordInput
          label="Confirm New Password"
          name="confirmNewPassword"
          autoComplete="new-password"
          value={form.confirmPassword}
          error={errors.confirmPassword}
          onChange={set('confirmPassword')}
        />
      </fieldset>
      {errors.form && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {errors.form}
        </p>
      )}
      <div className="flex justify-end gap-2 pt-2">
        <Button variant="secondary" onClick={() => setEditing(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
