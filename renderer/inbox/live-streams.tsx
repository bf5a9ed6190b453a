import { useMemo, useRef, useState } from 'react';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { taskIdTitle } from '../components/related-task-words.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import type { LiveStream } from '../store/desk-state.js';

/**
 * Models writing an answer now, with their text so far; hidden when none is. Each has a Stop,
 * which ends its run ("Stopped by you."): what it wrote is not sent, and a request the person
 * approved is back in the Inbox, to try again or answer otherwise. `onStopped` is told once a
 * stop is taken while the focus was on its button, which goes with the card.
 */
export function LiveStreams({ onStopped }: { onStopped?: (stream: LiveStream, pressedAt: string) => void }) {
  const live = useDeskState((state) => state.live);
  const streams = useMemo(() => Object.values(live), [live]);
  return (
    <ul className="cards live-list" aria-label="Models writing now" hidden={streams.length === 0}>
      {streams.map((stream) => (
        <LiveStreamCard key={stream.key} stream={stream} onStopped={onStopped} />
      ))}
    </ul>
  );
}

function LiveStreamCard({
  stream,
  onStopped
}: {
  stream: LiveStream;
  onStopped: ((stream: LiveStream, pressedAt: string) => void) | undefined;
}) {
  const { client, store, announce } = useDesk();
  const serverName = useDeskState(
    (state) => state.servers.find((server) => server.id === stream.serverId)?.name ?? stream.serverId
  );
  const [busy, setBusy] = useState(false);
  const failure = useFailure();
  const button = useRef<HTMLButtonElement>(null);

  const stop = async () => {
    if (busy) return;
    failure.clear();
    setBusy(true);
    // What is stopped from here on is this run: a request stopped earlier is not the one to focus.
    const pressedAt = new Date().toISOString();
    try {
      const { stopped } = await client.call('sampling.stop', {
        serverId: stream.serverId,
        ...(stream.taskId !== undefined ? { taskId: stream.taskId } : { streamId: stream.key })
      });
      if (!stopped) {
        announce(`${stream.model} had finished already.`);
        return;
      }
      announce(`Stopped ${stream.model}.`);
      // Run without asking, the request is not back in the Inbox to say what happened: said here.
      const policy = store.getState().policies[stream.serverId];
      if (policy !== undefined && policy.mode !== 'ask')
        store.dispatch({
          type: 'inbox-answered',
          text: `You stopped ${stream.model}; ${serverName} was told it did not finish.`
        });
      const focus = document.activeElement;
      if (focus === button.current || focus === document.body || focus === null) onStopped?.(stream, pressedAt);
    } catch (thrown) {
      failure.fail(`${stream.model} was not stopped.`, thrown);
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="card live-item" data-live-task-id={stream.taskId}>
      <p className="meta">
        <strong>{stream.model}</strong>
        {` is writing for ${serverName}`}
        {/* As its card said it: a task's id names nothing a person knows, so it is only a tooltip. */}
        {stream.taskId ? (
          <>
            {' · '}
            <span title={taskIdTitle(stream.taskId)}>sent as a task</span>
          </>
        ) : null}
      </p>
      <p className="live-text">{stream.text}</p>
      <ActionError failure={failure.failure} onDismiss={failure.clear} />
      <div className="actions">
        <button
          type="button"
          ref={button}
          className="small"
          aria-label={`Stop ${stream.model} writing for ${serverName}`}
          {...busyProps(busy)}
          onClick={() => void stop()}
        >
          ■ Stop
        </button>
      </div>
    </li>
  );
}
