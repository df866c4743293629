import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastContainer } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { csvRowCount } from '../api/download-csv.ts';
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
        new Response('id,email\r\n1,ada@example.com\r\n', {
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
    render(
      <>
        <CsvDownloadButton path="/admin/export/users.csv?search=ada" fileName="users.csv" what="users" />
        <ToastContainer />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/export/users.csv?search=ada', {
      headers: { accept: 'text/csv', authorization: 'Bearer tok-123' },
    });
    expect(downloaded).toBe('users-2026-11-05.csv');
    expect(await created[0]?.text()).toBe('id,email\r\n1,ada@example.com\r\n');
    // It says what was saved.
    expect(await screen.findByText('Downloaded users-2026-11-05.csv: 1 row (users).')).toBeTruthy();
    click.mockRestore();
  });

  it('an export with no rows is not saved: it says there is nothing to export', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('id,amount\r\n', { status: 200 })),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    render(
      <>
        <CsvDownloadButton
          path="/admin/export/withdrawals.csv?status=pending"
          fileName="w.csv"
          what="pending withdrawals"
        />
        <ToastContainer />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Nothing to export: there are no pending withdrawals.')).toBeTruthy();
    expect(click).not.toHaveBeenCalled();
    click.mockRestore();
  });

  it('counts rows, not line breaks inside quoted cells', () => {
    expect(csvRowCount('a,b\r\n')).toBe(0);
    expect(csvRowCount('a,b\r\n1,"two\r\nlines"\r\n2,"say ""hi"""\r\n')).toBe(2);
    expect(csvRowCount('a,b\r\n1,2')).toBe(1);
    expect(csvRowCount('')).toBe(0);
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
        <CsvDownloadButton path="/admin/export/deposits.csv?status=x" fileName="d.csv" what="deposits" />
        <ToastContainer />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Unknown status filter')).toBeTruthy();
  });
});
