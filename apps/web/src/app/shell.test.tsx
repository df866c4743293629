import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LoadingScreen } from '../components/ui/loading-screen.tsx';
import { renderApp } from '../test/render.tsx';
import { TopBar } from './top-bar.tsx';

/**
 * index.html paints the top bar and the Loading screen before any script has run (the first contentful
 * paint on a slow phone). React then renders its own, which must look the same: no shift, no flash.
 */
const html = readFileSync(path.resolve(import.meta.dirname, '../../index.html'), 'utf8');
const root = /<div id="root">([\s\S]*?)<\/div>\s*<script/.exec(html)?.[1] ?? '';
const squash = (s: string) => s.replace(/>\s+</g, '><').trim();

describe('the page shell in index.html', () => {
  it('is the top bar and the Loading screen as the app first renders them', () => {
    const { container } = renderApp(<TopBar />, { auth: true });
    const header = container.querySelector('header')?.outerHTML ?? 'no header';
    expect(squash(root)).toContain(squash(header));
    expect(squash(root)).toContain(squash(renderToStaticMarkup(<LoadingScreen />)));
    // Inside the same frame as the app's layout: the page backdrop and <main>.
    expect(squash(root)).toMatch(
      /^<div class="min-h-screen"><header[\s\S]*<\/header><main id="main" tabindex="-1" class="outline-none"><div role="status"/,
    );
  });
});
