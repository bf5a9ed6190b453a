import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { DeskContext, useDesk, useDeskState, type Desk } from '../shell/desk-context.js';
import { AddServerForm } from './add-server-form.js';
import { ServerCard } from './server-card.js';
import { ImportPanel } from './import-panel.js';
import { focusInSight } from '../components/focus-screen.js';

/** The Servers screen: each configured server, adding one, and importing those of other apps. */
export function ServersScreen({
  headingRef,
  address
}: {
  headingRef: (element: HTMLHeadingElement | null) => void;
  /**
   * What follows `#servers/` in the address: `add` goes to the Add a server form, `import` to the
   * Import from other apps section (the first run's links).
   */
  address?: string | undefined;
}) {
  const servers = useDeskState((state) => state.servers);
  // `#servers/add`, `#servers/import`: the heading of the form or of the import section takes the
  // focus, in sight (a long list of servers, and the form, above them).
  useEffect(() => {
    if (address === 'add') focusInSight('heading-add-server');
    if (address === 'import') focusInSight('heading-import');
  }, [address]);
  const heading = useRef<HTMLHeadingElement | null>(null);
  const list = useRef<HTMLUListElement>(null);
  /**
   * A server just removed, and where its card was: once it is gone, the focus goes to the card in
   * its place itself, not to a button in it (its Tools…, which one Enter too many would press and
   * take the person to another screen), or to the heading when no card is left.
   */
  const [removed, setRemoved] = useState<{ serverId: string; index: number } | undefined>(undefined);
  /** What the last removal did, shown under the lede: the card it names is gone, and the focus moved on. */
  const [removedWords, setRemovedWords] = useState<string | undefined>(undefined);
  const onRemoved = useCallback(
    (serverId: string) => {
      const server = servers.find((known) => known.id === serverId);
      setRemovedWords(server ? `Removed ${server.name}.` : undefined);
      setRemoved({ serverId, index: servers.findIndex((known) => known.id === serverId) });
    },
    [servers]
  );
  useLayoutEffect(() => {
    if (!removed || servers.some((server) => server.id === removed.serverId)) return;
    setRemoved(undefined);
    const cards = list.current?.querySelectorAll<HTMLElement>(':scope > li') ?? [];
    (cards[Math.min(removed.index, cards.length - 1)] ?? heading.current)?.focus();
  }, [servers, removed]);
  /**
   * A server just added with the form: once its card shows, the card takes the focus and its top
   * is brought into sight (under the sticky bar), as a tool call's card is when the Desk takes the
   * person to it. The person reads on from what they made; the form, reset, waits below.
   */
  const [added, setAdded] = useState<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (added === undefined) return;
    const card = list.current?.querySelector<HTMLElement>(`:scope > li[data-server-id="${CSS.escape(added)}"]`);
    if (!card) return;
    setAdded(undefined);
    card.focus({ preventScroll: true });
    card.scrollIntoView({ block: 'start' });
  }, [servers, added]);
  /**
   * What the cards and the import panel have said (their `announce`), counted: the Add a server
   * form's line of its last add goes once something else on the screen reports (see `AddServerForm`).
   */
  const desk = useDesk();
  const [reports, setReports] = useState(0);
  const reporting = useMemo<Desk>(
    () => ({
      ...desk,
      announce: (message) => {
        desk.announce(message);
        setReports((count) => count + 1);
      }
    }),
    [desk]
  );
  return (
    <>
      <h2
        id="heading-servers"
        tabIndex={-1}
        ref={(element) => {
          heading.current = element;
          headingRef(element);
        }}
      >
        Servers
      </h2>
      <p className="lede">The MCP servers Taskdesk connects to.</p>
      {/* Said by the live region as the card goes (ServerCard's announce); shown here as well. */}
      <p className="form-status" hidden={removedWords === undefined}>
        {removedWords ?? ''}
      </p>
      {/* Past every card at once. The fragment names no screen, and the click stays on this one. */}
      <p className="skip-to-add">
        <a
          href="#heading-add-server"
          onClick={(event) => {
            event.preventDefault();
            document.getElementById('heading-add-server')?.focus();
          }}
        >
          Skip to Add a server
        </a>
      </p>
      <p className="empty" hidden={servers.length > 0}>
        No servers yet. Add one below.
      </p>
      <DeskContext.Provider value={reporting}>
        <ul className="cards server-list" aria-label="Servers" ref={list}>
          {servers.map((server) => (
            <ServerCard key={server.id} server={server} onRemoved={onRemoved} />
          ))}
        </ul>
      </DeskContext.Provider>
      <AddServerForm
        onAdded={(serverId) => {
          setRemovedWords(undefined);
          setAdded(serverId);
        }}
        reports={reports}
      />
      <DeskContext.Provider value={reporting}>
        <ImportPanel />
      </DeskContext.Provider>
    </>
  );
}
