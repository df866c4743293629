import type { ReactNode } from 'react';

export function Card({
  title,
  children,
  actions,
  className = '',
}: {
  title?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <section className={`rounded-2xl bg-white/95 p-5 shadow-lg ${className}`}>
      {(title || actions) && (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title && <h2 className="text-lg font-bold text-slate-900">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

export function StatCard({
  label,
  value,
  tone = 'purple',
  className = '',
  title,
}: {
  label: string;
  value: ReactNode;
  /** The whole figure where the card shows it shortened. */
  title?: string;
  tone?: 'purple' | 'emerald' | 'amber' | 'sky' | 'rose';
  className?: string;
}) {
  // One accent colour: the card's figure is the one emphasis; red is for money going out and errors only.
  const tones = {
    purple: 'text-purple-800',
    emerald: 'text-slate-900',
    amber: 'text-slate-900',
    sky: 'text-slate-900',
    rose: 'text-red-700',
  };
  // A figure is one unbreakable line ("2,499,900.5000 USDC": an amount never breaks from its unit). A long one
  // is set smaller to fit its card: about 0.65 em a character, so at most 150 / length % of the card's width.
  const fit =
    typeof value === 'string'
      ? { fontSize: `min(1.5rem, ${(150 / Math.max(value.length, 1)).toFixed(2)}cqi)` }
      : undefined;
  return (
    <div className={`@container min-w-0 rounded-2xl bg-white/95 p-4 shadow-lg ${className}`}>
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <div
        className={`mt-1 text-2xl font-bold ${fit ? 'whitespace-nowrap' : ''} ${tones[tone]}`}
        style={fit}
        title={title}
      >
        {value}
      </div>
    </div>
  );
}
