import type { StoredSaid } from '@harvest/shared/said';
import { useLingui } from '../../lib/i18n.tsx';
import { sayStored } from '../../lib/server-text.ts';

/** A text the server stored (a failure reason, an event's detail), said in the current language, again on a change. */
export function StoredText({ text, said }: { text: string; said: StoredSaid | null }) {
  useLingui();
  return <>{sayStored(text, said)}</>;
}
