const KEY = 'deviceId';

/**
 * A random id this browser keeps for itself (never a secret, never the token): the server compares it with the
 * account's known devices, so a sign-in from any other browser is a new device and the owner is e-mailed.
 */
export function deviceId(): string | undefined {
  try {
    let id = localStorage.getItem(KEY);
    if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
      const bytes = crypto.getRandomValues(new Uint8Array(18));
      id = btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      localStorage.setItem(KEY, id);
    }
    return id;
  } catch {
    return undefined;
  }
}
