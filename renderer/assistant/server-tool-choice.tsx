import { useEffect, useId, useRef, useState } from 'react';
import type { RequestorTool } from '../../app/contract/outbound-tasks.js';
import { toHostCallError } from '../host-client.js';
import { useDesk } from '../shell/desk-context.js';

/** A server's tools as the choice lists them, or why they could not be listed. */
type Listing = { tools: RequestorTool[] } | { problem: string };

/**
 * Which tools of one server a conversation's model is offered: all (the default, tools the
 * server adds later included), or those ticked. A model with a small context holds the
 * descriptions of a few only (a model file's 512 tokens held none of a server's 19), and a
 * person may want the model kept to some. The list is read from the server when opened; a tool
 * that cannot be called (`unavailable`) is never offered, and not listed. A failure's Choose
 * tools… opens the list (`openWith`), with the focus on its first tool once it is listed.
 */
export function ServerToolChoice({
  serverId,
  serverName,
  only,
  onChange,
  openWith = 0
}: {
  serverId: string;
  serverName: string;
  /** The tools offered; undefined offers all. */
  only: readonly string[] | undefined;
  onChange: (only: string[] | undefined) => void;
  /** Each new value (from 1) opens the list and puts the focus on its first tool. */
  openWith?: number;
}) {
  const { client } = useDesk();
  const [open, setOpen] = useState(false);
  const [listing, setListing] = useState<Listing | undefined>(undefined);
  const listId = useId();
  const [openedWith, setOpenedWith] = useState(0);
  /** Opened by `openWith`: the focus goes into the list once it shows its tools (or why not). */
  const [focusList, setFocusList] = useState(false);
  if (openWith !== openedWith) {
    // Adjusted while rendering (not in an effect): the list opens in the same frame.
    setOpenedWith(openWith);
    if (openWith > 0) {
      setOpen(true);
      setFocusList(true);
    }
  }
  const list = useRef<HTMLFieldSetElement>(null);
  const toggleButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusList || !open || listing === undefined) return;
    setFocusList(false);
    const first = list.current?.querySelector<HTMLInputElement>('input[type="checkbox"]');
    (first ?? toggleButton.current)?.focus({ preventScroll: true });
    list.current?.scrollIntoView({ block: 'nearest' });
  }, [focusList, open, listing]);
  useEffect(() => {
    if (!open || listing !== undefined) return;
    let current = true;
    client.call('tools.list', { serverId }).then(
      (tools) => {
        if (current) setListing({ tools: tools.filter((tool) => tool.callMode !== 'unavailable') });
      },
      (error: unknown) => {
        if (current) setListing({ problem: toHostCallError(error).message });
      }
    );
    return () => {
      current = false;
    };
  }, [client, serverId, open, listing]);
  const names = listing && 'tools' in listing ? listing.tools.map((tool) => tool.name) : [];
  const offered = (name: string) => only === undefined || only.includes(name);
  const toggle = (name: string, on: boolean) => {
    const now = only === undefined ? names : only.filter((chosen) => names.includes(chosen));
    const next = on ? [...new Set([...now, name])] : now.filter((chosen) => chosen !== name);
    // Every tool ticked offers all, the ones the server adds later too.
    onChange(names.every((known) => next.includes(known)) ? undefined : next);
  };
  const summary =
    only === undefined
      ? 'All its tools'
      : only.length === 0
        ? 'None of its tools'
        : only.length === 1
          ? 'Only 1 of its tools'
          : `Only ${only.length} of its tools`;
  return (
    <>
      {/* Beside the server's name: a line of its own for each server took the settings past a
          1280 × 800 window's height. */}
      <span className="chat-server-tools">
        <span className="muted small-text">{summary}</span>{' '}
        <button
          ref={toggleButton}
          type="button"
          className="link-button small-text"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => {
            // A list that could not be read is asked for again when opened next (the server may
            // be connected by then).
            if (open && listing !== undefined && 'problem' in listing) setListing(undefined);
            setOpen(!open);
          }}
        >
          {open ? 'Hide the list' : 'Choose tools…'}
          <span className="sr-only"> of {serverName}</span>
        </button>
      </span>
      {open ? (
        <fieldset id={listId} className="chat-tool-list" ref={list}>
          <legend className="sr-only">The tools of {serverName} the model is offered</legend>
          {listing === undefined ? (
            <p className="muted small-text">Listing its tools…</p>
          ) : 'problem' in listing ? (
            <p className="small-text">Its tools could not be listed: {listing.problem}</p>
          ) : listing.tools.length === 0 ? (
            <p className="muted small-text">{serverName} lists no tool it can be asked to run.</p>
          ) : (
            <>
              {listing.tools.map((tool) => (
                <label key={tool.name} className="checkbox-row">
                  <input
                    type="checkbox"
                    checked={offered(tool.name)}
                    onChange={(event) => toggle(tool.name, event.target.checked)}
                  />
                  <span>
                    {tool.title ?? tool.name}
                    {tool.title !== undefined && tool.title !== tool.name ? (
                      <span className="muted small-text"> ({tool.name})</span>
                    ) : null}
                  </span>
                </label>
              ))}
              <div className="actions">
                <button
                  type="button"
                  className="small"
                  disabled={only === undefined}
                  onClick={() => onChange(undefined)}
                >
                  Offer all
                </button>
                <button
                  type="button"
                  className="small"
                  disabled={only !== undefined && only.length === 0}
                  onClick={() => onChange([])}
                >
                  Offer none
                </button>
              </div>
            </>
          )}
        </fieldset>
      ) : null}
    </>
  );
}
