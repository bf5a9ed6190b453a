import { shortId } from './format.js';

/** A long id shortened in a `<code>`, the whole id in its tooltip. */
export function ShortId({ id }: { id: string }) {
  return (
    <code className="short-id" title={id}>
      {shortId(id)}
    </code>
  );
}
