import type { Statement, StatementMovement } from '@harvest/shared/schemas/statements';
import { statementTexts } from '@harvest/shared/statement-texts';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { dateTime, ltr, shortHash, usdcNumber } from '../../../lib/format.ts';
import { rich, t } from '../../../lib/i18n.tsx';
import { ChainValue, isTxHash } from '../../../components/ui/chain-value.tsx';

/** A movement's amount with its sign: money in is "+", money out "-" (the formatter's); in a right-to-left page the
 * sign stays with its number. */
const signed = (v: number) => (v > 0 ? ltr(`+${usdcNumber(v)}`) : usdcNumber(v));
const amountTone = (v: number) => (v > 0 ? 'text-emerald-800' : 'text-slate-900');

/**
 * A statement on screen: the period's four figures (opening + in - out = closing), what the balance covers, and
 * the movements between the opening and closing lines. A table from md up; on a phone each movement is a card, so
 * nothing pushes the page sideways (a description or a hash wraps).
 */
export function StatementView({ statement: s, actions }: { statement: Statement; actions?: ReactNode }) {
  const st = statementTexts(t);
  const c = st.columns;
  const figures: [string, string][] = [
    [st.openingBalance, usdcNumber(s.openingBalance, 'balance')],
    [st.moneyIn, usdcNumber(s.moneyIn)],
    [st.moneyOut, usdcNumber(s.moneyOut)],
    [st.closingBalance, usdcNumber(s.closingBalance, 'balance')],
  ];
  const range = st.periodRange(ltr(s.from), ltr(s.to));
  // Each day stays whole on its line and reads left to right, in a right-to-left page too.
  const day = (text: string) => (
    <span dir="ltr" className="whitespace-nowrap">
      {text}
    </span>
  );
  return (
    <Card title={rich(st.periodRange(`<0>${s.from}</0>`, `<1>${s.to}</1>`), [day, day])} actions={actions}>
      <p className="-mt-2 mb-3 text-sm text-slate-600">
        {s.investor.name} · <span className="[overflow-wrap:anywhere]">{s.investor.email}</span> · {st.timeZone}:{' '}
        {s.timeZone}
      </p>
      <dl className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4">
        {figures.map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-3 rounded-lg bg-slate-50 p-3 sm:block">
            <dt className="text-xs text-slate-600">{t('{label} (USDC)', { label })}</dt>
            <dd className="font-semibold whitespace-nowrap text-slate-900 sm:mt-1 sm:text-lg">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600">{st.scope}</p>
      <h3 className="mt-5 mb-2 text-base font-bold text-slate-900">{st.screen.movements(s.movements.length)}</h3>

      <table className="hidden w-full text-sm md:table">
        <caption className="sr-only">{t('{title}, {range}', { title: st.title, range })}</caption>
        <thead>
          <tr className="border-b border-slate-300 text-start text-xs text-slate-600">
            <th scope="col" className="py-2 pe-3 font-semibold">
              {c.date}
            </th>
            <th scope="col" className="py-2 pe-3 font-semibold">
              {c.description}
            </th>
            <th scope="col" className="py-2 pe-3 font-semibold">
              {c.reference}
            </th>
            <th scope="col" className="py-2 pe-3 text-end font-semibold">
              {c.amount}
            </th>
            <th scope="col" className="py-2 text-end font-semibold">
              {c.balance}
            </th>
          </tr>
        </thead>
        <tbody>
          <BalanceRow date={s.from} label={st.openingBalance} value={s.openingBalance} />
          {s.movements.map((m, i) => (
            <tr key={i} className="border-b border-slate-100 align-top">
              <td className="py-2 pe-3 whitespace-nowrap text-slate-700">{dateTime(m.at)}</td>
              <td className="py-2 pe-3 text-slate-900 [overflow-wrap:anywhere]">{m.description}</td>
              <td className="py-2 pe-3 text-xs whitespace-nowrap text-slate-600">
                <Reference value={m.reference} />
              </td>
              <td className={`py-2 pe-3 text-end font-semibold whitespace-nowrap ${amountTone(m.amount)}`}>
                {signed(m.amount)}
              </td>
              <td className="py-2 text-end whitespace-nowrap text-slate-700">{usdcNumber(m.balance, 'balance')}</td>
            </tr>
          ))}
          {s.movements.length === 0 && (
            <tr>
              <td colSpan={5} className="py-3 text-slate-600">
                {st.noMovements}
              </td>
            </tr>
          )}
          <BalanceRow date={s.to} label={st.closingBalance} value={s.closingBalance} />
        </tbody>
      </table>

      <ol
        className="divide-y divide-slate-200 md:hidden"
        aria-label={t('{title}, {range}', { title: st.title, range })}
      >
        <BalanceItem date={s.from} label={st.openingBalance} value={s.openingBalance} />
        {s.movements.map((m, i) => (
          <MovementItem key={i} m={m} />
        ))}
        {s.movements.length === 0 && <li className="py-3 text-sm text-slate-600">{st.noMovements}</li>}
        <BalanceItem date={s.to} label={st.closingBalance} value={s.closingBalance} />
      </ol>
    </Card>
  );
}

/** A deposit's or payout's transaction hash (copied, linked); else the id of the record that caused the movement. */
function Reference({ value }: { value: string }) {
  return isTxHash(value) ? (
    <ChainValue kind="tx" value={value} />
  ) : (
    <span className="font-mono break-all" title={value}>
      {shortHash(value)}
    </span>
  );
}

function BalanceRow({ date, label, value }: { date: string; label: string; value: number }) {
  return (
    <tr className="border-b border-slate-200 bg-slate-50 font-semibold text-slate-900">
      <td className="py-2 pe-3 ps-1 whitespace-nowrap">{ltr(date)}</td>
      <th scope="row" colSpan={3} className="py-2 pe-3 text-start">
        {label}
      </th>
      <td className="py-2 pe-1 text-end whitespace-nowrap">{usdcNumber(value, 'balance')}</td>
    </tr>
  );
}

function BalanceItem({ date, label, value }: { date: string; label: string; value: number }) {
  return (
    <li className="flex items-baseline justify-between gap-3 bg-slate-50 px-2 py-2 text-sm font-semibold text-slate-900">
      <span>
        {label} <span className="font-normal whitespace-nowrap text-slate-600">· {ltr(date)}</span>
      </span>
      <span className="whitespace-nowrap">{usdcNumber(value, 'balance')}</span>
    </li>
  );
}

function MovementItem({ m }: { m: StatementMovement }) {
  const c = statementTexts(t).columns;
  return (
    <li className="py-2 text-sm">
      <div className="flex items-baseline justify-between gap-3">
        <p className="min-w-0 text-slate-900 [overflow-wrap:anywhere]">{m.description}</p>
        <p className={`font-semibold whitespace-nowrap ${amountTone(m.amount)}`}>{signed(m.amount)}</p>
      </div>
      <div className="mt-0.5 flex flex-wrap items-baseline justify-between gap-x-3 text-xs text-slate-600">
        <p>
          {dateTime(m.at)} · <Reference value={m.reference} />
        </p>
        <p className="whitespace-nowrap">
          {c.balance}: {usdcNumber(m.balance, 'balance')}
        </p>
      </div>
    </li>
  );
}
