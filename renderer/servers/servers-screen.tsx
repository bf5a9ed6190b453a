import { useDeskState } from '../shell/desk-context.js';
import { AddServerForm } from './add-server-form.js';
import { ServerCard } from './server-card.js';
import { ImportPanel } from './import-panel.js';

/** The Servers screen: each configured server, adding one, and importing those of other apps. */
export function ServersScreen({ headingRef }: { headingRef: (element: HTMLHeadingElement | null) => void }) {
  const servers = useDeskState((state) => state.servers);
  return (
    <>
      <h2 id="heading-servers" tabIndex={-1} ref={headingRef}>
        Servers
      </h2>
      <p className="lede">The MCP servers Taskdesk connects to.</p>
      <p className="empty" hidden={servers.length > 0}>
        No servers yet. Add one below.
      </p>
      <ul className="cards server-list" aria-label="Servers">
        {servers.map((server) => (
          <ServerCard key={server.id} server={server} />
        ))}
      </ul>
      <AddServerForm />
      <ImportPanel />
    </>
  );
}
