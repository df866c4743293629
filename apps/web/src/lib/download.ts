import { ApiError, apiErrorOf, tokenStore } from './api-client.ts';

/**
 * Fetches a file the API serves to a signed-in person (a plain link cannot send the bearer token): its name from
 * Content-Disposition and its body. `save` then hands it to the browser through a temporary object URL.
 */
export async function fetchFile(
  path: string,
  fallbackName: string,
  accept: string,
): Promise<{ name: string; blob: Blob }> {
  const token = tokenStore.get();
  let res: Response;
  try {
    res = await fetch(`/api${path}`, { headers: { accept, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  } catch {
    throw new ApiError(0, null);
  }
  if (!res.ok) {
    let data: unknown = null;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    throw apiErrorOf(res.status, data);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  return { name, blob: await res.blob() };
}

export function save(file: { name: string; blob: Blob }): void {
  const href = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = file.name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
