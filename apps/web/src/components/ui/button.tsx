import type { ButtonHTMLAttributes } from 'react';

const VARIANTS = {
  primary: 'bg-purple-700 text-white hover:bg-purple-800 disabled:bg-slate-200 disabled:text-slate-600',
  secondary:
    'bg-white text-purple-800 ring-1 ring-purple-400 hover:bg-purple-50 disabled:text-slate-600 disabled:ring-slate-300',
  /** Destructive actions are outlined, not solid: they should not be the loudest thing on the screen. */
  danger: 'bg-white text-red-700 ring-1 ring-red-400 hover:bg-red-50 disabled:text-slate-600 disabled:ring-slate-300',
  /** Money going to the person (Withdraw All, Approve): emerald-700 keeps white text above 4.5:1. */
  success: 'bg-emerald-700 text-white hover:bg-emerald-800 disabled:bg-slate-200 disabled:text-slate-600',
  ghost: 'text-purple-800 hover:bg-purple-100 disabled:text-slate-600',
} as const;

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof VARIANTS }) {
  return (
    <button
      type={type}
      className={`inline-flex min-h-10 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold [overflow-wrap:break-word] transition disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
      {...props}
    />
  );
}
