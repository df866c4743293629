import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render.tsx';
import { Layout } from './layout.tsx';

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

function at(page: React.ReactNode) {
  return renderApp(
    <Routes>
      <Route element={<Layout />}>
        <Route path="/page" element={page} />
      </Route>
    </Routes>,
    { path: '/page', auth: true },
  );
}

describe('Layout: focus after navigation', () => {
  it("moves focus to the page's heading, in the frame after the page is shown", async () => {
    at(<h1>Heading of the page</h1>);
    const h1 = await screen.findByRole('heading', { name: 'Heading of the page' });
    await nextFrame();
    await nextFrame();
    expect(document.activeElement).toBe(h1);
    expect(h1.getAttribute('tabindex')).toBe('-1');
  });

  it('leaves focus where the person put it inside the page', async () => {
    at(
      <>
        <h1>Heading of the page</h1>
        <input aria-label="Amount" autoFocus />
      </>,
    );
    const field = await screen.findByRole('textbox', { name: 'Amount' });
    await nextFrame();
    await nextFrame();
    expect(document.activeElement).toBe(field);
  });
});
