import type { ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';

/**
 * One screen's fault stays on that screen. Every screen is mounted at once (the hidden ones
 * keep their state), so without this a render error in one (an answer from the host it did not
 * expect) blanked the whole Desk, the navigation and the Inbox with it. The screen says what
 * happened under its own heading, which keeps its id and focus target, and offers to show it
 * again; React still reports the error on the console.
 */
export function ScreenBoundary({
  title,
  name,
  headingRef,
  children
}: {
  title: string;
  name: string;
  headingRef: (element: HTMLHeadingElement | null) => void;
  children: ReactNode;
}) {
  return (
    <ErrorBoundary
      fallbackRender={(props) => <ScreenFault {...props} title={title} name={name} headingRef={headingRef} />}
    >
      {children}
    </ErrorBoundary>
  );
}

function ScreenFault({
  error,
  resetErrorBoundary,
  title,
  name,
  headingRef
}: FallbackProps & { title: string; name: string; headingRef: (element: HTMLHeadingElement | null) => void }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <>
      <div className="screen-header">
        <h2 id={`heading-${name}`} tabIndex={-1} ref={headingRef}>
          {title}
        </h2>
      </div>
      <div className="banner banner-warning screen-fault" role="alert">
        <p>{`This screen stopped on a fault: ${message}`}</p>
        <p className="muted">
          Taskdesk goes on: its servers, tasks and the answers already sent are not touched, and the other screens still
          work. Show this one again, or reload the window if it stops again.
        </p>
        <button type="button" onClick={resetErrorBoundary}>
          Show it again
        </button>
      </div>
    </>
  );
}
