import {
  twoFactorDisableResponse,
  twoFactorEnableResponse,
  twoFactorSetupResponse,
} from '@harvest/shared/schemas/two-factor';
import { api } from '../../../lib/api-client.ts';

export const setupTwoFactor = (password: string) =>
  api('/user/2fa/setup', twoFactorSetupResponse, { method: 'POST', body: { password } });
export const enableTwoFactor = (password: string, code: string) =>
  api('/user/2fa/enable', twoFactorEnableResponse, { method: 'POST', body: { password, code } });
export const disableTwoFactor = (password: string, code: string) =>
  api('/user/2fa/disable', twoFactorDisableResponse, {
    method: 'POST',
    body: { password, code },
  });
