import { afterEach, describe, expect, it } from 'vitest';
import { returnPath } from './auth.tsx';

afterEach(() => sessionStorage.clear());

describe('returnPath', () => {
  it('returns to the screen the session ended on', () => {
    sessionStorage.setItem('returnTo', '/dashboard?tab=investments');
    expect(returnPath()).toBe('/dashboard?tab=investments');
  });

  it('never to the sign-in or sign-up page itself (a token that expired while on /login), nor off-site', () => {
    for (const to of ['/login', '/login?x=1', '/signup?code=ABC', '//evil.example', 'https://evil.example']) {
      sessionStorage.setItem('returnTo', to);
      expect(returnPath(), to).toBe('/dashboard');
    }
    sessionStorage.clear();
    expect(returnPath()).toBe('/dashboard');
  });
});
