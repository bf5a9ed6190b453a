/* Imports nothing: the Desk takes it as a value, and a contract module that imports zod would
   bring zod's eval probe into the page, which its Content-Security-Policy reports. */

/** Every model name a provider can be asked for: its list, plus the default when unlisted. */
export function modelNamesOf(settings: { models: ReadonlyArray<{ name: string }>; defaultModel?: string }): string[] {
  const names = settings.models.map((m) => m.name);
  if (settings.defaultModel && !names.includes(settings.defaultModel)) names.unshift(settings.defaultModel);
  return names;
}
