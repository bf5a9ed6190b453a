import { useEffect, useRef, useState } from 'react';
import type { ImportSource } from '../../app/contract/server-settings.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDesk } from '../shell/desk-context.js';
import { foundWords, lookedWords } from './import-words.js';
import { ImportSourceCard } from './import-source-card.js';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * "Import from other apps": finds the MCP servers of Claude Desktop, Cursor and VS Code (and of
 * the project folders given, and pasted JSON), shows what each holds, and adds the picked ones.
 */
export function ImportPanel() {
  const { client, announce } = useDesk();
  const [projects, setProjects] = useState('');
  const [pasted, setPasted] = useState('');
  /** The pasted JSON of the last look: its card imports from it, and a look after an import reads it again. */
  const [lookedPasted, setLookedPasted] = useState('');
  const [sources, setSources] = useState<ImportSource[] | undefined>(undefined);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  /**
   * What was found lands below the fold, under the button: after the person's own look, the
   * focus goes to the heading of the results and they are brought into sight (a look again after
   * an import leaves the focus on what the import did).
   */
  const results = useRef<HTMLHeadingElement>(null);
  const [looked, setLooked] = useState(0);
  useEffect(() => {
    if (looked === 0) return;
    results.current?.focus({ preventScroll: true });
    results.current?.scrollIntoView({ block: 'start' });
  }, [looked]);

  const find = async (asked = false, text = pasted) => {
    if (busy) return;
    setBusy(true);
    clear();
    try {
      const projectDirs = lines(projects);
      const found = await client.call('servers.importFind', {
        ...(projectDirs.length > 0 && { projectDirs }),
        ...(text.trim() && { text })
      });
      setSources(found.sources);
      setLookedPasted(text);
      // The look after an import is quiet: the import says what it did, and its heading follows.
      if (asked) {
        announce(foundWords(found.sources));
        setLooked((n) => n + 1);
      }
    } catch (thrown) {
      fail('Could not look for servers.', thrown, 'Check the project folders and the pasted JSON, then look again.');
    } finally {
      setBusy(false);
    }
  };

  const readable = sources?.filter((source) => source.exists) ?? [];
  const missing = sources?.filter((source) => !source.exists) ?? [];
  const lookedIn = sources ? lookedWords(sources, { pasted: lookedPasted.trim() !== '' }) : [];
  return (
    <section className="import-panel" aria-labelledby="heading-import">
      <div className="import-intro">
        {/* Focusable for the first run's link to it (`#servers/import`), not a stop of Tab. */}
        <h3 id="heading-import" tabIndex={-1}>
          Import from other apps
        </h3>
        <p className="field-hint">
          Reads the servers of Claude Desktop, Cursor and VS Code where they keep them. Servers found start ticked,
          except those Taskdesk has already and those switched off in their app. Untick any you do not want. Nothing is
          added until you press Import.
        </p>
      </div>
      <div className="field-row">
        <FieldFrame
          name="projects"
          label="Project folders"
          hint="One a line: their .cursor/mcp.json and .vscode/mcp.json. A config file’s own path works too."
        >
          {(wiring) => (
            <textarea
              {...wiring}
              rows={2}
              value={projects}
              spellCheck={false}
              onChange={(event) => setProjects(event.target.value)}
            />
          )}
        </FieldFrame>
        <FieldFrame name="pasted" label="Or paste a config" hint="JSON with mcpServers, servers or mcp.servers.">
          {(wiring) => (
            <textarea
              {...wiring}
              rows={2}
              value={pasted}
              spellCheck={false}
              onChange={(event) => setPasted(event.target.value)}
            />
          )}
        </FieldFrame>
      </div>
      <ActionError failure={failure} onDismiss={clear} />
      <div className="actions">
        <button type="button" {...busyProps(busy)} onClick={() => void find(true)}>
          Look for servers
        </button>
      </div>
      {sources ? (
        <h4 id="heading-import-found" className="import-found" ref={results} tabIndex={-1}>
          {foundWords(sources)}
        </h4>
      ) : null}
      {readable.length > 0 ? (
        <ul className="cards import-sources" aria-labelledby="heading-import-found">
          {readable.map((source) => (
            <ImportSourceCard
              // A look the person asks for starts each config afresh; the look after an import keeps what it said.
              key={`${looked}:${source.kind}:${source.path ?? 'pasted'}`}
              source={source}
              pasted={lookedPasted}
              onImported={async (added) => {
                // The pasted JSON may hold secrets (an API key, a Bearer token): once its servers are
                // in, it leaves the box; its card keeps what it found. A failed import keeps it, to correct.
                if (source.kind === 'pasted' && added > 0) setPasted('');
                await find(false, lookedPasted);
              }}
            />
          ))}
        </ul>
      ) : null}
      {/* A project folder that is not there (or not a folder) is said once, rather than as its two files not found. */}
      {[...new Set(missing.flatMap((source) => (source.error === undefined ? [] : [source.error])))].map((error) => (
        <p key={error} className="reason">
          {error}.
        </p>
      ))}
      {/* Where no config was: information, quiet (after a paste, the apps' places are left out). */}
      {lookedIn.map((words) => (
        <p key={words} className="muted small-text import-looked">
          {words}
        </p>
      ))}
    </section>
  );
}
