import { describe, expect, it } from 'vitest';
import { UNKNOWN_DEVICE } from '@harvest/shared/security-texts';
import { deviceName } from './device.ts';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

describe('deviceName: only what bowser recognised, from its own lists', () => {
  it('common browsers read as before', () => {
    expect(deviceName(CHROME_LINUX)).toBe('Chrome 140 on Linux');
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe(
      'Firefox 133 on Windows 10',
    );
    expect(
      deviceName(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      ),
    ).toBe('Safari 17 on macOS Sonoma');
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari 17 on iPhone');
    expect(
      deviceName(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome 140 on Android 14');
    expect(
      deviceName(`${CHROME_LINUX.replace('X11; Linux x86_64', 'Windows NT 10.0; Win64; x64')} Edg/140.0.0.0`),
    ).toBe('Microsoft Edge 140 on Windows 10');
  });

  it('an agent bowser does not know (curl, a script) or none at all is "Unknown device"', () => {
    for (const ua of ['curl/8.5.0', 'python-requests/2.31.0', 'PostmanRuntime/7.36.0', '', '   ', undefined])
      expect(deviceName(ua), String(ua)).toBe(UNKNOWN_DEVICE);
  });

  it('a link in the agent never reaches the e-mail: not as a name, a version or a model', () => {
    const link = `https://evil.example/claim-${'x'.repeat(33)}`; // 60 characters
    const agents = [
      'Visit-https://evil.example/claim',
      link,
      `Claim/1.0 (${link})`, // bowser's own fallback would name the browser "Claim"
      `Mozilla/5.0 (${link}) AppleWebKit/537.36 Safari/537.36`,
      `Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/133.0.evil.example`,
      `Mozilla/5.0 (Nokia 3310.evil.example) Mobile`,
    ];
    const names = agents.map(deviceName);
    expect(names).toEqual([UNKNOWN_DEVICE, UNKNOWN_DEVICE, UNKNOWN_DEVICE, 'Safari', 'Firefox 133 on Linux', '3310']);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9 ]+$/);
  });
});
