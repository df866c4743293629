import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { TEXT } from '@harvest/shared/texts';
import { updateUserBalanceBody } from '@harvest/shared/schemas/deposits';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useUpdateUserBalance } from '../api/update-user-balance.ts';

/**
 * Admin users' Update Balance form: sets the user's balance to the exact amount, with an
 * optional note. Failures show in a browser alert, as the spec says.
 */
export function UpdateBalanceForm({ userId, onDone }: { userId: string; onDone?: () => void }) {
  const [newBalance, setNewBalance] = useState('');
  const [note, setNote] = useState('');
  const update = useUpdateUserBalance();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = { userId, newBalance, ...(note.trim() ? { note } : {}) };
    const checked = updateUserBalanceBody.safeParse(body);
    if (!checked.success) return void window.alert(checked.error.issues[0]?.message ?? TEXT.balanceUpdateFailed);
    try {
      const res = await update.mutateAsync(body);
      toast.success(res.message);
      setNewBalance('');
      setNote('');
      onDone?.();
    } catch (err) {
      window.alert(errorText(err, TEXT.balanceUpdateFailed));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Update balance">
      <TextInput
        label="New Balance (USDC)"
        name="newBalance"
        type="number"
        inputMode="decimal"
        min="0"
        step="any"
        placeholder="0.00"
        value={newBalance}
        onChange={(e) => setNewBalance(e.target.value)}
      />
      <TextInput
        label="Note (optional)"
        name="note"
        maxLength={500}
        placeholder="Admin balance update"
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <Button type="submit" disabled={update.isPending}>
        {update.isPending ? 'Updating...' : 'Update Balance'}
      </Button>
    </form>
  );
}
