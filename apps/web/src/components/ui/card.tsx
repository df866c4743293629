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
}: {
  label: string;
  value: ReactNode;
  tone?: 'purple' | 'emerald' | 'amber' | 'sky' | 'rose';
}) {
  const tones = {
    purple: 'text-purple-700',
    emerald: 'text-emerald-700',
    amber: 'text-amber-700',
    sky: 'text-sky-700',
    rose: 'text-rose-700',
  };
  return (
    <div className="rounded-2xl bg-white/95 p-4 shadow-lg">
      <p className="text-sm font-medium text-slate-500">{label}</p>
      <p className={`mt-1 text-2xl font-bold break-all ${tones[tone]}`}>{value}</p>
    </div>
  );
}
