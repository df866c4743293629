import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastContainer } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CsvDownloadButton } from './csv-download-button.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('CsvDownloadButton', () => {
  it('fetches with the bearer token and saves the blob under the server file name', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok-123');
    const fetchMock = vi.fn(
      async () =>
        new Response('id,email\r\n', {
          status: 200,
          headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="users-2026-11-05.csv"' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:x';
    });
    URL.revokeObjectURL = vi.fn();
    let downloaded = '';
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloaded = this.download;
    });
    render(<CsvDownloadButton path="/admin/export/users.csv?search=ada" fileName="users.csv" />);
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/export/users.csv?search=ada', {
      headers: { accept: 'text/csv', authorization: 'Bearer tok-123' },
    });
    expect(downloaded).toBe('users-2026-11-05.csv');
    expect(await created[0]?.text()).toBe('id,email\r\n');
    click.mockRestore();
  });

  it("shows the server's error text when the export is refused", async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: 'Unknown status filter', code: 'validation' }), { status: 400 }),
      ),
    );
    render(
      <>
        <CsvDownloadButton path="/admin/export/deposits.csv?status=x" fileName="d.csv" />
        <ToastContainer />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Unknown status filter')).toBeTruthy();
  });
});
