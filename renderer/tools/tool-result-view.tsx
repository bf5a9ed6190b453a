import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ErrorData } from '../../app/contract/host-api.js';
import { serverErrorText } from '../../app/contract/error-words.js';
import { JsonView } from '../components/json-view.js';
import { ResultView } from '../history/result-view.js';

/**
 * A `CallToolResult` as a person reads it (see {@link ResultView}: Markdown text, images,
 * resource links, structured content), with "the tool reported an error" when `isError` is set.
 * Under a tool's form and on a tool call's card alike it sits under an h3 (the tool's name), and
 * its Markdown's headings rank below that. `serverId`, the server that ran the tool, lets its
 * resource links be read.
 */
export function ToolResultView({ result, serverId }: { result: Record<string, unknown>; serverId?: string }) {
  return (
    <ResultView
      result={Array.isArray(result.content) ? result : { content: [], ...result }}
      headingLevel={3}
      serverId={serverId}
    />
  );
}

/**
 * A result folded to its first lines, with "Show whole result" (a disclosure) when there is more:
 * one long report on each card made the Tool calls list thousands of pixels long. The button shows
 * only when something is folded away. Focus moving to a link or button in the folded-away part
 * unfolds it, so the keyboard never lands on what cannot be seen. `label` names the call, for the
 * button's name in a screen reader's list of buttons, where every card has one.
 */
export function ResultFold({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [long, setLong] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const id = useId();

  // Measured while folded (open, it is as long as it was): again as the content or width changes,
  // an image loading, say.
  useLayoutEffect(() => {
    const outer = box.current;
    const inner = content.current;
    if (open || !outer || !inner) return;
    const measure = () => setLong(inner.offsetHeight > outer.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(inner);
    return () => observer.disconnect();
  }, [open]);

  return (
    <div className="result-fold" data-long={long ? 'true' : undefined}>
      <div
        id={id}
        ref={box}
        className="result-fold-box"
        data-open={open ? 'true' : undefined}
        onFocus={(event) => {
          // Measured from the content's top: the browser has already scrolled the folded box to
          // show what took the focus.
          const top = content.current?.getBoundingClientRect().top ?? 0;
          if (!open && long && event.target.getBoundingClientRect().bottom - top > event.currentTarget.clientHeight)
            setOpen(true);
        }}
      >
        <div ref={content}>{children}</div>
      </div>
      {long ? (
        <button
          type="button"
          ref={toggle}
          className="link-button result-fold-toggle"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => {
            setOpen(!open);
            // Folding a long result moves this button far up: keep it in sight.
            if (open) requestAnimationFrame(() => toggle.current?.scrollIntoView({ block: 'nearest' }));
          }}
        >
          {open ? 'Show less' : 'Show whole result'}
          <span className="sr-only"> of {label}</span>
        </button>
      ) : null}
    </div>
  );
}

/**
 * A JSON-RPC error as data: code and message, and its data when there is any. `rejected` for a
 * model request Taskdesk turned down (MCP's −1, "User rejected sampling request": the person's
 * Reject, or the server's sampling policy), which is a decision, not a failure.
 */
export function ErrorView({ error, rejected = false }: { error: ErrorData; rejected?: boolean }) {
  return (
    <div className={`tool-result ${rejected ? 'tool-result-rejected' : 'tool-result-error'}`}>
      <p>
        <strong>{rejected ? 'Rejected: ' : `Error ${error.code}: `}</strong>
        {rejected ? error.message : serverErrorText(error)}
      </p>
      {error.data === undefined ? null : (
        <>
          <p className="muted small-text">More the server sent with it:</p>
          <JsonView value={error.data} />
        </>
      )}
    </div>
  );
}
