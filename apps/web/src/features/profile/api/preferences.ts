import { preferencesResponse } from '@harvest/shared/schemas/user';
import { api } from '../../../lib/api-client.ts';

/** Turns the ready-to-complete e-mails on or off (PUT /api/user/preferences). */
export const saveCycleReminders = (cycleReminders: boolean) =>
  api('/user/preferences', preferencesResponse, { method: 'PUT', body: { cycleReminders } });
