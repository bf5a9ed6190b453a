import { useEffect, useId, useRef, useState } from 'react';
import { ActionError, failureOf, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk } from '../shell/desk-context.js';

/** As the host checks a folder (`RootFolderSchema`): a POSIX path, a drive's (`C:\\`) or a share's (`\\\\host`). */
function isAbsolutePath(folder: string): boolean {
  return folder.startsWith('/') || /^[A-Za-z]:[\\/]/.test(folder) || folder.startsWith('\\\\');
}

/**
 * The host's reason in words: a refusal of the call's own check reads "Invalid params for
 * roots.set: folders.0: A folder must be an absolute path", which names the method and the
 * field's place in the list; the person needs only what the folder lacks.
 */
function readableReason(message: string): string {
  return message
    .replace(/^Invalid params for [\w.]+: /, '')
    .split('; ')
    .map((issue) => issue.replace(/^folders(\.\d+)?: /, ''))
    .join('; ');
}

/**
 * The folders a server sees as its roots (`roots/list`, and a 2026-07-28 server's roots input
 * request), none by default. In the app a folder is picked with the system's dialog (through
 * the preload); in browser mode, where the page cannot reach the file system, its path is typed.
 * Each change is saved at once (`roots.set`); a connected server is told its roots changed. While
 * the card's Disconnect or Remove is on its way (`closing`), Add and Remove wait as the card's
 * buttons do (aria-disabled, the focus left where it is).
 */
export function ServerFolders({
  serverId,
  serverName,
  closing = false,
  onFolders
}: {
  serverId: string;
  serverName: string;
  /** The server is on its way out (a Disconnect or Remove of its card): nothing is saved meanwhile. */
  closing?: boolean;
  /** The folders as read or saved: the card's folded settings say how many. */
  onFolders?: (folders: string[]) => void;
}) {
  const { client, announce } = useDesk();
  const [folders, setFolders] = useState<string[] | undefined>(undefined);
  useEffect(() => {
    if (folders) onFolders?.(folders);
  }, [folders, onFolders]);
  const [typed, setTyped] = useState('');
  const { failure, fail, show, clear } = useFailure();
  /** What the typed path lacks, said on the field before anything is sent. */
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const picker = typeof window !== 'undefined' ? window.taskdesk?.pickFolder : undefined;
  /** Where the focus goes once a folder is added or removed (the button pressed is gone or disabled). */
  const landing = useRef<HTMLInputElement & HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    client.call('roots.get', { serverId }).then(
      (result) => live && setFolders(result.folders),
      (thrown: unknown) =>
        live && fail(`Could not read the folders of ${serverName}.`, thrown, 'Open the Servers screen again to retry.')
    );
    return () => {
      live = false;
    };
  }, [client, serverId, serverName, fail]);

  const save = async (next: string[], said: string): Promise<boolean> => {
    clear();
    try {
      const result = await client.call('roots.set', { serverId, folders: next });
      setFolders(result.folders);
      announce(said);
      return true;
    } catch (thrown) {
      const failure = failureOf(
        `The folders of ${serverName} were not saved.`,
        thrown,
        'Check the path (a folder that exists on this computer), then add it again.'
      );
      show(failure.why === undefined ? failure : { ...failure, why: readableReason(failure.why) });
      return false;
    }
  };

  const add = async (folder: string) => {
    const trimmed = folder.trim();
    if (!trimmed || !folders || closing) return;
    if (!isAbsolutePath(trimmed)) {
      clear();
      setFieldError(
        `${trimmed} is not an absolute path: give the folder’s full path, from the top of the disk (such as /home/me/project).`
      );
      landing.current?.focus();
      return;
    }
    setFieldError(undefined);
    if (await save([...folders, trimmed], `${serverName} now sees the folder ${trimmed}.`)) {
      setTyped('');
      landing.current?.focus();
    }
  };

  const remove = async (folder: string) => {
    if (!folders || closing) return;
    const kept = folders.filter((other) => other !== folder);
    if (await save(kept, `${serverName} no longer sees the folder ${folder}.`)) landing.current?.focus();
  };

  const pick = async () => {
    if (closing) return;
    const folder = await picker?.();
    if (folder) await add(folder);
  };

  return (
    <fieldset className="field folders" aria-busy={folders === undefined || undefined}>
      <legend>
        Folders<span className="sr-only"> {serverName} may see</span>
      </legend>
      <p className="field-hint">The folders this server is told it may work in (its roots). None unless you add one.</p>
      {folders && folders.length > 0 ? (
        <ul className="folder-list">
          {folders.map((folder) => (
            <li key={folder}>
              <code>{folder}</code>{' '}
              {/* Plain, as an env row's Remove: the server's own red Remove is a few lines below. */}
              <button
                type="button"
                className="small"
                aria-label={`Remove the folder ${folder} from ${serverName}`}
                {...busyProps(closing)}
                onClick={() => void remove(folder)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : folders ? (
        <p className="muted folder-none">No folders.</p>
      ) : null}
      {picker ? (
        <button type="button" ref={landing} disabled={!folders} {...busyProps(closing)} onClick={() => void pick()}>
          Add folder…
        </button>
      ) : (
        <form
          className="folder-add"
          onSubmit={(event) => {
            event.preventDefault();
            void add(typed);
          }}
        >
          <label htmlFor={inputId}>Folder path</label>
          <input
            id={inputId}
            ref={landing}
            type="text"
            value={typed}
            placeholder="/home/me/project"
            spellCheck={false}
            disabled={!folders}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? errorId : undefined}
            onChange={(event) => {
              setTyped(event.target.value);
              // The message goes once the path is right, or changes with it.
              if (fieldError !== undefined && isAbsolutePath(event.target.value.trim())) setFieldError(undefined);
            }}
          />
          <button type="submit" disabled={!folders || typed.trim() === ''} {...busyProps(closing)}>
            Add folder
          </button>
          <p className="field-error" id={errorId} hidden={!fieldError}>
            {fieldError ?? ''}
          </p>
        </form>
      )}
      <ActionError failure={failure} onDismiss={clear} />
    </fieldset>
  );
}
