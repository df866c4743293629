import { useMutation, useQueryClient } from '@tanstack/react-query';
import { completeCycleResponse } from '@harvest/shared/schemas/investments';
import { api } from '../../../lib/api-client.ts';

export const completeCycle = (investmentId: string) =>
  api('/user/complete-cycle', completeCycleResponse, { method: 'POST', body: { investmentId } });

export function useCompleteCycle() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: completeCycle, onSettled: () => queryClient.invalidateQueries() });
}
