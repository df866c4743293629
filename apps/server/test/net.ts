import net from 'node:net';

const handedOut = new Set<number>();

/** Whether `port` on loopback can be bound right now. */
const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.unref();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/**
 * A TCP port on loopback that is free right now (for throwaway servers in tests and scripts). With TEST_PORTS
 * ("44390-44399") it is one of those, each handed out once per process: engineers sharing a machine keep to
 * their own ports.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORTS ?? '');
  if (range) {
    for (let p = Number(range[1]); p <= Number(range[2]); p++)
      if (!handedOut.has(p) && (await bindable(p))) {
        handedOut.add(p);
        return p;
      }
    throw new Error(`no free port left in TEST_PORTS=${process.env.TEST_PORTS}`);
  }
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}
