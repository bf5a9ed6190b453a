import { useEffect, useRef, useState } from 'react';
import type { MessageSource, ServerSources } from '../../app/contract/assistant.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';

/** A source chosen for the next message, with the words its chip shows. */
export interface ChosenSource {
  source: MessageSource;
  label: string;
}

/**
 * Picks a connected server's prompt (its arguments in a small form) or resource to add to the
 * next message; the host fetches it when the message is sent (`prompts/get`, `resources/read`).
 */
export function SourcePicker({
  serverIds,
  onAdd,
  onClose
}: {
  serverIds: string[];
  onAdd: (chosen: ChosenSource) => void;
  onClose: () => void;
}) {
  const { client } = useDesk();
  const servers = useDeskState((state) => state.servers);
  const ready = servers.filter((s) => s.state.status === 'ready');
  const preferred = ready.find((s) => serverIds.includes(s.id)) ?? ready[0];
  const [serverId, setServerId] = useState(preferred?.id ?? '');
  const [sources, setSources] = useState<ServerSources | undefined>(undefined);
  const { failure, fail, clear } = useFailure();
  const [prompt, setPrompt] = useState<ServerSources['prompts'][number] | undefined>(undefined);
  const [args, setArgs] = useState<Record<string, string>>({});
  /** The prompt Back returns from: its button in the list takes the focus again. */
  const backTo = useRef<string | undefined>(undefined);
  /** Moves each time the server says its prompts or resources changed: they are listed again. */
  const revision = useDeskState((state) => state.sourcesRevisions[serverId] ?? 0);
  /** The server whose lists are shown (or loading). */
  const shownFor = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (!serverId) return;
    let live = true;
    // Another server's lists start from nothing; the same server's, read again because they
    // changed, stay shown meanwhile (a prompt's form open over them, and what was typed, too).
    if (shownFor.current !== serverId) {
      setSources(undefined);
      setPrompt(undefined);
      clear();
    }
    shownFor.current = serverId;
    client.call('assistant.sources', { serverId }).then(
      (found) => live && setSources(found),
      (problem: unknown) =>
        live &&
        fail(
          'Could not list the prompts and resources of this server.',
          problem,
          'Pick another server, or close and attach again.'
        )
    );
    return () => {
      live = false;
    };
  }, [client, serverId, revision, clear, fail]);

  if (ready.length === 0)
    return (
      <div className="chat-picker" role="dialog" aria-label="Add a prompt or resource">
        <p className="muted">No server is connected.</p>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    );

  const missing = prompt?.arguments.filter((a) => a.required && !(args[a.name] ?? '').trim()) ?? [];
  const serverName = ready.find((s) => s.id === serverId)?.name ?? serverId;
  return (
    <div className="chat-picker" role="dialog" aria-label="Add a prompt or resource">
      <div className="chat-picker-head">
        <label>
          Server{' '}
          <select value={serverId} onChange={(e) => setServerId(e.target.value)}>
            {ready.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="link-button" onClick={onClose}>
          Close
        </button>
      </div>
      <ActionError failure={failure} onDismiss={clear} />
      {!sources && !failure ? <p className="muted small-text">Loading…</p> : null}
      {prompt ? (
        <form
          aria-label={`Arguments of ${prompt.name}`}
          onSubmit={(event) => {
            event.preventDefault();
            if (missing.length > 0) return;
            const filled = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== ''));
            onAdd({
              source: {
                type: 'prompt',
                serverId,
                name: prompt.name,
                ...(prompt.title !== undefined && { title: prompt.title }),
                ...(Object.keys(filled).length > 0 && { arguments: filled })
              },
              label: promptLabel(prompt.title ?? prompt.name, serverName, filled)
            });
          }}
        >
          <p>
            <strong>{prompt.title ?? prompt.name}</strong>{' '}
            {prompt.description ? <span className="muted">{prompt.description}</span> : null}
          </p>
          {prompt.arguments.map((a, i) => (
            <label key={a.name} className="field">
              <span>
                {a.name}
                {a.required ? <span className="required"> (required)</span> : null}
              </span>
              <input
                type="text"
                // The form replaced the button chosen: its first field takes the focus.
                autoFocus={i === 0}
                value={args[a.name] ?? ''}
                onChange={(e) => setArgs({ ...args, [a.name]: e.target.value })}
              />
              {a.description ? <span className="field-hint">{a.description}</span> : null}
            </label>
          ))}
          <div className="actions">
            <button type="submit" className="primary" disabled={missing.length > 0}>
              Add prompt
            </button>
            <button
              type="button"
              onClick={() => {
                backTo.current = prompt.name;
                setPrompt(undefined);
              }}
            >
              Back
            </button>
          </div>
        </form>
      ) : sources ? (
        <div className="chat-picker-lists">
          <section aria-label="Prompts">
            <h4>Prompts</h4>
            {sources.prompts.length === 0 ? <p className="muted small-text">None.</p> : null}
            <ul>
              {sources.prompts.map((p) => (
                <li key={p.name}>
                  <button
                    type="button"
                    className="link-button"
                    ref={(button) => {
                      if (button && backTo.current === p.name) {
                        backTo.current = undefined;
                        button.focus();
                      }
                    }}
                    onClick={() => {
                      if (p.arguments.length === 0)
                        onAdd({
                          source: {
                            type: 'prompt',
                            serverId,
                            name: p.name,
                            ...(p.title !== undefined && { title: p.title })
                          },
                          label: promptLabel(p.title ?? p.name, serverName, {})
                        });
                      else {
                        setArgs({});
                        setPrompt(p);
                      }
                    }}
                  >
                    {p.title ?? p.name}
                  </button>
                  {p.description ? <span className="muted small-text"> {p.description}</span> : null}
                </li>
              ))}
            </ul>
          </section>
          <section aria-label="Resources">
            <h4>Resources</h4>
            {sources.resources.length === 0 ? <p className="muted small-text">None.</p> : null}
            <ul>
              {sources.resources.map((r) => (
                <li key={r.uri}>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() =>
                      onAdd({
                        source: { type: 'resource', serverId, uri: r.uri, title: r.name },
                        label: `Resource ${r.name} of ${serverName}`
                      })
                    }
                  >
                    {r.name}
                  </button>
                  <code className="small-text"> {r.uri}</code>
                </li>
              ))}
            </ul>
          </section>
        </div>
      ) : null}
    </div>
  );
}

/** A prompt's chip: its title, its server's name and the arguments given (`city = Paris`). */
function promptLabel(title: string, serverName: string, args: Record<string, string>): string {
  const given = Object.entries(args).map(([name, value]) => `${name} = ${value}`);
  return `Prompt "${title}" of ${serverName}${given.length > 0 ? `, with ${given.join(', ')}` : ''}`;
}
