import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { meResponse, type User } from '@harvest/shared/schemas/user';
import { messageResponse } from '@harvest/shared/schemas/common';
import { api, hasCode, setBlockedHandler, tokenStore } from './api-client.ts';

type Status = 'loading' | 'anonymous' | 'authenticated' | 'blocked';
interface AuthState {
  status: Status;
  user: User | null;
  signIn(token: string, user: User): void;
  setUser(user: User): void;
  logout(): Promise<void>;
  refresh(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

/** The session: token in browser storage, the current user fetched on load (spec section 4). */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>(() => (tokenStore.get() ? 'loading' : 'anonymous'));
  const [user, setUserState] = useState<User | null>(null);

  const refresh = useCallback(async () => {
    if (!tokenStore.get()) {
      setStatus('anonymous');
      return;
    }
    try {
      const res = await api('/user/me', meResponse);
      setUserState(res.user);
      setStatus('authenticated');
    } catch (err) {
      if (hasCode(err, 'blocked')) {
        setStatus('blocked');
        return;
      }
      // Any other failed session check removes the token.
      tokenStore.clear();
      setUserState(null);
      setStatus('anonymous');
    }
  }, []);

  useEffect(() => {
    setBlockedHandler(() => setStatus('blocked'));
    void refresh();
  }, [refresh]);

  const value = useMemo<AuthState>(
    () => ({
      status,
      user,
      refresh,
      signIn(token, u) {
        tokenStore.set(token);
        setUserState(u);
        setStatus('authenticated');
      },
      setUser: setUserState,
      async logout() {
        // Ends the token on the server too; the local sign-out happens whatever the answer.
        await api('/user/logout', messageResponse, { method: 'POST' }).catch(() => undefined);
        tokenStore.clear();
        setUserState(null);
        setStatus('anonymous');
        queryClient.clear();
      },
    }),
    [status, user, refresh, queryClient],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
