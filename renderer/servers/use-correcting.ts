import { useEffect, useRef } from 'react';
import { correctingFailure, type FailureState } from '../components/action-error.js';

/**
 * After a submit that found fields to correct, checks them again at every change: each field's
 * message follows what is typed, and the summary ("2 fields need correcting.") follows their
 * number (said again only when the number changes, so typing does not repeat the alert), going
 * once none is left. Before such a submit, typing marks nothing.
 *
 * `problems` are the form's problems as it stands, worked out at each render by the caller.
 * `found` is for the submit that showed them; `done` for one that went through.
 */
export function useCorrecting<F extends string>(
  problems: ReadonlyArray<readonly [F, string]>,
  setErrors: (errors: Partial<Record<F, string>>) => void,
  failure: Pick<FailureState, 'show' | 'clear'>
): { found: (count: number) => void; done: () => void } {
  /** How many the summary says, while the person is correcting; undefined otherwise. */
  const shown = useRef<number | undefined>(undefined);
  const key = JSON.stringify(problems);
  const { show, clear } = failure;
  useEffect(() => {
    if (shown.current === undefined) return;
    setErrors(Object.fromEntries(problems) as Partial<Record<F, string>>);
    if (problems.length === 0) {
      shown.current = undefined;
      clear();
    } else if (problems.length !== shown.current) {
      shown.current = problems.length;
      show(correctingFailure(problems.length));
    }
    // `key` stands for `problems`, which the caller makes anew at every render.
  }, [key, setErrors, show, clear]);
  return {
    found: (count) => {
      shown.current = count;
    },
    done: () => {
      shown.current = undefined;
    }
  };
}
