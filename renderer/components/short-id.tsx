import { shortId } from './format.js';

/** A long id shortened in a `<code>`, the whole id in its tooltip. */
export function ShortId({ id }: { id: string }) {
  return <code title={id}>{shortId(id)}</code>;
}
