import { lazy, type ComponentType } from 'react';
import { loadChunk } from '../../../lib/lazy.ts';

export interface TabDef {
  id: string;
  label: string;
  component: ComponentType;
}

const tab = (load: () => Promise<{ default: ComponentType }>) => lazy(loadChunk(load));

/** Investor tabs (spec section 2, and the statement of issue 41): dashboard is the default. */
export const INVESTOR_TABS: TabDef[] = [
  { id: 'dashboard', label: 'Dashboard', component: tab(() => import('./tabs/investor-dashboard.tsx')) },
  { id: 'deposit', label: 'Deposit', component: tab(() => import('./tabs/deposit.tsx')) },
  { id: 'tiers', label: 'Tiers', component: tab(() => import('./tabs/tiers.tsx')) },
  { id: 'investments', label: 'Investments', component: tab(() => import('./tabs/investments.tsx')) },
  { id: 'referrals', label: 'Referrals', component: tab(() => import('./tabs/referrals.tsx')) },
  { id: 'statement', label: 'Statement', component: tab(() => import('./tabs/statement.tsx')) },
];

/** Admin tabs (spec section 2): admin overview is the default. */
export const ADMIN_TABS: TabDef[] = [
  { id: 'admin', label: 'Admin', component: tab(() => import('./tabs/admin-overview.tsx')) },
  { id: 'analytics', label: 'Analytics', component: tab(() => import('./tabs/admin-analytics.tsx')) },
  { id: 'users', label: 'Users', component: tab(() => import('./tabs/admin-users.tsx')) },
  { id: 'deposits', label: 'Deposits', component: tab(() => import('./tabs/admin-deposits.tsx')) },
  { id: 'withdrawals', label: 'Withdrawals', component: tab(() => import('./tabs/admin-withdrawals.tsx')) },
  { id: 'referrals', label: 'Referrals', component: tab(() => import('./tabs/admin-referrals.tsx')) },
  { id: 'tiers-admin', label: 'Tiers', component: tab(() => import('./tabs/admin-tiers.tsx')) },
  { id: 'audit', label: 'Audit Log', component: tab(() => import('./tabs/admin-audit.tsx')) },
];
