import { useEffect, useRef, useState } from 'react';
import type { AuditEntry } from '../../app/contract/host-api.js';
import { DateTime } from '../components/date-time.js';
import { ShortId } from '../components/short-id.js';
import { toHostCallError } from '../host-client.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';

const LIMIT = 200;

/**
 * The audit log screen: the newest entries, read when shown and again after each change the
 * log records (the store's `auditRevision`) while shown. Reads asked for while one is on its
 * way collapse into one more.
 */
export function AuditScreen({
  active,
  headingRef
}: {
  active: boolean;
  headingRef: (element: HTMLHeadingElement | null) => void;
}) {
  const { client } = useDesk();
  const revision = useDeskState((state) => state.auditRevision);
  const [entries, setEntries] = useState<AuditEntry[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [asked, setAsked] = useState(0);
  const reading = useRef<{ again: boolean } | undefined>(undefined);

  useEffect(() => {
    if (!active) return;
    if (reading.current) {
      reading.current.again = true;
      return;
    }
    const read = { again: false };
    reading.current = read;
    void (async () => {
      try {
        do {
          read.again = false;
          setEntries(await client.call('audit.read', { limit: LIMIT }));
          setError(undefined);
        } while (read.again);
      } catch (thrown) {
        setError(`Could not read the audit log: ${toHostCallError(thrown).message}`);
      } finally {
        reading.current = undefined;
      }
    })();
  }, [active, revision, asked, client]);

  return (
    <>
      <div className="screen-header">
        <h2 id="heading-audit" tabIndex={-1} ref={headingRef}>
          Audit log
        </h2>
        <button type="button" onClick={() => setAsked((n) => n + 1)}>
          Refresh
        </button>
      </div>
      <p className="lede">{`What servers asked and what Taskdesk did, newest first (last ${LIMIT}).`}</p>
      <p className="muted" aria-live="polite">
        {error ?? (entries?.length === 0 ? 'The log is empty.' : '')}
      </p>
      <div className="table-wrap">
        <table className="audit">
          <caption className="sr-only">Audit log entries</caption>
          <thead>
            <tr>
              {['Time', 'Event', 'Server', 'Task', 'Detail'].map((title) => (
                <th scope="col" key={title}>
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(entries ?? []).map((entry, index) => (
              <tr key={`${entry.at}\0${index}`}>
                <td>
                  <DateTime iso={entry.at} />
                </td>
                <td>
                  <code>{entry.type}</code>
                </td>
                <td>{entry.serverName ?? entry.serverId ?? '—'}</td>
                <td>{entry.taskId ? <ShortId id={entry.taskId} /> : '—'}</td>
                <td className="detail">
                  {entry.detail && Object.keys(entry.detail).length > 0 ? (
                    <code>{JSON.stringify(entry.detail)}</code>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
