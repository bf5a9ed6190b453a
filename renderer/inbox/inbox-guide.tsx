import { useDeskState } from '../shell/desk-context.js';

/**
 * Under an empty Inbox while the Desk lacks something it needs (no server, some or none
 * connected, no LLM provider): what comes here, where things stand, and the screen to go to. A
 * first run opens on this, with nothing else on the page to say what to do first; once every
 * server is connected and a provider is set up it says nothing. Its links are not named as the screens
 * are: the navigation's links keep names no other link on the page shares.
 */
export function InboxGuide() {
  const servers = useDeskState((state) => state.servers);
  const hasProvider = useDeskState((state) => state.providers.length > 0);
  const ready = servers.filter((server) => server.state.status === 'ready');
  const serverCount = `${servers.length} server${servers.length === 1 ? '' : 's'}`;
  // One still connecting is on its way (every server is, as Taskdesk starts): not said to be down.
  const notReady = servers.filter((server) => server.state.status !== 'ready' && server.state.status !== 'connecting');
  if (ready.length > 0 && notReady.length === 0 && hasProvider) return null;
  return (
    <div className="inbox-guide">
      <p>Questions and model requests your servers send while they work come here, for you to answer.</p>
      <ul>
        <li>
          {servers.length === 0 ? (
            <>
              No server yet: <a href="#servers">add one or import yours</a> (from another app’s settings).
            </>
          ) : ready.length === 0 ? (
            <>
              None of your {serverCount} is connected:{' '}
              <a href="#servers">{servers.length === 1 ? 'check its connection' : 'check their connections'}</a>.
            </>
          ) : (
            <>
              {ready.length === servers.length ? 'Connected' : `${ready.length} of your ${serverCount} connected`}:{' '}
              {ready.map((server) => server.name).join(', ')}; <a href="#tools">call a tool</a> to try them.
            </>
          )}
        </li>
        {ready.length > 0 && notReady.length > 0 ? (
          // Some connected, some not: those cannot ask anything, and "Nothing is waiting" says nothing of them.
          <li className="inbox-guide-not-connected">
            Not connected: {notReady.map((server) => server.name).join(', ')}; {notReady.length === 1 ? 'it' : 'they'}{' '}
            cannot ask you anything until {notReady.length === 1 ? 'it is' : 'they are'}:{' '}
            <a href="#servers">{notReady.length === 1 ? 'check its connection' : 'check their connections'}</a>.
          </li>
        ) : null}
        {hasProvider ? null : (
          <li>
            No LLM provider yet: <a href="#providers">add a provider</a> to chat in the Assistant and to run your
            servers’ model requests (until then, you write their replies here).
          </li>
        )}
      </ul>
    </div>
  );
}
