import { useEffect, useState } from 'react';
import { useDesk } from '../shell/desk-context.js';
import { ActionError, useFailure } from './action-error.js';

/** How long the button says "Copied" after a copy. */
const COPIED_MS = 2_000;

/**
 * Copies `text` to the clipboard (the async Clipboard API: the Desk runs in a secure context,
 * `file://` in the app and loopback in browser mode) and says so, on the button and to screen
 * readers.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { announce } = useDesk();
  const [copied, setCopied] = useState(false);
  const { failure, show, clear } = useFailure();
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <>
      <button
        type="button"
        className="small copy-button"
        aria-label={label}
        onClick={() => {
          clear();
          void navigator.clipboard.writeText(text).then(
            () => {
              setCopied(true);
              announce('Copied to the clipboard.');
            },
            (error: unknown) =>
              show({
                what: 'Nothing was copied.',
                why: error instanceof Error ? error.message : String(error),
                next: 'Select the text and copy it with the keyboard instead.'
              })
          );
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      <ActionError className="compact" failure={failure} onDismiss={clear} />
    </>
  );
}
