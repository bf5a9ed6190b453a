import { useMemo } from 'react';
import { ShortId } from '../components/short-id.js';
import { useDeskState } from '../shell/desk-context.js';

/** Models writing an answer now, with their text so far; hidden when none is. */
export function LiveStreams() {
  const live = useDeskState((state) => state.live);
  const servers = useDeskState((state) => state.servers);
  const streams = useMemo(() => Object.values(live), [live]);
  return (
    <ul className="cards live-list" aria-label="Models writing now" hidden={streams.length === 0}>
      {streams.map((stream) => (
        <li key={stream.key} className="card live-item" data-live-task-id={stream.taskId}>
          <p className="meta">
            <strong>{stream.model}</strong>
            {` is writing for ${servers.find((server) => server.id === stream.serverId)?.name ?? stream.serverId}`}
            {stream.taskId ? (
              <>
                {' · task '}
                <ShortId id={stream.taskId} />
              </>
            ) : null}
          </p>
          <p className="live-text">{stream.text}</p>
        </li>
      ))}
    </ul>
  );
}
