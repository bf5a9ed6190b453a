import { useEffect, useId, useRef, useState } from 'react';
import type { HistorySummary, RequestorTool } from '../../app/contract/host-api.js';
import { ToolCallForm, type CallAgain } from './tool-call-form.js';
import { ToolRunningCalls } from './running-calls.js';
import { focusFirstField } from './first-field.js';
import { LastCallLine } from './last-call.js';

/**
 * What a tool's badge says of how it is called, only where that tells the person something: most
 * tools are simply called and answer, and a badge on each of them ("Plain call") said nothing.
 */
const MODE_LABELS: Record<RequestorTool['callMode'], string | undefined> = {
  task: 'Runs as a task',
  'task-or-plain': 'Can run as a task',
  plain: undefined,
  unavailable: 'Cannot be called'
};

/** What a badge means, in its tooltip. */
const MODE_TITLES: Record<RequestorTool['callMode'], string | undefined> = {
  task: 'Each call runs as a task on the server: its result comes when it is ready.',
  'task-or-plain': 'A call can run as a task on the server, or answer at once.',
  plain: undefined,
  unavailable: 'This tool runs only as a task, and its server does not take task calls.'
};

/**
 * One tool: its name, how it is called where that is out of the ordinary, and its call form
 * behind a disclosure (Call…, then Close form while it is open). The form is built on first open
 * (most tools of a large server are never called) and kept after, with what was typed in it.
 */
export function ToolItem({
  serverId,
  tool,
  modern,
  again,
  onFilled,
  lastCall
}: {
  serverId: string;
  tool: RequestorTool;
  modern: boolean;
  /** The tool's last call as History keeps it: its card says how it ended, after a reload too. */
  lastCall?: HistorySummary | undefined;
  /** A call to make again: the form opens, filled with its arguments (see `ToolCallForm`). */
  again?: CallAgain;
  /** The form was filled for the call again of this nonce. */
  onFilled?: (nonce: number) => void;
}) {
  const [open, setOpen] = useState(false);
  const [built, setBuilt] = useState(false);
  const againNonce = again?.nonce;
  useEffect(() => {
    if (againNonce === undefined) return;
    setOpen(true);
    setBuilt(true);
  }, [againNonce]);
  const headingId = useId();
  const panelId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const focusOnOpen = useRef(false);
  useEffect(() => {
    if (!open || !focusOnOpen.current) return;
    focusOnOpen.current = false;
    focusFirstField(panel.current);
  }, [open]);
  return (
    <li className="card tool" data-tool-server={serverId} data-tool={tool.name} aria-labelledby={headingId}>
      <div className="card-header">
        <h3 id={headingId}>
          <code>{tool.name}</code>
          {tool.title && tool.title !== tool.name ? <span className="muted"> — {tool.title}</span> : null}
        </h3>
        {MODE_LABELS[tool.callMode] ? (
          <span
            className={`kind-tag mode-${tool.callMode}`}
            data-call-mode={tool.callMode}
            title={MODE_TITLES[tool.callMode]}
          >
            {MODE_LABELS[tool.callMode]}
          </span>
        ) : null}
        <button
          ref={toggle}
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          // A disclosure whose label says what pressing it does now (the name starts with what shows).
          aria-label={open ? `Close form for ${tool.name}` : `Call ${tool.name}…`}
          onClick={() => {
            focusOnOpen.current = !open;
            setOpen(!open);
            setBuilt(true);
          }}
        >
          {open ? 'Close form' : 'Call…'}
        </button>
      </div>
      {tool.description ? <p className="tool-description">{tool.description}</p> : null}
      {lastCall ? <LastCallLine entry={lastCall} toolName={tool.name} /> : null}
      <div id={panelId} className="tool-panel" hidden={!open} ref={panel}>
        {built ? (
          <ToolCallForm
            serverId={serverId}
            tool={tool}
            modern={modern}
            // Given once the form shows: it takes the focus with the arguments.
            again={open ? again : undefined}
            {...(onFilled && { onFilled })}
            // Escape on the form (twice from a field): closed as by its Close form button, the focus back on it.
            onClose={() => {
              setOpen(false);
              toggle.current?.focus();
            }}
          />
        ) : null}
      </div>
      <ToolRunningCalls serverId={serverId} toolName={tool.name} />
    </li>
  );
}
