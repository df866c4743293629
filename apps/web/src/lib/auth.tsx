import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { meResponse, preferencesResponse, type PlatformInfo, type User } from '@harvest/shared/schemas/user';
import { messageResponse } from '@harvest/shared/schemas/common';
import { TEXT } from '@harvest/shared/texts';
import { can, type Ability } from '@harvest/shared/staff';
import { ApiError, api, hasCode, setBlockedHandler, setSessionEndedHandler, tokenStore } from './api-client.ts';
import { currentLocale, localeUnsaved, markLocaleUnsaved, setLocale } from './i18n.tsx';
import { setPlatformTimeZone } from './time-zone.ts';

/** Saves the person's language on their account (PUT /api/user/preferences): their e-mails follow it. */
export const saveLocale = (locale: User['locale']) =>
  api('/user/preferences', preferencesResponse, { method: 'PUT', body: { locale } });

/**
 * The account's language once signed in: the account's own, unless a language was just chosen on the sign-in or
 * signup page (the person's latest word), which is then saved on the account.
 */
async function accountLocale(user: User): Promise<User> {
  const shown = currentLocale();
  if (localeUnsaved() && shown !== user.locale) {
    const saved = await saveLocale(shown).catch(() => null);
    if (saved) {
      markLocaleUnsaved(false);
      return saved.user;
    }
    return user;
  }
  markLocaleUnsaved(false);
  // A catalogue that cannot be loaded leaves the screen as it is: the session goes on.
  if (user.locale !== shown) await setLocale(user.locale).catch(() => undefined);
  return user;
}

/** 'unreachable': a token is stored but the server could not be asked; the person stays signed in. */
type Status = 'loading' | 'anonymous' | 'authenticated' | 'blocked' | 'unreachable';
interface AuthState {
  status: Status;
  user: User | null;
  platform: PlatformInfo | null;
  /** Why the person is on the sign-in page (an ended session), shown there once. */
  notice: string | null;
  signIn(token: string, user: User): void;
  setUser(user: User): void;
  logout(): Promise<void>;
  refresh(): Promise<void>;
}

/** Exported for tests only (test/render.tsx signs a staff member in without a server). */
export const AuthContext = createContext<AuthState | null>(null);
const RETURN_KEY = 'returnTo';

/**
 * One session per browser: the token is shared by every tab (localStorage), so what ends it in one tab is told
 * to the others at once (with why), and none stays on a live screen with a dead token. A sign-in is heard through
 * the storage event instead: it fires once the new token can be read in that tab, which a message may outrun.
 */
const CHANNEL = 'harvest-farm-session';
type SessionNews = { kind: 'ended'; notice: string | null } | { kind: 'blocked' };

/** Keeps the screen the session ended on, to come back to after signing in again. */
export const rememberWhere = () =>
  sessionStorage.setItem(RETURN_KEY, `${window.location.pathname}${window.location.search}${window.location.hash}`);

