import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startEarningResponse } from '@harvest/shared/schemas/investments';
import { api } from '../../../lib/api-client.ts';

export const startEarning = (investmentId: string) =>
  api('/user/start-earning', startEarningResponse, { method: 'POST', body: { investmentId } });

export function useStartEarning() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: startEarning, onSettled: () => queryClient.invalidateQueries() });
}
