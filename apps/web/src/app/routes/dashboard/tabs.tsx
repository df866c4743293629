import { lazy, type ComponentType } from 'react';
import { loadChunk } from '../../../lib/lazy.ts';
import type { Ability } from '@harvest/shared/staff';
import { t } from '../../../lib/i18n.tsx';

export interface TabDef {
  id: string;
  /** What a staff member's role must allow to see the tab (admin tabs; packages/shared/src/staff.ts). */
  needs?: Ability;
  /** Said when drawn, in the language on screen. */
  label: () => string;
  component: ComponentType;
}

const tab = (load: () => Promise<{ default: ComponentType }>) => lazy(loadChunk(load));

/** Investor tabs (spec section 2, plus the statement of account): dashboard is the default. */
export const INVESTOR_TABS: TabDef[] = [
  { id: 'dashboard', label: () => t('Dashboard'), component: tab(() => import('./tabs/investor-dashboard.tsx')) },
  { id: 'deposit', label: () => t('Deposit'), component: tab(() => import('./tabs/deposit.tsx')) },
  { id: 'tiers', label: () => t('Tiers'), component: tab(() => import('./tabs/tiers.tsx')) },
  { id: 'investments', label: () => t('Investments'), component: tab(() => import('./tabs/investments.tsx')) },
  { id: 'referrals', label: () => t('Referrals'), component: tab(() => import('./tabs/referrals.tsx')) },
  { id: 'statement', label: () => t('Statement'), component: tab(() => import('./tabs/statement.tsx')) },
];

/** Admin tabs (spec section 2, then the back office's own): admin overview is the default; each role sees what it may use. */
export const ADMIN_TABS: TabDef[] = [
  { id: 'admin', label: () => t('Admin'), component: tab(() => import('./tabs/admin-overview.tsx')) },
  { id: 'analytics', label: () => t('Analytics'), component: tab(() => import('./tabs/admin-analytics.tsx')) },
  { id: 'users', label: () => t('Users'), component: tab(() => import('./tabs/admin-users.tsx')) },
  { id: 'deposits', label: () => t('Deposits'), component: tab(() => import('./tabs/admin-deposits.tsx')) },
  { id: 'withdrawals', label: () => t('Withdrawals'), component: tab(() => import('./tabs/admin-withdrawals.tsx')) },
  { id: 'referrals', label: () => t('Referrals'), component: tab(() => import('./tabs/admin-referrals.tsx')) },
  { id: 'tiers-admin', label: () => t('Tiers'), component: tab(() => import('./tabs/admin-tiers.tsx')) },
  { id: 'audit', label: () => t('Audit Log'), component: tab(() => import('./tabs/admin-audit.tsx')) },
  { id: 'approvals', label: () => t('Approvals'), component: tab(() => import('./tabs/admin-approvals.tsx')) },
  { id: 'reserves', label: () => t('Proof of reserves'), component: tab(() => import('./tabs/admin-por.tsx')) },
  {
    id: 'staff',
    label: () => t('Staff'),
    needs: 'staff',
    component: tab(() => import('./tabs/admin-staff.tsx')),
  },
];
