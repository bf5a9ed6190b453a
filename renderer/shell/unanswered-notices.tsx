import { useDesk, useDeskState } from './desk-context.js';

/** Questions that expired before anyone answered: said once each, until the person dismisses it. */
export function UnansweredNotices() {
  const { store } = useDesk();
  const unanswered = useDeskState((state) => state.unanswered);
  if (unanswered.length === 0) return null;
  return (
    <div className="banners" role="status">
      {unanswered.map((entry) => (
        <div className="banner banner-warning notice-unanswered" key={entry.id} data-history-id={entry.id}>
          <p>
            “{entry.title}” from {entry.serverName} expired unanswered — see <a href="#history">History</a>.
          </p>
          <button type="button" onClick={() => store.dispatch({ type: 'notice-dismissed', id: entry.id })}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
