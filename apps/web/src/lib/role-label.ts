import { t } from './i18n.tsx';

/** A staff role's name on screen. */
export function roleLabel(role: string): string {
  switch (role) {
    case 'owner':
      return t('Owner');
    case 'finance':
      return t('Finance');
    case 'support':
      return t('Support');
    case 'auditor':
      return t('Auditor');
    default:
      return role;
  }
}
