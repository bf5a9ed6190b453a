import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';
import { assertNoViolations } from './axe-check.js';
import { buildRenderer, root, openDesk } from './renderer-build.js';

// The real tiny model beside the project (see test/integration/local-model.test.ts).
const MODEL = path.resolve(root, '../shared/models/stories260K.gguf');
const SCREENSHOT = path.join(root, '.tmp/provider-model-file.png');

/** The text of the error a field's `aria-describedby` names (`<id>-error`), or undefined when none shows. */
function fieldError(field: Locator): Promise<string | undefined> {
  return field.evaluate((element) => {
    const error = document.getElementById(`${element.id}-error`);
    return error && !error.hidden && element.getAttribute('aria-describedby')?.includes(error.id)
      ? (error.textContent ?? '')
      : undefined;
  });
}

describe('a model file on this computer as a provider, in the providers screen (real core, stories260K)', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let screen: Locator;
  let form: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    fixture = await startHostWith({}, { keyStore: new InMemoryKeyStore() });
    // 800 px wide: the narrow window the form must still read well in.
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      viewport: { width: 800, height: 1200 }
    }));
    await page.getByRole('link', { name: 'LLM providers' }).click();
    screen = page.getByRole('region', { name: 'LLM providers' });
    form = screen.getByRole('form', { name: /^(Add a provider|Edit )/ });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  it('refuses a relative path on the Model file field, then adds the file: its card names it and its model, and Test connection reads it', async () => {
    const kind = form.getByRole('group', { name: 'What the provider is' });
    assert.ok(await kind.getByRole('radio', { name: 'A server (OpenAI-compatible API)' }).isChecked());
    await kind.getByRole('radio', { name: 'A model file on this computer (GGUF)' }).check();
    // No address and no key for a file.
    assert.equal(await form.getByLabel('Base URL').count(), 0);
    assert.equal(await form.getByLabel('API key').count(), 0);
    assert.equal(await form.getByLabel('Token limit field').count(), 0);

    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Stories');
    const file = form.getByRole('textbox', { name: 'Model file' });
    await file.fill('models/stories260K.gguf');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await form.getByText('Give the model file’s full path').waitFor();
    assert.equal(await file.getAttribute('aria-invalid'), 'true');
    assert.equal(await fieldError(file), 'Give the model file’s full path');
    assert.ok(await file.evaluate((element) => element === document.activeElement), 'the focus is on the field');

    // At 800 px the form fits its width, the choice and the field with its hint and error in sight.
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      'nothing sticks out sideways'
    );
    assert.ok(await form.evaluate((element) => element.scrollWidth <= element.clientWidth), 'the form fits its box');
    await form.screenshot({ path: SCREENSHOT });

    await file.fill(MODEL);
    // One model in a file, named after it: no names to type, no other to add, no default to pick.
    const models = form.getByRole('group', { name: 'Model' });
    assert.equal(await models.getByLabel('Model 1 name').textContent(), 'stories260K');
    assert.equal(await models.getByRole('button', { name: 'Add model' }).isVisible(), false);
    assert.equal(await form.getByLabel('Default model').count(), 0);
    await models.getByLabel('Model 1 cost').fill('0');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const card = screen.locator('li[data-provider-id="stories"]');
    await card.getByRole('heading', { name: 'Stories' }).waitFor();
    const facts = card.locator('.facts');
    assert.equal(await facts.locator('dt', { hasText: 'Model file' }).locator('+ dd').textContent(), MODEL);
    assert.deepEqual(
      await card.getByRole('list', { name: 'Models listed for Stories' }).locator('li').allTextContents(),
      ['stories260K — cost 0']
    );
    const cardText = (await card.textContent()) ?? '';
    assert.match(cardText, /Runs on this computer/);
    assert.doesNotMatch(cardText, /Base URL|key|local-model\.invalid/i);

    await card.getByRole('button', { name: 'Test connection to Stories' }).click();
    const result = card.locator('.test-result[data-test="ok"]');
    await result.waitFor();
    assert.match((await result.locator('p').textContent()) ?? '', /^Found the model file\. It lists one model:$/);
    assert.deepEqual(await result.getByRole('list', { name: 'Models of Stories' }).locator('li').allTextContents(), [
      'stories260K'
    ]);

    await assertNoViolations(page, 'the providers screen with a model file’s card and the choice in the form');

    // Edit opens with the choice made and the path in its field.
    await card.getByRole('button', { name: 'Edit Stories' }).click();
    await form.getByRole('heading', { name: 'Edit Stories' }).waitFor();
    assert.ok(await form.getByRole('radio', { name: 'A model file on this computer (GGUF)' }).isChecked());
    assert.equal(await form.getByRole('textbox', { name: 'Model file' }).inputValue(), MODEL);
    assert.equal(await form.getByRole('group', { name: 'Model' }).getByLabel('Model 1 cost').inputValue(), '0');
    await form.getByRole('button', { name: 'Cancel editing' }).click();

    // Moved to a path with nothing there: the save checks it, and the card says why it fails.
    const missing = MODEL.replace('stories260K.gguf', 'nope.gguf');
    await card.getByRole('button', { name: 'Edit Stories' }).click();
    await form.getByRole('textbox', { name: 'Model file' }).fill(missing);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await card.locator('[data-health="failing"]').waitFor();
    assert.match(
      (await card.locator('.provider-health').textContent()) ?? '',
      new RegExp(
        `^Failing since .+: Stories: The model file ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} was not found\\.$`
      )
    );
    assert.deepEqual(pageErrors, []);
  });
});
