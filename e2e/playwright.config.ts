import { defineConfig } from '@playwright/test';

/** Browser journeys in Debian's Chromium (test tools cannot download browsers here). */
export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // Each file starts its own server on its own data directory: in CI three files run at once (two left the two
  // cores a fifth idle while journeys waited on their servers; decision 0087).
  workers: process.env.CI ? 3 : 1,
  retries: 0,
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 900 },
    // A trace records every action's DOM snapshot: a quarter of the suite's processor time. CI keeps the failure's
    // screenshot and error context; run the failing file locally for its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
