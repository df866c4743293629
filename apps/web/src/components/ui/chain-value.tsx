import { useEffect, useState } from 'react';
import { shownAddress } from '@harvest/shared/address';
import { isAddress } from 'viem';
import { usePlatform } from '../../lib/auth.tsx';
import { HASH_CHARS, ltr, shortHash } from '../../lib/format.ts';
import { t } from '../../lib/i18n.tsx';
import { toast } from '../../lib/toast.ts';
import { copyText } from './copy-button.tsx';

const COPIED_MS = 2_000;

/** A transaction hash (0x and 64 hex digits), as opposed to a record id standing where a hash may be. */
export const isTxHash = (value: string) => /^0x[0-9a-fA-F]{64}$/.test(value);
/** What a stored value is on chain, when it is a hash or an address at all (an audit snapshot's free fields). */
export const chainKind = (value: string): 'tx' | 'address' | null =>
  isTxHash(value) ? 'tx' : isAddress(value, { strict: false }) ? 'address' : null;

const icon = 'h-4 w-4';
const iconButton =
  'inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-md text-purple-800 hover:bg-purple-100 focus-visible:outline-2 focus-visible:outline-purple-700';

/**
 * Every transaction hash and wallet address on screen: the value (a hash cut to the spec's length, with the whole
 * hash in its title and for screen readers; an address whole, wrapped), a copy button that says "Copied" politely,
 * and, when the server names a block explorer (EXPLORER_URL), a link to it in a new tab.
 * `done`: also a toast with this text (the deposit address, whose copy is its tab's main action).
 */
export function ChainValue({
  kind,
  value,
  short = 'default',
  done,
  className = '',
}: {
  kind: 'tx' | 'address';
  value: string;
  short?: keyof typeof HASH_CHARS;
  done?: string;
  className?: string;
}) {
  const explorer = usePlatform()?.explorerUrl;
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const full = kind === 'address' ? shownAddress(value) : value;
  const cut = kind === 'tx' && full.length > HASH_CHARS[short];

  async function copy() {
    if (!(await copyText(full))) return toast.error(t('Could not copy. Please copy it by hand.'));
    setCopied(true);
    if (done) toast.success(done);
  }

  return (
    <span className={`inline-flex max-w-full min-w-0 flex-wrap items-center gap-x-1 align-middle ${className}`}>
      {cut ? (
        <span className="font-mono" title={full}>
          <span aria-hidden="true">{shortHash(full, short)}</span>
          <span className="sr-only">{full}</span>
        </span>
      ) : (
        <span className="min-w-0 font-mono break-all" title={full}>
          {ltr(full)}
        </span>
      )}
      <span className="inline-flex items-center">
        <button
          type="button"
          className={iconButton}
          aria-label={kind === 'tx' ? t('Copy transaction hash') : t('Copy address')}
          onClick={() => void copy()}
        >
          <svg
            aria-hidden="true"
            className={icon}
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            {copied ? (
              <path d="M5 13l4 4L19 7" />
            ) : (
              <>
                <rect x="9" y="9" width="11" height="11" rx="2" />
                <path d="M5 15V6a2 2 0 0 1 2-2h8" />
              </>
            )}
          </svg>
        </button>
        {explorer && (
          <a
            className={iconButton}
            href={`${explorer}/${kind}/${full}`}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={kind === 'tx' ? t('View transaction on the explorer') : t('View address on the explorer')}
            title={kind === 'tx' ? t('View transaction on the explorer') : t('View address on the explorer')}
          >
            <svg
              aria-hidden="true"
              className={icon}
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
            </svg>
          </a>
        )}
        <span aria-live="polite" className="text-xs font-semibold text-emerald-700">
          {copied ? t('Copied') : ''}
        </span>
      </span>
    </span>
  );
}
