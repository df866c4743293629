import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import { MIN_PASSWORD_LENGTH } from '@harvest/shared/constants';
import { TEXT } from '@harvest/shared/texts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText, tokenStore } from '../../../lib/api-client.ts';
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
  if (!user) return null;
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  async function onSave(e: FormEvent) {
    e.preventDefault();
    if (form.newPassword || form.confirmPassword) {
      if (form.newPassword !== form.confirmPassword) return void toast.error(TEXT.newPasswordsMismatch);
      if (form.newPassword.length < MIN_PASSWORD_LENGTH) return void toast.error(TEXT.newPasswordTooShort);
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
      toast.error(errorText(err, TEXT.profileFailed));
    } finally {
      setBusy(false);
    }
  }

  if (!editing) {
    return (
      <div className="space-y-4">
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="font-medium text-slate-500">Full Name</dt>
            <dd className="text-base text-slate-900">
              {user.firstName} {user.lastName}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-500">Email</dt>
            <dd className="text-base break-all text-slate-900">{user.email}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-500">Phone</dt>
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
      <TextInput label="First Name" name="firstName" value={form.firstName} onChange={set('firstName')} />
      <TextInput label="Last Name" name="lastName" value={form.lastName} onChange={set('lastName')} />
      <TextInput
        label="Email"
        name="email"
        type="email"
        value={form.email}
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
          onChange={set('currentPassword')}
        />
        <PasswordInput
          label="New Password"
          name="newPassword"
          autoComplete="new-password"
          value={form.newPassword}
          onChange={set('newPassword')}
        />
        <PasswordInput
          label="Confirm New Password"
          name="confirmNewPassword"
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={set('confirmPassword')}
        />
      </fieldset>
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
