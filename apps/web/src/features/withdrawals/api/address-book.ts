import { queryOptions } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import {
  addWithdrawalAddressResponse,
  withdrawalAddressesResponse,
  withdrawalLockResponse,
  type AddWithdrawalAddressInput,
} from '@harvest/shared/schemas/security';
import type { Assertion } from '@harvest/shared/schemas/passkeys';
import { api } from '../../../lib/api-client.ts';
import type { PageAt } from '../../../lib/paging.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Rows per page of the address book in Profile; Withdraw All's choice reads the largest page the server gives. */
export const ADDRESS_PAGE_SIZE = 10;
export const ADDRESS_CHOICE_SIZE = 50;

export const addressesQuery = ({ page }: PageAt, pageSize = ADDRESS_PAGE_SIZE) =>
  queryOptions({
    queryKey: queryKeys.account.addresses(page, pageSize),
    queryFn: () => api(`/user/withdrawal-addresses?page=${page}&pageSize=${pageSize}`, withdrawalAddressesResponse),
  });

export const addAddress = (body: AddWithdrawalAddressInput) =>
  api('/user/withdrawal-addresses', addWithdrawalAddressResponse, { method: 'POST', body });
export const removeAddress = (id: string) =>
  api(`/user/withdrawal-addresses/${id}`, messageResponse, { method: 'DELETE' });
export const confirmAddress = (token: string) =>
  api('/user/withdrawal-addresses/confirm', addWithdrawalAddressResponse, { method: 'POST', body: { token } });
export const setLock = (enabled: boolean, password?: string, passkey?: Assertion) =>
  api('/user/withdrawal-lock', withdrawalLockResponse, {
    method: 'PUT',
    body: { enabled, ...(password ? { password } : {}), ...(passkey ? { passkey } : {}) },
  });
export const confirmLockOff = (token: string) =>
  api('/user/withdrawal-lock/confirm', withdrawalLockResponse, { method: 'POST', body: { token } });
