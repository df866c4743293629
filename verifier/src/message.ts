/**
 * The EIP-191 message each reserve address signs for a snapshot (README.md): it names the snapshot, its root, its
 * total and the block its reserves were read at, so a signature cannot be carried to another snapshot.
 */
export function reservesMessage(s: { id: string; root: string; total: string; blockNumber: string | number }): string {
  return [
    'Harvest Farm proof of reserves',
    `Snapshot: ${s.id}`,
    `Root: ${s.root.toLowerCase()}`,
    `Liabilities (micro-USDC): ${s.total}`,
    `Block: ${s.blockNumber}`,
    'This address is controlled by the platform.',
  ].join('\n');
}
