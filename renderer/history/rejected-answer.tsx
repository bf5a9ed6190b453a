import { ResultView } from './result-view.js';

/**
 * A model's answer the person rejected in review, as a task's detail on Tasks and its History
 * entry show it: what they rejected, which its server never got.
 */
export function RejectedAnswer({ answer, className }: { answer: Record<string, unknown>; className: string }) {
  return (
    <>
      <h4>Rejected answer</h4>
      <div className={className}>
        <ResultView result={answer} />
      </div>
    </>
  );
}
