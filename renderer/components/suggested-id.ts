/**
 * The longest id suggested: the assistant offers a server's tools to a model as `id__tool`, in at
 * most 64 characters, so a long id would leave the tool's own name little room.
 */
const MAX_SUGGESTED = 32;

/**
 * The id an Add form suggests for a name, as it is typed: lower case, its letters (without their
 * accents) and digits, the rest turned into single dashes ("My Files (work)" → `my-files-work`),
 * which the id rule (`^[A-Za-z0-9_.-]{1,64}$`) accepts. An id `taken` already is numbered
 * (`github-2`). Empty for a name with no such letter: the person types the id.
 */
export function suggestedId(name: string, taken: ReadonlySet<string>): string {
  const base = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SUGGESTED)
    .replace(/^-+|-+$/g, '');
  if (!base || !taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
