/**
 * A tool call's arguments in a line under its card's heading (`argumentsPreview`, as its row on
 * Tasks and its History entry say them): what tells apart calls of one tool running at once, whose
 * cards read alike otherwise. Cut to the card's width by the browser; the tooltip holds all the
 * line holds (calls that differ late in their arguments differ there). Nothing for a call without
 * arguments. `id`: the card's buttons are described by it (see {@link argumentsDescription}).
 */
export function CallArguments({ preview, id }: { preview: string | undefined; id?: string }) {
  if (preview === undefined) return null;
  return (
    <p className="call-arguments" id={id} title={preview}>
      <code>{preview}</code>
    </p>
  );
}

/**
 * The `aria-describedby` of a call card's buttons: its line of arguments, when it has one. Their
 * names say the tool and when the call started, to the second; two calls of one tool started in
 * the same second are told apart by what they were called with, as their cards are.
 */
export function argumentsDescription(preview: string | undefined, id: string): { 'aria-describedby'?: string } {
  return preview === undefined ? {} : { 'aria-describedby': id };
}
