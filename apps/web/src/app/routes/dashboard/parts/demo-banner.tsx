/** Demo mode (no chain configured): nothing sent to the address is real, an administrator confirms deposits. */
export function DemoBanner({ admin }: { admin: boolean }) {
  return (
    <div
      role="note"
      aria-label="Demo mode"
      className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <strong>Demo mode.</strong>{' '}
      {admin
        ? 'No blockchain is connected: deposits are demo deposits, confirmed by hand on the Deposits tab.'
        : 'Send nothing real: no blockchain is connected, the deposit address is a placeholder, and an administrator confirms each deposit by hand.'}
    </div>
  );
}
