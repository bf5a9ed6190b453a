import { useDeskState } from './desk-context.js';

/** Why the page cannot hear the host, and warnings about stored data (a corrupt file moved aside). */
export function Banners() {
  const problem = useDeskState((state) => state.problem);
  const warnings = useDeskState((state) => state.warnings);
  return (
    <>
      <div className="banner banner-warning" role="alert" hidden={!problem}>
        {problem ?? ''}
      </div>
      <div className="banners">
        {warnings.map((warning, index) => (
          <div className="banner banner-warning" role="alert" key={index}>
            <p>{warning.message}</p>
            {warning.movedTo ? (
              <p className="muted">
                The old file was kept at <code>{warning.movedTo}</code>
              </p>
            ) : null}
          </div>
        ))}
      </div>
    </>
  );
}
