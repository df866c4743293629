/**
 * Loads node-postgres without its Cloudflare probe loading Node's fetch (docs/decisions/0060-pg-without-fetch.md).
 * node-postgres 8 decides when it is first loaded whether it runs on Cloudflare Workers: where there is no
 * `navigator` (Node 20; Node 21 and later define one and it returns early) it builds `new Response(null, { cf })`,
 * and that first touch of `Response` loads Node's whole fetch implementation (undici and its WebAssembly HTTP
 * parser): 13 MB of resident memory in a server that never uses it. So the server's entry loads pg first, once,
 * with `Response` hidden; every later import of pg gets the module already loaded.
 */
export async function loadPg(): Promise<void> {
  const response = Object.getOwnPropertyDescriptor(globalThis, 'Response');
  if ('navigator' in globalThis || !response?.configurable) {
    await import('pg');
    return;
  }
  delete (globalThis as { Response?: unknown }).Response;
  try {
    await import('pg');
  } finally {
    Object.defineProperty(globalThis, 'Response', response);
  }
}
