import { useState } from 'react';
import { focusScreenHeading } from '../components/focus-screen.js';
import { useDeskState } from './desk-context.js';
import { loadDismissedWarnings, saveDismissedWarnings, warningKey } from './dismissed-warnings.js';
import { NoticeStack } from './notice-stack.js';

/** This window's sessionStorage, or none where the page may not use it. */
function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * Why the page cannot hear the host, and the host's warnings (a corrupt file moved aside, work
 * that was running when Taskdesk last closed). Each warning has a Close (as every notice has): it stays closed in
 * this window, through a reload (see {@link loadDismissedWarnings}); the problem goes by itself.
 * Several keep to a compact stack, the newest first (see {@link NoticeStack}).
 */
export function Banners() {
  const problem = useDeskState((state) => state.problem);
  const warnings = useDeskState((state) => state.warnings);
  const [dismissed, setDismissed] = useState(() => loadDismissedWarnings(sessionStore()));
  const shown = warnings.filter((warning) => !dismissed.has(warningKey(warning)));
  return (
    <div className="banners">
      <div className="banner banner-warning" role="alert" hidden={!problem}>
        {problem ?? ''}
      </div>
      <NoticeStack
        noun="warning"
        notices={shown.map((warning) => ({
          key: warningKey(warning),
          notice: (
            <div className="banner banner-warning host-warning" role="alert">
              <div className="host-warning-text">
                <p>{warning.message}</p>
                {warning.movedTo ? (
                  <p className="muted">
                    The old file was kept at <code>{warning.movedTo}</code>
                  </p>
                ) : null}
              </div>
              <button
                type="button"
                onClick={() => {
                  const next = new Set(dismissed).add(warningKey(warning));
                  saveDismissedWarnings(sessionStore(), next);
                  setDismissed(next);
                  // The button goes with its warning: focus moves to the screen's heading, not to nowhere.
                  focusScreenHeading();
                }}
              >
                Close<span className="sr-only"> notice</span>
              </button>
            </div>
          )
        }))}
      />
    </div>
  );
}
