import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the screenshots of every screen go (git-ignored), for a person to open and look at. */
export const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');
/** CI asserts what look() checks but saves no pictures nobody opens (a sixth of the suite's processor time). */
const SAVE_SCREENSHOTS = !process.env.CI || process.env.SCREENSHOTS === '1';
export const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 812 } } as const;

/**
 * Resolves once the page has painted two more frames: what a state change or a resize set off (a re-render, a
 * ResizeObserver callback, a toast mounting) has reached the screen. A condition, not a fixed wait.
 */
export async function framesPainted(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Looks at the screen as it is, at 1280 px and at 375 px: axe-core finds no violation of any impact
 * (WCAG 2.x A and AA plus best practices), the page is no wider than the window, and a full-page screenshot is saved for each width, named
 * `<name>-1280.png` / `<name>-375.png` (outside CI, or with SCREENSHOTS=1). The viewport is put back afterwards. With `toast`, that toast must be
 * on screen at both widths (an error or toast state).
 */
export async function look(page: Page, name: string, opts: { toast?: string } = {}): Promise<void> {
  if (SAVE_SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize();
  // Every toast on screen (the one under test, or one a click just raised) stays still while both widths are
  // checked: after its entrance animation (half faded in, axe measures its contrast wrong; and the library
  // restarts the timer when it ends), with its timer paused, as react-toastify does while the window is blurred
  // (pauseOnFocusLoss). So it is part of the axe run and of both screenshots. The page itself watches, frame by
  // frame, and blurs from the moment no toast is entering or leaving until every timer shows paused: a wait from
  // here polls up to a second apart, long enough on a slow machine for a 3-second toast to run out.
  const toasts = page.locator('.Toastify__toast');
  if (opts.toast) await expect(toasts.filter({ hasText: opts.toast })).toHaveCount(1);
  const held = (await toasts.count()) > 0;
  if (held)
    await page.waitForFunction(
      () => {
        const all = [...document.querySelectorAll('.Toastify__toast')];
        if (all.some((t) => /-(enter|exit)/.test(t.className))) return false;
        // The library started each timer as its entrance ended (before it dropped the class): this comes after.
        window.dispatchEvent(new Event('blur'));
        const timers = [...document.querySelectorAll<HTMLElement>('.Toastify__progress-bar--animated')];
        return timers.every((bar) => bar.style.animationPlayState === 'paused');
      },
      undefined,
      { polling: 'raf' },
    );
  try {
    for (const [, size] of Object.entries(WIDTHS)) {
      await page.setViewportSize(size);
      if (opts.toast) await expect(page.locator('.Toastify').getByText(opts.toast, { exact: true })).toBeVisible();
      // Layout settles after the resize (charts measure their container in a ResizeObserver callback).
      await framesPainted(page);
      const results = await new AxeBuilder({ page })
        .setLegacyMode(true)
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
        // Every rule still runs; only violations get a selector for each node (passes are what costs).
        .options({ resultTypes: ['violations'] })
        .analyze();
      const found = results.violations.map(
        (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
      );
      expect(found, `axe on "${name}" at ${size.width} px`).toEqual([]);
      // Nothing pushes the page wider than the window (a long e-mail or hash, a row of fields).
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect.soft(wide, `"${name}" scrolls sideways at ${size.width} px`).toBeLessThanOrEqual(size.width);
      // Nor does anything stick out of its box (a dialog or card is no wider, its content spills): an element that
      // does not clip or scroll on purpose is as wide as what it holds. Named by the innermost box it leaves.
      const spills = await page.evaluate(() => {
        const spilling = [...document.body.querySelectorAll<HTMLElement>('*')].filter(
          (el) =>
            // A toast sliding out is moved off-screen on purpose; a select clips its own text (its scroll width
            // is its longest option's, which depends on the machine's fonts).
            !el.closest('.Toastify') &&
            el.tagName !== 'SELECT' &&
            el.clientWidth > 0 &&
            el.scrollWidth > el.clientWidth + 1 &&
            getComputedStyle(el).overflowX === 'visible',
        );
        const says = (el: Element) =>
          `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}"> "${(el.textContent ?? '').slice(0, 60)}"`;
        return spilling
          .filter((el) => !spilling.some((other) => other !== el && el.contains(other)))
          .map((el) => {
            const box = el.getBoundingClientRect();
            const out = [...el.children].filter((c) => {
              const r = c.getBoundingClientRect();
              return r.right > box.right + 1 || r.left < box.left - 1;
            });
            return `${says(el)} holds ${el.scrollWidth} px in ${el.clientWidth} px: ${out.map(says).join(', ')}`;
          });
      });
      // Soft: one run names every box on every screen that spills.
      expect.soft(spills, `"${name}": content wider than its box at ${size.width} px`).toEqual([]);
      // A full-page capture paints the sticky top bar where the window is scrolled to: from the top it
      // sits where a person sees it.
      if (SAVE_SCREENSHOTS) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${size.width}.png`), fullPage: true });
      }
    }
  } finally {
    if (held) await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    if (before) await page.setViewportSize(before);
  }
}

/** Each element `items` matches shows its text on one line: an amount and its unit never break apart. */
export async function expectOneLine(items: Locator, what: string): Promise<void> {
  const found = await items.evaluateAll((els) =>
    els.map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
      return { text: el.textContent ?? '', lines: lines.size };
    }),
  );
  expect(found.length, `${what}: none found`).toBeGreaterThan(0);
  for (const f of found) expect(f.lines, `${what}: "${f.text}" wraps`).toBe(1);
}

/** At 375 px every tab of the bar shows its whole label, inside the bar (no label cut at the edge). */
export async function expectWholeTabs(page: Page): Promise<void> {
  await page.setViewportSize(WIDTHS.phone);
  const bar = await page.getByRole('tablist', { name: 'Dashboard sections' }).boundingBox();
  if (!bar) throw new Error('no tab bar');
  const tabs = page.getByRole('tab');
  for (let i = 0; i < (await tabs.count()); i++) {
    const tab = tabs.nth(i);
    const box = await tab.boundingBox();
    if (!box) throw new Error(`tab ${i} has no box`);
    expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth), await tab.innerText()).toBe(true);
    expect(box.x).toBeGreaterThanOrEqual(bar.x);
    expect(box.x + box.width).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
  }
  await page.setViewportSize(WIDTHS.desktop);
}
