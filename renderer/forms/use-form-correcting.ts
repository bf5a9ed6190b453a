import { useCallback, useRef } from 'react';
import type { Failure, FailureState } from '../components/action-error.js';
import { useCorrecting } from '../servers/use-correcting.js';

/** The form marks its fields itself as they change (see `useSchemaForm`): nothing more to set. */
export const MARKED_BY_THE_FORM = () => undefined;

/**
 * `useCorrecting` for a form that marks its own fields as they change (`useSchemaForm`): after a
 * submit that marked fields, the summary follows how many are marked (`problems`, as the form
 * stands at this render) and goes once none is, as the Servers forms' does. Said again with its
 * new count, it keeps what else it said at the submit: the host's messages that no field holds
 * (they are marked nowhere else), what to do next.
 *
 * `found` shows the submit's summary and starts following; `done` is for a submit that went through.
 */
export function useFormCorrecting(
  problems: ReadonlyArray<readonly [string, string]>,
  failure: Pick<FailureState, 'show' | 'clear'>
): { found: (summary: Failure, count: number) => void; done: () => void } {
  /** The summary as the submit said it. */
  const said = useRef<Failure | undefined>(undefined);
  const { show, clear } = failure;
  const recount = useCallback(
    (counted: Failure | undefined) =>
      show(counted && (said.current ? { ...said.current, what: counted.what } : counted)),
    [show]
  );
  const correcting = useCorrecting(problems, MARKED_BY_THE_FORM, { show: recount, clear });
  return {
    found: (summary, count) => {
      said.current = summary;
      show(summary);
      correcting.found(count);
    },
    done: correcting.done
  };
}
