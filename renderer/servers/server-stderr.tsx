import { useCallback, useEffect, useState } from 'react';
import type { ServerView } from '../../app/contract/host-api.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { useDesk } from '../shell/desk-context.js';

/**
 * What the server's latest process wrote to stderr (the last 64 KiB / 200 lines, its secrets
 * redacted), fetched when opened and again with Refresh, or when the state changes while open.
 */
export function ServerStderr({ server }: { server: ServerView }) {
  const { client } = useDesk();
  const [output, setOutput] = useState<{ text: string; truncated: boolean } | undefined>(undefined);
  const { failure, fail, clear } = useFailure();
  const [open, setOpen] = useState(false);
  const status = server.state.status;
  const load = useCallback(
    () =>
      client.call('servers.stderr', { serverId: server.id }).then(
        (result) => {
          setOutput(result);
          clear();
        },
        (thrown: unknown) => fail(`Could not read what ${server.name} wrote.`, thrown, 'Press Refresh to try again.')
      ),
    [client, server.id, server.name, clear, fail]
  );
  // Open, it follows the server: a new process (or its end) brings new output.
  useEffect(() => {
    if (open) void load();
  }, [open, status, load]);
  return (
    <details className="stderr" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Server output (stderr)<span className="sr-only"> of {server.name}</span>
      </summary>
      <ActionError failure={failure} onDismiss={clear} />
      {output && output.text === '' ? <p className="muted">Nothing written to stderr.</p> : null}
      {output && output.text !== '' ? (
        <>
          {output.truncated ? <p className="muted small-text">Older output was dropped.</p> : null}
          {/* A box that scrolls, so the keyboard stops on it; a group, as a <pre> may not be named. */}
          <pre className="stderr-text" role="group" tabIndex={0} aria-label={`stderr of ${server.name}`}>
            {output.text}
          </pre>
        </>
      ) : null}
      <button type="button" className="small" onClick={() => void load()}>
        Refresh<span className="sr-only"> stderr of {server.name}</span>
      </button>
    </details>
  );
}
