import { useId, useState } from 'react';
import { focusScreenHeading } from '../components/focus-screen.js';
import { useDeskState } from './desk-context.js';
import { loadDismissedWarnings, saveDismissedWarnings, warningKey, type HostWarning } from './dismissed-warnings.js';
import { NoticeClose, NoticeStack } from './notice-stack.js';

/** This window's sessionStorage, or none where the page may not use it. */
function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * Why the page cannot hear the host or load from it ("Lost contact with Taskdesk…"), in the
 * block that stays at the top of the window (see `useStickyTop`): on a page scrolled down it is
 * in sight, where the page would otherwise look alive until an action failed. The one alert
 * stays in the page while all is well (hidden), so that its words are said once as they come;
 * it goes by itself.
 */
export function ConnectionNotice() {
  const problem = useDeskState((state) => state.problem);
  return (
    <div className="connection-notice" hidden={!problem}>
      <div className="banner banner-warning" role="alert">
        {problem ?? ''}
      </div>
    </div>
  );
}

/**
 * The host's warnings (a corrupt file moved aside, work that was running when Taskdesk last
 * closed). Each has a Close (as every notice has): it stays closed in this window, through a
 * reload (see {@link loadDismissedWarnings}). Several keep to a compact stack, the newest first
 * (see {@link NoticeStack}). Why the page cannot hear the host is told by {@link ConnectionNotice}.
 */
export function Banners() {
  const warnings = useDeskState((state) => state.warnings);
  const [dismissed, setDismissed] = useState(() => loadDismissedWarnings(sessionStore()));
  const shown = warnings.filter((warning) => !dismissed.has(warningKey(warning)));
  return (
    <div className="banners">
      <NoticeStack
        noun="warning"
        notices={shown.map((warning) => ({
          key: warningKey(warning),
          notice: (
            <WarningNotice
              warning={warning}
              close={() => {
                const next = new Set(dismissed).add(warningKey(warning));
                saveDismissedWarnings(sessionStore(), next);
                setDismissed(next);
              }}
            />
          )
        }))}
      />
    </div>
  );
}

/** One of the host's warnings: its words, where a file was kept, its links, and its Close (described by the words, see {@link NoticeClose}). */
function WarningNotice({ warning, close }: { warning: HostWarning; close: () => void }) {
  const textId = useId();
  const movedId = useId();
  return (
    <div className="banner banner-warning host-warning" role="alert">
      <div className="host-warning-text">
        <p id={textId}>{warning.message}</p>
        {warning.movedTo ? (
          <p className="muted" id={movedId}>
            The old file was kept at <code>{warning.movedTo}</code>
          </p>
        ) : null}
        <WarningLinks links={warning.links} />
      </div>
      <NoticeClose close={close} describedBy={warning.movedTo ? `${textId} ${movedId}` : textId} />
    </div>
  );
}

/**
 * A warning's links to the Desk screens it sends the person to, after its words and before its
 * Close. Only Desk addresses (`#providers`) are links: anything else a warning might carry is left out.
 */
function WarningLinks({ links }: { links: HostWarning['links'] }) {
  const inDesk = (links ?? []).filter((link) => link.href.startsWith('#'));
  if (inDesk.length === 0) return null;
  return (
    <ul className="host-warning-links">
      {inDesk.map((link) => (
        <li key={link.href}>
          <a
            href={link.href}
            onClick={(event) => {
              // To the screen already shown: no address changes, so nothing would. The person is
              // taken to its top as the link would take them there from another screen.
              if (location.hash !== link.href) return;
              event.preventDefault();
              focusScreenHeading();
            }}
          >
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
