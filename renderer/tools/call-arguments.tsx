/**
 * A tool call's arguments in a line under its card's heading (`argumentsPreview`, as its row on
 * Tasks and its History entry say them): what tells apart calls of one tool running at once, whose
 * cards read alike otherwise. Cut to the card's width by the browser; the tooltip holds all the
 * line holds (calls that differ late in their arguments differ there). Nothing for a call without
 * arguments.
 */
export function CallArguments({ preview }: { preview: string | undefined }) {
  if (preview === undefined) return null;
  return (
    <p className="call-arguments" title={preview}>
      <code>{preview}</code>
    </p>
  );
}