/** The sign-in and sign-up pages: never a way back (a session that ended on /login would return to /login). */
const AUTH_PAGE = /^\/(login|signup)(?:[?#]|$)/;

/** Where to go after signing in: back to the screen the session ended on (read when the sign-in page opens). */
export function returnPath(): string {
  const to = sessionStorage.getItem(RETURN_KEY);
  return to && to.startsWith('/') && !to.startsWith('//') && !AUTH_PAGE.test(to) ? to : '/dashboard';
}

/** The session: token in browser storage, the current user fetched on load (spec section 4). */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>(() => (tokenStore.get() ? 'loading' : 'anonymous'));
  const [user, setUserState] = useState<User | null>(null);
  const [platform, setPlatform] = useState<PlatformInfo | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Read by the handlers the API client and the other tabs call: whether this tab shows a session now.
  const signedIn = useRef(false);
  useEffect(() => {
    signedIn.current = status !== 'anonymous' && status !== 'loading';
  }, [status]);
  const channel = useRef<BroadcastChannel | null>(null);
  const tell = useCallback((news: SessionNews) => channel.current?.postMessage(news), []);

  const endSession = useCallback(
    (message: string | null) => {
      tokenStore.clear();
      setUserState(null);
      setStatus('anonymous');
      // A second ending (the read that failed, after the API client ended it) keeps what the first one said.
      setNotice((said) => message ?? said);
      // Stops every poll: no screen keeps asking with a dead token.
      queryClient.cancelQueries();
      queryClient.clear();
    },
    [queryClient],
  );

  const refresh = useCallback(async () => {
    if (!tokenStore.get()) {
      setStatus('anonymous');
      return;
    }
    try {
      const res = await api('/user/me', meResponse);
      setPlatformTimeZone(res.platform?.timeZone);
      const account = await accountLocale(res.user);
      // The signed-in screen is built in slices that give way to input and paint (a transition), not in
      // one long task: on a slow phone that task is most of the page's blocking time.
      startTransition(() => {
        setUserState(account);
        setPlatform(res.platform ?? null);
        setStatus('authenticated');
      });
    } catch (err) {
      if (hasCode(err, 'blocked')) {
        setStatus('blocked');
        return;
      }
      // Only the server's no removes the token (spec section 4: "on failure"); a network error or a
      // server fault leaves the person signed in, with a Retry.
      if (err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404))
        endSession(hasCode(err, 'session_revoked') ? TEXT.sessionEndedElsewhere : null);
      else setStatus('unreachable');
    }
  }, [endSession]);

  useEffect(() => {
    setBlockedHandler(() => {
      setStatus('blocked');
      tell({ kind: 'blocked' });
    });
    setSessionEndedHandler((notice) => {
      if (!signedIn.current) return;
      signedIn.current = false;
      rememberWhere();
      endSession(notice);
      tell({ kind: 'ended', notice });
    });
    void refresh();
  }, [refresh, endSession, tell]);

  // What the other tabs of this browser say about the session.
  useEffect(() => {
    const ch = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
    channel.current = ch;
    if (ch)
      ch.onmessage = (e: MessageEvent<SessionNews>) => {
        const news = e.data;
        if (!signedIn.current) return;
        if (news.kind === 'blocked') setStatus('blocked');
        else {
          signedIn.current = false;
          if (news.notice) rememberWhere();
          endSession(news.notice ?? TEXT.signedOutElsewhere);
        }
      };
    const onStorage = (e: StorageEvent) => {
      if (e.key === tokenStore.key && e.newValue && !signedIn.current) void refresh();
    };
    // Back to this window: the account may have changed meanwhile (a lock change confirmed from the e-mail in
    // another tab, a freeze after "this wasn't me"), so the session's user is read again.
    const onFocus = () => {
      if (signedIn.current) void refresh();
    };
    window.addEventListener('storage', onStorage);
    window.addEventListener('focus', onFocus);
    return () => {
      ch?.close();
      channel.current = null;
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('focus', onFocus);
    };
  }, [refresh, endSession]);

  const value = useMemo<AuthState>(
    () => ({
      status,
      user,
      platform,
      notice,
      refresh,
      signIn(token, u) {
        tokenStore.set(token);
        // The way back is used once: the sign-in page read it when it opened.
        sessionStorage.removeItem(RETURN_KEY);
        setUserState(u);
        setNotice(null);
        setStatus('authenticated');
        void accountLocale(u).then(setUserState);
        // The platform settings come with the session read.
        void api('/user/me', meResponse)
          .then((res) => {
            setPlatform(res.platform ?? null);
            setPlatformTimeZone(res.platform?.timeZone);
          })
          .catch(() => undefined);
      },
      setUser: setUserState,
      async logout() {
        // Ends the token on the server too; the local sign-out happens whatever the answer.
        await api('/user/logout', messageResponse, { method: 'POST' }).catch(() => undefined);
        endSession(null);
        tell({ kind: 'ended', notice: null });
      },
    }),
    [status, user, platform, notice, refresh, endSession, tell],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** The platform settings (clock, explorer), null before the session is read or outside a session. */
export function usePlatform(): PlatformInfo | null {
  return useContext(AuthContext)?.platform ?? null;
}

/**
 * Whether the signed-in staff member's role allows `ability` (the one table, packages/shared/src/staff.ts): every
 * back-office control asks this, so a role sees only what the server would let it do. False outside a session.
 */
export function useCan(ability: Ability): boolean {
  return can(useContext(AuthContext)?.user?.role, ability);
}
