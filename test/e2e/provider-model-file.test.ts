import assert from 'node:assert/strict';
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { LOCAL_MODEL_BASE_URL } from '../../app/contract/providers.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { startHostWith, tempDir, type InMemoryHostFixture } from '../support/host-fixture.js';
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
    assert.equal(await models.locator('.file-model-name').textContent(), 'stories260K');
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

    // Moved to a path with nothing there: refused on the field, the form kept as typed; the
    // provider stays as it was.
    const missing = MODEL.replace('stories260K.gguf', 'nope.gguf');
    await card.getByRole('button', { name: 'Edit Stories' }).click();
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Stories moved');
    await form.getByRole('textbox', { name: 'Model file' }).fill(missing);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await refusedOn(form, 'No file at this path.', 'Stories was not saved.');
    assert.equal(await form.getByRole('textbox', { name: 'Name', exact: true }).inputValue(), 'Stories moved');
    assert.equal(await form.getByRole('textbox', { name: 'Model file' }).inputValue(), missing);
    assert.equal(await form.getByRole('heading', { level: 3 }).textContent(), 'Edit Stories');
    const stored = (await fixture.host.call('providers.list', {})).find((provider) => provider.id === 'stories');
    assert.equal(stored?.name, 'Stories');
    assert.equal(stored?.modelFile, MODEL);
    assert.equal(await card.locator('[data-health="failing"]').count(), 0);
    await form.getByRole('button', { name: 'Cancel editing' }).click();
    await form.getByRole('heading', { name: 'Add a provider' }).waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('refuses an Add whose path names no file, a folder or a file that is no model, on the Model file field, keeping what was typed', async () => {
    const other = tempDir();
    const notes = path.join(other.dir, 'notes.gguf');
    writeFileSync(notes, 'just some text');
    try {
      await form.getByRole('radio', { name: 'A model file on this computer (GGUF)' }).check();
      const name = form.getByRole('textbox', { name: 'Name', exact: true });
      const file = form.getByRole('textbox', { name: 'Model file' });
      await name.fill('Tales');
      // A typo: no such file.
      const typo = MODEL.replace('stories260K.gguf', 'stories260K-missing.gguf');
      for (const [typed, said] of [
        [typo, 'No file at this path.'],
        [path.dirname(MODEL), 'This is a folder, not a model file.'],
        [notes, 'This file is not a GGUF model file.']
      ] as const) {
        await file.fill(typed);
        await form.getByRole('button', { name: 'Add provider' }).click();
        await refusedOn(form, said, 'The provider was not added.');
        assert.equal(await file.inputValue(), typed, 'the path stays as typed');
        assert.equal(await name.inputValue(), 'Tales');
        assert.equal(await form.getByRole('textbox', { name: 'Id', exact: true }).inputValue(), 'tales');
        assert.ok(await form.getByRole('radio', { name: 'A model file on this computer (GGUF)' }).isChecked());
        assert.equal(await form.getByRole('heading', { level: 3 }).textContent(), 'Add a provider');
      }
      assert.equal(
        (await fixture.host.call('providers.list', {})).find((provider) => provider.id === 'tales'),
        undefined,
        'nothing added'
      );
      assert.equal(await screen.locator('li[data-provider-id="tales"]').count(), 0);
      await assertNoViolations(page, 'the providers form refusing a model file path');

      // Corrected in place, it is added.
      await file.fill(MODEL);
      await form.getByRole('button', { name: 'Add provider' }).click();
      const card = screen.locator('li[data-provider-id="tales"]');
      await card.getByRole('heading', { name: 'Tales' }).waitFor();
      await card.getByRole('list', { name: 'Models listed for Tales' }).waitFor();
      // Its file found, its model not yet run: the card does not say it answers.
      assert.equal(await card.locator('[data-health]').count(), 0);
      await fixture.host.call('providers.remove', { providerId: 'tales' });
      await card.waitFor({ state: 'detached' });
      assert.deepEqual(pageErrors, []);
    } finally {
      other.remove();
    }
  });

  it('still saves the name and ratings of a provider whose file went missing since, and says why it fails without naming it twice', async () => {
    const other = tempDir();
    const kept = path.join(other.dir, 'kept.gguf');
    copyFileSync(MODEL, kept);
    try {
      await fixture.host.call('providers.save', {
        id: 'kept',
        name: 'Kept',
        baseURL: LOCAL_MODEL_BASE_URL,
        modelFile: kept,
        models: []
      });
      const card = screen.locator('li[data-provider-id="kept"]');
      await card.getByRole('heading', { name: 'Kept' }).waitFor();
      // Moved away, or its disk unmounted.
      rmSync(kept);

      await card.getByRole('button', { name: 'Edit Kept' }).click();
      await form.getByRole('heading', { name: 'Edit Kept' }).waitFor();
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Kept renamed');
      await form.getByRole('group', { name: 'Model' }).getByLabel('Model 1 speed').fill('1');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await card.getByRole('heading', { name: 'Kept renamed' }).waitFor();
      await form.getByRole('heading', { name: 'Add a provider' }).waitFor();
      assert.deepEqual(
        await card.getByRole('list', { name: 'Models listed for Kept renamed' }).locator('li').allTextContents(),
        ['kept — speed 1']
      );
      // Its card says it fails, and why, once; the row's label fits a model file as well as a server.
      await card.locator('.card-header [data-health="failing"]').waitFor();
      const gone = `The model file ${kept} was not found.`;
      const health = card.locator('.provider-health');
      assert.equal(await health.evaluate((element) => element.previousElementSibling?.textContent), 'Status');
      const healthText = (await health.textContent()) ?? '';
      assert.match(healthText, new RegExp(`^Failing since .+: ${escaped(gone)}$`));
      assert.doesNotMatch(healthText, /Kept renamed/, 'the card’s heading names it');

      // Edit, opened to fix it, says why in the provider's own form: its name is the heading.
      await card.getByRole('button', { name: 'Edit Kept renamed' }).click();
      await form.getByRole('heading', { name: 'Edit Kept renamed' }).waitFor();
      assert.equal(
        await form.locator('.form-status-failed').textContent(),
        `No model could be listed when it was saved: ${gone}`
      );
      await form.getByRole('button', { name: 'Cancel editing' }).click();
      await form.getByRole('heading', { name: 'Add a provider' }).waitFor();
      // Test connection, the same.
      await card.getByRole('button', { name: 'Test connection to Kept renamed' }).click();
      const result = card.locator('.test-result[data-test="failed"]');
      await result.waitFor();
      assert.equal(await result.locator('p').first().textContent(), `The model file cannot be used: ${gone}`);
      await card.getByRole('button', { name: 'Edit Kept renamed' }).click();
      await form.getByRole('heading', { name: 'Edit Kept renamed' }).waitFor();
      assert.equal(await form.locator('.form-status-failed').textContent(), `The model file cannot be used: ${gone}`);
      await form.getByRole('button', { name: 'Cancel editing' }).click();
      await form.getByRole('heading', { name: 'Add a provider' }).waitFor();
      // Back in place, Remove says the file stays (a file has no key to delete), and leaves it.
      copyFileSync(MODEL, kept);
      await card.getByRole('button', { name: 'Remove Kept renamed' }).click();
      const removing = page.getByRole('dialog', { name: 'Remove Kept renamed?' });
      await removing
        .getByText(
          'Taskdesk forgets its settings; the model file itself stays where it is. Servers’ model requests no longer run on it.',
          { exact: true }
        )
        .waitFor();
      await removing.getByRole('button', { name: 'Remove' }).click();
      await card.waitFor({ state: 'detached' });
      assert.equal(existsSync(kept), true);
      assert.deepEqual(pageErrors, []);
    } finally {
      other.remove();
    }
  });
});

/** `text` as a regular expression that matches it exactly. */
function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Waits until the form refuses the save on its Model file field: the field says `said`, is marked
 * invalid and has the focus, and the form says `what` was not done.
 */
async function refusedOn(form: Locator, said: string, what: string): Promise<void> {
  const file = form.getByRole('textbox', { name: 'Model file' });
  await form.locator(`#${await file.getAttribute('id')}-error`, { hasText: said }).waitFor();
  assert.equal(await fieldError(file), said);
  assert.equal(await file.getAttribute('aria-invalid'), 'true');
  assert.ok(await file.evaluate((element) => element === document.activeElement), 'the focus is on the field');
  await form.getByText(what).waitFor();
}
