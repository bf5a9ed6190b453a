/* Imports nothing: the Desk takes it as a value, and a contract module that imports zod would
   bring zod's eval probe into the page, which its Content-Security-Policy reports. */

/** Every model name a provider can be asked for: its list, plus the default when unlisted. */
export function modelNamesOf(settings: { models: ReadonlyArray<{ name: string }>; defaultModel?: string }): string[] {
  const names = settings.models.map((m) => m.name);
  if (settings.defaultModel && !names.includes(settings.defaultModel)) names.unshift(settings.defaultModel);
  return names;
}

/**
 * Whether any provider lists a model to run: a provider saved with none (its model list could
 * not be read, none typed in) runs nothing, and counts as no provider for sampling and chats.
 */
export function anyModel(
  providers: ReadonlyArray<{ models: ReadonlyArray<{ name: string }>; defaultModel?: string }>
): boolean {
  return providers.some((provider) => modelNamesOf(provider).length > 0);
}
