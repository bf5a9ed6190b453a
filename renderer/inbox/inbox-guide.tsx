import { anyModel } from '../../app/contract/model-names.js';
import { notConnectedName, notConnectedStep, oneNotConnected } from '../servers/added-words.js';
import { useDeskState } from '../shell/desk-context.js';
import { deskIsNew } from './first-run.js';

/**
 * What Taskdesk is for and the first step, at the top of the screen a first run opens on (the
 * Inbox), while the Desk is new (see {@link deskIsNew}: no server, or only the demo one Taskdesk
 * added itself): nothing else there says it, and an empty Inbox only says what is not there. Gone
 * once the person has a server of their own. With the demo server there, {@link InboxGuide} says
 * what it needs to (the demo connected, no provider yet): the welcome does not say it again. Its
 * links are not named as the screens are (see {@link InboxGuide}).
 */
export function DeskWelcome() {
  const ready = useDeskState((state) => state.ready);
  const noServer = useDeskState((state) => state.servers.length === 0);
  const isNew = useDeskState((state) => deskIsNew(state.servers));
  const hasProvider = useDeskState((state) => state.providers.length > 0);
  // Not before the lists are in: every Desk would greet its person as new while it loads.
  if (!ready || !isNew) return null;
  return (
    <div className="desk-welcome">
      <p>
        Taskdesk connects you to MCP servers, programs that offer tools (files, search, your own services): you call
        their tools, chat with a model that uses them, and answer here what they ask of you.
      </p>
      <ul>
        <li>
          <a href="#servers/add">Add a server</a>
          {noServer ? '' : ' of your own'}, or <a href="#servers/import">import yours from another app’s settings</a>.
        </li>
        {hasProvider || !noServer ? null : (
          <li>
            <a href="#providers">Add a model provider</a> to chat in the Assistant.
          </li>
        )}
      </ul>
    </div>
  );
}

/**
 * Under an empty Inbox while the Desk lacks something it needs (some or none of its servers
 * connected, no LLM provider): what comes here, where things stand, and the screen to go to.
 * With no server at all, {@link DeskWelcome} says what to do first instead; once every server is
 * connected and a provider is set up it says nothing. Its links are not named as the screens
 * are: the navigation's links keep names no other link on the page shares.
 */
export function InboxGuide() {
  const servers = useDeskState((state) => state.servers);
  const providerCount = useDeskState((state) => state.providers.length);
  // A provider that lists no model runs nothing: said as no provider is, in its own words.
  const hasProvider = useDeskState((state) => anyModel(state.providers));
  const ready = servers.filter((server) => server.state.status === 'ready');
  const serverCount = `${servers.length} server${servers.length === 1 ? '' : 's'}`;
  // One still connecting is on its way (every server is, as Taskdesk starts): not said to be down.
  const notReady = servers.filter((server) => server.state.status !== 'ready' && server.state.status !== 'connecting');
  if (ready.length > 0 && notReady.length === 0 && hasProvider) return null;
  // No server yet: the welcome above says what to do first.
  if (servers.length === 0) return null;
  return (
    <div className="inbox-guide">
      <p>Questions and model requests your servers send while they work come here, for you to answer.</p>
      <ul>
        <li>
          {ready.length === 0 ? (
            <>
              {/* One server is named, not counted ("None of your 1 server"); one that only waits for a sign-in is not down. */}
              {servers.length === 1 ? oneNotConnected(servers[0]!) : `None of your ${serverCount} is connected`}:{' '}
              <a href="#servers">{notConnectedStep(servers)}</a>.
            </>
          ) : (
            <>
              {ready.length === servers.length ? 'Connected' : `${ready.length} of your ${serverCount} connected`}:{' '}
              {ready.map((server) => server.name).join(', ')}; <a href="#tools">call a tool</a> to try{' '}
              {ready.length === 1 ? 'it' : 'them'}.
            </>
          )}
        </li>
        {ready.length > 0 && notReady.length > 0 ? (
          // Some connected, some not: those cannot ask anything, and "Nothing is waiting" says nothing of them.
          <li className="inbox-guide-not-connected">
            Not connected: {notReady.map(notConnectedName).join(', ')}; {notReady.length === 1 ? 'it' : 'they'} cannot
            ask you anything until {notReady.length === 1 ? 'it is' : 'they are'}:{' '}
            <a href="#servers">{notConnectedStep(notReady)}</a>.
          </li>
        ) : null}
        {hasProvider ? null : providerCount === 0 ? (
          <li>
            No LLM provider yet: <a href="#providers">add a provider</a> to chat in the Assistant and to run your
            servers’ model requests (until then, you write their replies here).
          </li>
        ) : (
          <li className="inbox-guide-no-model">
            None of your LLM providers lists a model: <a href="#providers">add a model to one</a> to chat in the
            Assistant and to run your servers’ model requests (until then, you write their replies here).
          </li>
        )}
      </ul>
    </div>
  );
}
