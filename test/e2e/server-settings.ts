import type { Locator } from 'playwright-core';

/**
 * Opens a server card's settings (its sampling policy and folders), folded by default, as a
 * person does: by its "Settings" summary. Left as they are when open already (the card keeps
 * them open once opened).
 */
export async function openServerSettings(card: Locator): Promise<void> {
  const details = card.locator('details.server-settings');
  if (await details.evaluate((element) => (element as HTMLDetailsElement).open)) return;
  await details.locator('summary').click();
  await details.locator('fieldset.policy').waitFor();
}
