import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { TEXT } from '@harvest/shared/texts';
import { statementTexts } from '@harvest/shared/statement-texts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { statementQuery, type Period } from '../api/statement.ts';
import { periodError } from '../lib/period.ts';
import { DownloadButtons } from './download-buttons.tsx';
import { choiceFor, currentMonthChoice, PeriodFields, periodOf, type PeriodChoice } from './period-fields.tsx';
import { StatementView } from './statement-view.tsx';
import { t } from '../../../lib/i18n.tsx';

const PATH = '/user/statement';

/**
 * Dashboard -> Statement: the current month at once (the server's, in the platform's calendar); another month or
 * custom dates on request; CSV and PDF of the period on screen.
 */
export function StatementPanel() {
  const st = statementTexts(t);
  const [picked, setChoice] = useState<PeriodChoice | null>(null);
  const [period, setPeriod] = useState<Period | null>(null);
  const [error, setError] = useState<string | null>(null);
  const q = useQuery(statementQuery(PATH, period));
  // Until the person picks, the fields show the period the server answered for.
  const choice = picked ?? (q.data ? choiceFor(q.data) : currentMonthChoice());

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const p = periodOf(choice);
    const err = periodError(p);
    setError(err);
    if (!err) setPeriod(p);
  };

  return (
    <div className="space-y-4">
      <Card title={st.title}>
        <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
          <div className="min-w-0 flex-1">
            <PeriodFields value={choice} onChange={setChoice} error={error} />
          </div>
          <Button type="submit">{st.screen.show}</Button>
        </form>
      </Card>
      <QueryState
        query={q}
        what={t('your statement')}
        fallback={TEXT.statementFailed}
        lines={5}
        frame={(state) => <Card>{state}</Card>}
      >
        {(data) => <StatementView statement={data} actions={<DownloadButtons path={PATH} period={data} />} />}
      </QueryState>
    </div>
  );
}
