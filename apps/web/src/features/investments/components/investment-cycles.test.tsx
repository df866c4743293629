import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import type { Investment } from '@harvest/shared/schemas/dashboard';
import { fail, stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { cycleState, InvestmentCycles } from './investment-cycles.tsx';

const base: Investment = {
  _id: 'inv1',
  tier: 'Bronze',
  amount: 100,
  dailyRate: 1.5,
  totalEarned: 0,
  earningStarted: false,
  earningCompleted: false,
  cycleEndTime: null,
  withdrawalApprovedAt: null,
  nextCycleAvailableAt: null,
  lastCycleDay: null,
  createdAt: '2026-01-14T08:00:00.000Z',
  cycleEarnings: [],
};
const SERVER = '2026-01-14T12:00:00.000Z';
const at = (iso: string) => Date.parse(iso);

function renderCycles(investments: Investment[], extra: { platformDay?: string; platformWeekday?: boolean } = {}) {
  return renderApp(
    <>
      <InvestmentCycles
        investments={investments}
        serverTime={SERVER}
        receivedAt={Date.now()}
        platformDay={extra.platformDay ?? '2026-01-14'}
        platformWeekday={extra.platformWeekday ?? true}
      />
    </>,
    { auth: false },
  );
}

describe('cycleState', () => {
  it('follows the spec states', () => {
    expect(cycleState(base, at(SERVER), '2026-01-14')).toEqual({ kind: 'ready' });
    const running = { ...base, earningStarted: true, cycleEndTime: '2026-01-14T16:00:00.000Z' };
    expect(cycleState(running, at(SERVER)).kind).toBe('running');
    expect(cycleState(running, at('2026-01-14T16:00:00.000Z')).kind).toBe('complete');
    const waiting = { ...base, nextCycleAvailableAt: '2026-01-15T12:00:00.000Z' };
    expect(cycleState(waiting, at(SERVER))).toEqual({ kind: 'waiting', until: at('2026-01-15T12:00:00.000Z') });
    expect(cycleState({ ...base, lastCycleDay: '2026-01-14' }, at(SERVER), '2026-01-14')).toEqual({
      kind: 'doneToday',
    });
  });
});

describe('InvestmentCycles', () => {
  it('shows a running cycle with a countdown on the server clock and a progress bar', () => {
    // The server says 12:00; the cycle ends at 16:00: 4 hours left whatever the browser clock says.
    renderCycles([
      { ...base, earningStarted: true, cycleEndTime: '2026-01-14T16:00:00.000Z', lastCycleDay: '2026-01-14' },
    ]);
    expect(screen.getByText('Earning in progress')).toBeTruthy();
    expect(screen.getByText(/^(4h 0m 0s|3h 59m 59s)$/)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Cycle progress' }).getAttribute('aria-valuenow')).toBe('50');
  });

  it('labels the start button Mon-Fri only, and New Cycle once earnings exist', () => {
    renderCycles([
      base,
      {
        ...base,
        _id: 'inv2',
        totalEarned: 1.5,
        earningCompleted: true,
        lastCycleDay: '2026-01-13',
        cycleEarnings: [{ _id: 'e1', cycleNumber: 1, grossAmount: 1.5, withdrawalRequested: false, createdAt: SERVER }],
      },
    ]);
    expect(screen.getByRole('button', { name: 'Start Earning (Mon-Fri only)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start New Cycle (Mon-Fri only)' })).toBeTruthy();
  });

  it("shows the server's refusal, or the spec fallback when there is none", async () => {
    const answers = [fail(400, TEXT.weekendComplete, 'weekday_only'), new Response('', { status: 500 })];
    const api = stubApi(() => answers.shift());
    renderCycles([{ ...base, earningStarted: true, cycleEndTime: '2026-01-14T04:00:00.000Z' }]);
    const button = screen.getByRole('button', { name: 'Complete Cycle' });
    await userEvent.click(button);
    expect(await screen.findByText(TEXT.weekendComplete)).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Complete Cycle' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Complete Cycle' }));
    expect(await screen.findByText(TEXT.completeFailed)).toBeTruthy();
    expect(api.calls[0]?.path).toBe('/user/complete-cycle');
    expect(api.calls[0]?.body).toEqual({ investmentId: 'inv1' });
  });

  it('shows the wait after an approved withdrawal with a countdown', () => {
    renderCycles([
      { ...base, withdrawalApprovedAt: '2026-01-13T12:00:00.000Z', nextCycleAvailableAt: '2026-01-15T12:00:00.000Z' },
    ]);
    expect(screen.getByText('Waiting for next cycle')).toBeTruthy();
    expect(screen.getByText(/^(24h 0m 0s|23h 59m 59s)$/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Start/ })).toBeNull();
  });

  it('on a weekend: Complete and Start are off with the reason up front, no "Ready to complete"', () => {
    renderCycles(
      [
        { ...base, _id: 'a', tier: 'Done', earningStarted: true, cycleEndTime: '2026-01-14T04:00:00.000Z' },
        { ...base, _id: 'b', tier: 'Idle' },
      ],
      { platformWeekday: false },
    );
    expect(screen.queryByText('Ready to complete')).toBeNull();
    expect(screen.getByText('Complete on Monday')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Complete Cycle' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(TEXT.weekendComplete)).toBeTruthy();
    expect((screen.getByRole('button', { name: /Start Earning/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(TEXT.weekdayStart)).toBeTruthy();
  });
});
