import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { StaffMember } from '@harvest/shared/schemas/proposals';
import { can, isRole, ROLES, type Role } from '@harvest/shared/staff';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { bidiName, fullName } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { roleLabel } from '../../../lib/role-label.ts';
import { toast } from '../../../lib/toast.ts';
import { staffQuery, useStaffChange } from '../api/staff.ts';

const roleOptions = () => ROLES.map((r) => ({ value: r, label: roleLabel(r) }));

/** The staff and their roles; owners invite members by e-mail, change a role or remove a member. */
export function StaffPanel() {
  const q = useQuery(staffQuery());
  const { user } = useAuth();
  const owner = can(user?.role, 'staff');
  const change = useStaffChange();
  const [removing, setRemoving] = useState<StaffMember | null>(null);

  async function run(p: Promise<{ message: string }>, failed: string) {
    try {
      toast.success((await p).message);
      return true;
    } catch (err) {
      toast.error(errorText(err, failed));
      return false;
    }
  }

  return (
    <div className="space-y-4">
      {owner && <InviteForm onInvite={(body) => run(change.invite.mutateAsync(body), t('Invitation failed'))} />}
      <QueryState query={q} what={t('staff')} frame={(state) => <Card title={t('Staff')}>{state}</Card>}>
        {(data) => (
          <Card title={t('Staff')}>
            <ul className="divide-y divide-slate-200">
              {data.staff.map((m) => (
                <li key={m.id} className="flex flex-wrap items-end justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="font-semibold [overflow-wrap:anywhere] text-slate-900">{bidiName(fullName(m))}</p>
                    <p className="text-sm [overflow-wrap:anywhere] text-slate-600">{m.email}</p>
                    <p className="text-xs text-slate-600">
                      {m.twoFactorEnabled ? t('Authenticator on') : t('Authenticator off')}
                    </p>
                  </div>
                  {owner && m.id !== user?.id ? (
                    <div className="flex flex-wrap items-end gap-2">
                      <SelectField
                        label={t('Role of {name}', { name: fullName(m) })}
                        options={roleOptions()}
                        value={m.role}
                        onChange={(e) => {
                          const role = e.target.value;
                          if (isRole(role))
                            void run(change.setRole.mutateAsync({ id: m.id, role }), t('Role change failed'));
                        }}
                      />
                      <Button variant="danger" onClick={() => setRemoving(m)}>
                        {t('Remove')}
                      </Button>
                    </div>
                  ) : (
                    <span className="rounded-full bg-purple-100 px-2 py-0.5 text-xs font-bold text-purple-900">
                      {roleLabel(m.role)}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </Card>
        )}
      </QueryState>
      <ConfirmDialog
        open={removing !== null}
        title={t('Remove from the staff?')}
        confirmLabel={t('Remove')}
        destructive
        busy={change.setRole.isPending}
        onConfirm={() => {
          if (removing)
            void run(change.setRole.mutateAsync({ id: removing.id, role: null }), t('Role change failed')).then(() =>
              setRemoving(null),
            );
        }}
        onCancel={() => setRemoving(null)}
      >
        {removing && (
          <p>
            {t('{name} can no longer sign in. Their past actions stay in the audit log.', {
              name: bidiName(fullName(removing)),
            })}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}

function InviteForm({
  onInvite,
}: {
  onInvite: (body: { email: string; firstName: string; lastName: string; role: Role }) => Promise<boolean>;
}) {
  const empty: { email: string; firstName: string; lastName: string; role: Role } = {
    email: '',
    firstName: '',
    lastName: '',
    role: 'support',
  };
  const [v, setV] = useState(empty);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (await onInvite(v)) setV(empty);
  }
  return (
    <Card title={t('Invite a staff member')}>
      <form onSubmit={(e) => void submit(e)} className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextInput
          label={t('Email')}
          type="email"
          required
          value={v.email}
          onChange={(e) => setV({ ...v, email: e.target.value })}
        />
        <SelectField
          label={t('Role')}
          options={roleOptions()}
          value={v.role}
          onChange={(e) => isRole(e.target.value) && setV({ ...v, role: e.target.value })}
        />
        <TextInput
          label={t('First name')}
          required
          value={v.firstName}
          onChange={(e) => setV({ ...v, firstName: e.target.value })}
        />
        <TextInput
          label={t('Last name')}
          required
          value={v.lastName}
          onChange={(e) => setV({ ...v, lastName: e.target.value })}
        />
        <div className="sm:col-span-2">
          <Button type="submit">{t('Send invitation')}</Button>
        </div>
      </form>
    </Card>
  );
}
