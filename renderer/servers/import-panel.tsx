import { useEffect, useRef, useState } from 'react';
import { MAX_IMPORT_TEXT } from '../../app/contract/import-limits.js';
import type { ChosenConfig, ImportOrigin, ImportSource } from '../../app/contract/server-settings.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDesk } from '../shell/desk-context.js';
import { foundWords, lookedWords, tooBigWords } from './import-words.js';
import { ImportSourceCard } from './import-source-card.js';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * "Import from other apps": finds the MCP servers of Claude Desktop, Cursor and VS Code (and of
 * the project folders and config files given, a config file chosen, and pasted JSON), shows what
 * each holds, and adds the picked ones.
 *
 * A config file chosen ("Choose a config file…") is read here, in the page (`File.text()`: a
 * browser gives no path, and the Electron window shows the same page), and its text goes to the
 * core as pasted text does, with its name; it is looked at at once, and not again by a later
 * Look for servers (only by the look after an import from it, to show what is in Taskdesk now).
 */
export function ImportPanel() {
  const { client, announce } = useDesk();
  const [projects, setProjects] = useState('');
  const [pasted, setPasted] = useState('');
  /** The pasted JSON of the last look: its card imports from it, and a look after an import reads it again. */
  const [lookedPasted, setLookedPasted] = useState('');
  /** The config file chosen for the last look, as read then: its card imports from it, as the pasted one's does. */
  const [lookedFile, setLookedFile] = useState<ChosenConfig | undefined>(undefined);
  const chooser = useRef<HTMLInputElement>(null);
  const [sources, setSources] = useState<ImportSource[] | undefined>(undefined);
  const { failure, fail, show, clear } = useFailure();
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

  const find = async (asked = false, text = pasted, file?: ChosenConfig) => {
    if (busy) return;
    setBusy(true);
    clear();
    try {
      const projectDirs = lines(projects);
      const found = await client.call('servers.importFind', {
        ...(projectDirs.length > 0 && { projectDirs }),
        ...(file && { file }),
        ...(text.trim() && { text })
      });
      setSources(found.sources);
      setLookedPasted(text);
      setLookedFile(file);
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

  /** Reads the config file chosen, in the page, and looks at it with what the fields give. */
  const choose = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // Read now, once: choosing the same file again (changed since) is a new choice, and a change.
    input.value = '';
    if (!file || busy) return;
    clear();
    // Its size is known before it is read: a far bigger file is not a config, and is not read at all.
    if (file.size > MAX_IMPORT_TEXT) {
      show({
        what: `Could not read ${file.name}.`,
        why: tooBigWords(file.size, MAX_IMPORT_TEXT),
        next: 'Choose the app’s config file itself, such as claude_desktop_config.json or mcp.json.'
      });
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (thrown) {
      fail(`Could not read ${file.name}.`, thrown, 'Choose it again.');
      return;
    }
    await find(true, pasted, { name: file.name, text });
  };

  /** Where a config's card imports from: its file by path, or the text the last look read. */
  const originOf = (source: ImportSource): ImportOrigin =>
    source.path !== undefined
      ? { path: source.path }
      : source.kind === 'pasted' || lookedFile === undefined
        ? { text: lookedPasted }
        : { text: lookedFile.text, name: lookedFile.name };

  const readable = sources?.filter((source) => source.exists) ?? [];
  const missing = sources?.filter((source) => !source.exists) ?? [];
  const lookedIn = sources
    ? lookedWords(sources, { pasted: lookedPasted.trim() !== '' || lookedFile !== undefined })
    : [];
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
          label="Project folders or config files"
          hint="One a line: a project’s folder, for its .cursor/mcp.json and .vscode/mcp.json, or a config file’s own path."
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
        <button
          type="button"
          {...busyProps(busy)}
          onClick={() => {
            if (!busy) chooser.current?.click();
          }}
        >
          Choose a config file…
        </button>
        {/* The button above opens it: the person's way to it, by mouse or keyboard, with words of ours. */}
        <input
          ref={chooser}
          type="file"
          accept=".json,application/json"
          hidden
          tabIndex={-1}
          aria-label="Config file to import"
          onChange={(event) => void choose(event.currentTarget)}
        />
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
              key={`${looked}:${source.kind}:${source.path ?? source.label}`}
              source={source}
              origin={originOf(source)}
              onImported={async (added) => {
                // The pasted JSON may hold secrets (an API key, a Bearer token): once its servers are
                // in, it leaves the box; its card keeps what it found. A failed import keeps it, to correct.
                if (source.kind === 'pasted' && added > 0) setPasted('');
                await find(false, lookedPasted, lookedFile);
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
