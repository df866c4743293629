/**
 * An e-mail address that wraps, when it must, after its "@" rather than in the middle of a name; only a
 * part longer than the whole line breaks inside (overflow-wrap: anywhere).
 */
export function Email({ address, className = '' }: { address: string; className?: string }) {
  const at = address.lastIndexOf('@');
  return (
    <span className={`[overflow-wrap:anywhere] ${className}`}>
      {at > 0 ? (
        <>
          {address.slice(0, at + 1)}
          <wbr />
          {address.slice(at + 1)}
        </>
      ) : (
        address
      )}
    </span>
  );
}
