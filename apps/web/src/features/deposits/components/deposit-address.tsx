import { CopyButton } from '../../../components/ui/copy-button.tsx';

/** The platform deposit address with a copy button, the instructions and the network warning. */
export function DepositAddress({ address }: { address: string }) {
  return (
    <div className="space-y-4">
      <div>
        <p className="text-sm font-medium text-slate-600">Deposit address (USDC on Polygon)</p>
        <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
          <code
            className="block min-w-0 flex-1 rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
            data-testid="deposit-address"
          >
            {address}
          </code>
          <CopyButton text={address} label="Copy Address" done="Deposit address copied" />
        </div>
      </div>
      <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        <p className="font-semibold">Only USDC on the Polygon network is accepted.</p>
        <p>
          Sending any other token, or USDC on any other network, to this address will not be credited and may be lost.
        </p>
      </div>
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Send USDC on the Polygon network from your wallet to the address above (minimum $0.5 USDC).</li>
        <li>Copy the transaction hash from your wallet or a block explorer once the transfer is sent.</li>
        <li>Submit the transaction hash, the exact amount and the address you sent from in the form below.</li>
        <li>Your balance is credited once the transaction is confirmed.</li>
      </ol>
    </div>
  );
}
