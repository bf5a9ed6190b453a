import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';
import { buildRenderer, root, openDesk } from './renderer-build.js';

const SCREENSHOT = path.join(root, '.tmp/providers.png');
const KEY = 'sk-test-0123456789';

/** Whether the element has the focus. */
function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement);
}

describe('the LLM providers screen, against the real core and OpenAI-compatible servers on loopback', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  /** A hosted service that wants a key. */
  let cloud: FakeOpenAIServer;
  /** A keyless local server on the port detection probes. */
  let local: FakeOpenAIServer;
  let keys: InMemoryKeyStore;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let screen: Locator;
  let form: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    cloud = await FakeOpenAIServer.start({ models: ['fake-small', 'fake-large'], apiKey: KEY });
    local = await FakeOpenAIServer.start({ models: ['llama3.2:3b'] });
    keys = new InMemoryKeyStore();
    // The fake server answers at once; 800 ms per probe is too little only for a loaded CI machine.
    fixture = await startHostWith(
      {},
      {
        keyStore: keys,
        localLlmPorts: [{ id: 'ollama', name: 'Ollama', port: local.port }],
        localLlmProbeTimeoutMs: 15_000
      }
    );
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 }
    }));
    await page.getByRole('link', { name: 'LLM providers' }).click();
    screen = page.getByRole('region', { name: 'LLM providers' });
    form = screen.getByRole('form', { name: /^(Add a provider|Edit )/ });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    await cloud?.close();
    await local?.close();
    built?.remove();
  });

  it('adds a provider with a key and rated models; the key is stored, never shown', async () => {
    await screen.getByText(/^No provider yet/).waitFor();
    // Servers' requests for a model named as the rest of the Desk names them, not the protocol's "sampling".
    assert.match((await screen.locator('.lede').textContent()) ?? '', /they answer servers’ model requests\. /);
    assert.match(
      (await screen.getByText(/^No provider yet/).textContent()) ?? '',
      /^No provider yet: the Assistant has no model to chat with, and servers’ model requests are answered by a person\./
    );
    await form.getByRole('button', { name: 'Add provider' }).click();
    // Name and Base URL: the Id, filled in from the Name, is not one more thing to correct.
    await form.getByText('2 fields need correcting.').waitFor();
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    const id = form.getByRole('textbox', { name: 'Id', exact: true });
    assert.deepEqual(
      [
        await name.getAttribute('aria-invalid'),
        await id.getAttribute('aria-invalid'),
        await form.getByLabel('Base URL').getAttribute('aria-invalid')
      ],
      ['true', null, 'true']
    );
    assert.ok(await isFocused(name), 'focus on the first to correct');
    assert.ok(
      await name.evaluate(
        (field, other) => !!(field.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING),
        await id.elementHandle()
      ),
      'Name before Id'
    );

    // The Id is filled in from the Name as it is typed, until the person types one. A field
    // corrected says so at once: its mark goes, and the summary counts what is left.
    await name.fill('Cloud LLM');
    assert.equal(await id.inputValue(), 'cloud-llm');
    await form.getByText('One field needs correcting.').waitFor();
    assert.equal(await name.getAttribute('aria-invalid'), null);
    await form.getByLabel('Base URL').fill('ftp://cloud.example');
    await form.getByText('Enter an http:// or https:// URL').waitFor();
    assert.equal(await form.getByLabel('Base URL').getAttribute('aria-invalid'), 'true');
    await id.fill('cloud');
    await name.fill('Cloud');
    await name.fill('Cloud LLM');
    assert.equal(await id.inputValue(), 'cloud', 'the Id typed stays');
    await form.getByLabel('Base URL').fill(cloud.baseURL);
    await form.getByLabel('API key').fill(KEY);
    assert.equal(await form.getByLabel('API key').getAttribute('type'), 'password');
    await form.getByLabel('Model 1 name').fill('fake-small');
    await form.getByLabel('Model 1 cost').fill('1.5');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await form.getByText('Model 1: cost must be a number from 0 to 1').waitFor();
    await form.getByLabel('Model 1 cost').fill('0.2');
    await form.getByLabel('Model 1 speed').fill('0.9');
    await form.getByRole('button', { name: 'Add model' }).click();
    assert.ok(
      await form.getByLabel('Model 2 name').evaluate((element) => element === document.activeElement),
      'focus goes to the new row'
    );
    await form.getByLabel('Model 2 name').fill('fake-large');
    await form.getByLabel('Model 2 intelligence').fill('0.95');
    await form.getByLabel('Default model').selectOption('fake-large');
    await form.getByRole('button', { name: 'Add provider' }).click();

    const card = screen.locator('li[data-provider-id="cloud"]');
    await card.getByRole('heading', { name: 'Cloud LLM' }).waitFor();
    assert.equal(await card.locator('[data-key]').textContent(), 'Key stored');
    assert.match(
      (await card.locator('.facts').textContent()) ?? '',
      /fake-small — cost 0\.2 · speed 0\.9.*fake-large — intelligence 0\.95/s
    );
    assert.equal(await form.getByLabel('API key').inputValue(), '', 'the form is cleared');
    assert.equal(await keys.get('cloud'), KEY);
    const [saved] = await fixture.host.call('providers.list', {});
    assert.deepEqual(saved, {
      id: 'cloud',
      name: 'Cloud LLM',
      baseURL: cloud.baseURL,
      models: [
        { name: 'fake-small', ratings: { cost: 0.2, speed: 0.9 } },
        { name: 'fake-large', ratings: { intelligence: 0.95 } }
      ],
      defaultModel: 'fake-large',
      hasKey: true
    });
    assert.ok(!(await page.content()).includes(KEY), 'the key is nowhere in the page');
  });

  it('refuses an Add under an id in use: the Id field says by whom, and the provider and its key stay', async () => {
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('cloud');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Other thing');
    await form.getByLabel('Base URL').fill('not a url');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await form.getByText('One field needs correcting.').waitFor();
    assert.ok(await isFocused(form.getByLabel('Base URL')), 'focus on the field to correct, not on Add provider');

    await form.getByLabel('Base URL').fill(local.baseURL);
    await form.getByRole('button', { name: 'Add provider' }).click();
    const id = form.getByRole('textbox', { name: 'Id', exact: true });
    const said = 'Id already used by Cloud LLM: choose another, or edit that provider.';
    await form.locator('.field-error', { hasText: said }).waitFor();
    assert.equal(await id.getAttribute('aria-invalid'), 'true');
    assert.ok(await isFocused(id), 'focus on the Id field');
    assert.equal(await form.getByRole('heading', { level: 3 }).textContent(), 'Add a provider', 'the form stays');
    const [kept] = await fixture.host.call('providers.list', {});
    assert.equal(kept!.name, 'Cloud LLM');
    assert.equal(kept!.baseURL, cloud.baseURL);
    assert.equal(await keys.get('cloud'), KEY);
    assert.equal(await screen.locator('li.provider').count(), 1);
  });

  it('tests the connection with the stored key and shows the models', async () => {
    const card = screen.locator('li[data-provider-id="cloud"]');
    await card.getByRole('button', { name: 'Test connection to Cloud LLM' }).click();
    const result = card.locator('.test-result[data-test="ok"]');
    await result.waitFor();
    // In the card's words ("It lists 2 models: …"), the list naming them all.
    assert.equal(await result.locator('p').first().textContent(), 'Connected. It lists 2 models:');
    assert.deepEqual(
      await result.getByRole('list', { name: 'Models of Cloud LLM' }).getByRole('listitem').allTextContents(),
      ['fake-small', 'fake-large']
    );
    assert.equal(cloud.requests.at(-1)!.authorization, `Bearer ${KEY}`);
    await card.locator('.card-header [data-health="answering"]').getByText('Answering', { exact: true }).waitFor();
    assert.match((await card.locator('.provider-health').textContent()) ?? '', /^Answering since \S.*$/);
  });

  it('edits a provider leaving the key field empty: the stored key is kept', async () => {
    const card = screen.locator('li[data-provider-id="cloud"]');
    assert.equal(
      await card.locator('.test-result[data-test="ok"]').count(),
      1,
      'the test before this one left its result'
    );
    await card.getByRole('button', { name: 'Edit Cloud LLM' }).click();
    await form.getByRole('heading', { name: 'Edit Cloud LLM' }).waitFor();
    // What it said is about the settings now being edited (its address, its key): it goes.
    await card.locator('.test-result[data-test]').waitFor({ state: 'detached' });
    assert.ok(
      await form
        .getByRole('heading', { name: 'Edit Cloud LLM' })
        .evaluate((element) => element === document.activeElement),
      'focus moves to the form'
    );
    assert.equal(await form.getByRole('textbox', { name: 'Id', exact: true }).getAttribute('readonly'), '');
    assert.equal(await form.getByLabel('API key').inputValue(), '');
    assert.equal(await form.getByLabel('Model 2 intelligence').inputValue(), '0.95');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Cloud LLM (team)');
    await form.getByLabel('Model 1 speed').fill('');
    await form.getByRole('button', { name: 'Remove model 2' }).click();
    assert.equal(
      await form.getByLabel('Default model').inputValue(),
      'fake-large',
      'the default stays although unlisted'
    );
    await form.getByRole('button', { name: 'Save changes' }).click();
    await card.getByRole('heading', { name: 'Cloud LLM (team)' }).waitFor();
    assert.equal(await form.getByRole('heading').first().textContent(), 'Add a provider');

    const [saved] = await fixture.host.call('providers.list', {});
    assert.deepEqual(saved!.models, [{ name: 'fake-small', ratings: { cost: 0.2 } }]);
    assert.equal(saved!.hasKey, true);
    assert.equal(await keys.get('cloud'), KEY, 'the empty key field kept the key');

    await card.getByRole('button', { name: 'Test connection to Cloud LLM (team)' }).click();
    await card.locator('.test-result[data-test="ok"]').waitFor();
    // The server lists a model the provider does not: one click adds it.
    await card.getByRole('button', { name: 'Add fake-large to the list' }).click();
    // The default model and the test result show 'fake-large' already: look in the provider's own list.
    await card
      .getByRole('list', { name: 'Models listed for Cloud LLM (team)' })
      .getByText('fake-large', { exact: true })
      .waitFor();
    // Its button went with the model it offered: the focus is on the card's next control, not on the page.
    await card.getByRole('button', { name: 'Add fake-large to the list' }).waitFor({ state: 'detached' });
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'Test connection to Cloud LLM (team)'
    );
  });

  it('deletes the stored key when an edit moves the provider to another address without a new one, and says so', async () => {
    const card = screen.locator('li[data-provider-id="cloud"]');
    const keyWas = new URL(cloud.baseURL).host;
    await card.getByRole('button', { name: 'Edit Cloud LLM (team)' }).click();
    await form.getByLabel('Base URL').fill(local.baseURL);
    // Said before the save, by the key field.
    await form
      .getByText(`The stored key is for ${keyWas}: saved with this new address, the provider loses it.`, {
        exact: false
      })
      .waitFor();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await card.locator('[data-key="false"]').waitFor();
    assert.equal(await keys.get('cloud'), undefined);
    // And after it: the form is open again on the provider, at its key field, saying what happened.
    await form.getByRole('heading', { name: 'Edit Cloud LLM (team)' }).waitFor();
    const said = `The key was for ${keyWas}, so it was deleted: enter it again for the new address if it needs one.`;
    await form.getByText(said).waitFor();
    assert.ok(await isFocused(form.getByLabel('API key')), 'focus on the key field');
    assert.equal(
      await form
        .getByLabel('API key')
        .evaluate((field) => document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent),
      said,
      'the field is described by it'
    );
    await card.getByRole('button', { name: 'Test connection to Cloud LLM (team)' }).click();
    await card.locator('.test-result[data-test="ok"]').waitFor();
    // The models it lists that this server does not offer: said, with what to do.
    assert.equal(
      await card.locator('.test-missing').textContent(),
      'Not offered by this server: fake-small, fake-large. A conversation or model request that asks for one of them will fail; choose another model, or remove them with Edit.'
    );
    assert.ok(local.requests.length > 0);
    assert.ok(
      local.requests.every((request) => request.authorization === undefined),
      'the new address never saw the key'
    );

    // Back to its own address, with its key typed again.
    await form.getByLabel('Base URL').fill(cloud.baseURL);
    await form.getByLabel('API key').fill(KEY);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByRole('heading', { name: 'Add a provider' }).waitFor();
    await card.locator('[data-key="true"]').waitFor();
    assert.equal(await keys.get('cloud'), KEY);
    const [dropped] = await fixture.host.call('audit.read', { type: 'provider.key-dropped' });
    assert.deepEqual(dropped?.detail, {
      providerId: 'cloud',
      keyOrigin: new URL(cloud.baseURL).origin,
      baseURL: local.baseURL
    });
  });

  it('deletes a stored key on request, keeping the provider', async () => {
    const card = screen.locator('li[data-provider-id="cloud"]');
    await card.getByRole('button', { name: 'Delete the stored key of Cloud LLM (team)' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the key of Cloud LLM (team)?' })
      .getByRole('button', { name: 'Delete key' })
      .click();
    await card.locator('[data-key="false"]').waitFor();
    // Delete key is gone with the key: the focus is on Edit, not on the page.
    await page.waitForFunction(() => document.activeElement?.classList.contains('provider-edit') === true);
    assert.equal(await keys.get('cloud'), undefined);
    assert.equal((await fixture.host.call('providers.list', {}))[0]!.hasKey, false);
  });

  it('shows why a connection test failed', async () => {
    await fixture.host.call('providers.save', {
      id: 'nowhere',
      name: 'Nowhere',
      baseURL: 'http://127.0.0.1:9/v1',
      models: []
    });
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('link', { name: 'LLM providers' }).click();
    // The list is fetched when the app starts; a provider saved behind its back shows after a refresh.
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    const card = screen.locator('li[data-provider-id="nowhere"]');
    // Saved with no model, it says it cannot be used so, and how to list one.
    assert.match(
      (await card.locator('.provider-no-model').textContent()) ?? '',
      /^None listed: Taskdesk cannot use this provider until one is\. Test connection lists/
    );
    await card.getByRole('button', { name: 'Test connection to Nowhere' }).click();
    const result = card.locator('.test-result[data-test="failed"]');
    await result.waitFor();
    assert.match((await result.textContent()) ?? '', /^Connection failed: .+/);
    // In words only: no bare code of the failure's kind ("unreachable") under the sentence.
    assert.equal(await result.locator('p').count(), 1);
    // The card's header says it fails, and its facts since when: seen in the list of providers,
    // whichever call failed (a test here; a conversation or a server's model request too). Why is
    // said once: by the test's sentence, which the facts do not repeat.
    await card.locator('.card-header [data-health="failing"]').getByText('Failing', { exact: true }).waitFor();
    const since = await card.locator('.provider-health time').textContent();
    assert.equal(await card.locator('.provider-health').textContent(), `Failing since ${since}`);
    const why = ((await result.textContent()) ?? '').replace(/^Connection failed: /, '');
    assert.equal(((await card.textContent()) ?? '').split(why).length - 1, 1, `said once: ${why}`);
    // With no test result in sight (a new window), the facts say why again.
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await card.locator('.test-result[data-test]').waitFor({ state: 'detached' });
    assert.equal(await card.locator('.provider-health').textContent(), `Failing since ${since}: ${why}`);

    await card.getByRole('button', { name: 'Remove Nowhere' }).click();
    const removing = page.getByRole('dialog', { name: 'Remove Nowhere?' });
    // It has no key to delete: only its settings are said.
    await removing
      .getByText('Taskdesk forgets its settings. Servers’ model requests no longer run on it.', { exact: true })
      .waitFor();
    await removing.getByRole('button', { name: 'Remove' }).click();
    await card.waitFor({ state: 'detached' });
    assert.deepEqual(
      (await fixture.host.call('providers.list', {})).map((p) => p.id),
      ['cloud']
    );
  });

  it('puts the focus on the provider’s card after Add provider and after Save changes, not on the page', async () => {
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('spare');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Spare');
    await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await form.getByRole('button', { name: 'Add provider' }).press('Enter');
    const card = screen.locator('li[data-provider-id="spare"]');
    await card.waitFor();
    // The form is new again once the save is done: the focus has gone wherever it goes by then.
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('.provider-form input[name="id"]')?.value === ''
    );
    // Moved once the list shows the provider, which may be after the form is new again: waited for.
    await card.locator(':focus').waitFor();

    await card.getByRole('button', { name: 'Edit Spare' }).press('Enter');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Spare (renamed)');
    await form.getByRole('button', { name: 'Save changes' }).press('Enter');
    await card.getByRole('heading', { name: 'Spare (renamed)' }).waitFor();
    await form.getByRole('heading', { name: 'Add a provider' }).waitFor();
    await card.locator(':focus').waitFor();

    // Cancel editing gives the focus back to the Edit button it came from.
    await card.getByRole('button', { name: 'Edit Spare (renamed)' }).press('Enter');
    await form.getByRole('button', { name: 'Cancel editing' }).press('Enter');
    await form.getByRole('heading', { name: 'Add a provider' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Edit Spare (renamed)');

    await fixture.host.call('providers.remove', { providerId: 'spare' });
    await card.waitFor({ state: 'detached' });
  });

  it('adds a provider with no models listed: asks it for its models and lists them, saying so', async () => {
    const asked = cloud.requests.length;
    // The one empty row is no model to fill in: the form says it may be left so.
    assert.match(
      (await form.getByRole('group', { name: 'Models', exact: true }).locator('#models-caption').textContent()) ?? '',
      /^Leave the models empty and Taskdesk asks the provider for its models when you save\./
    );
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('quick');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Quick');
    await form.getByLabel('Base URL').fill(cloud.baseURL);
    await form.getByLabel('API key').fill(KEY);
    await form.getByRole('button', { name: 'Add provider' }).click();
    const card = screen.locator('li[data-provider-id="quick"]');
    await card
      .locator('.provider-listing[data-listing="listed"]')
      .getByText('It lists 2 models: fake-small, fake-large.', { exact: true })
      .waitFor();
    assert.deepEqual(
      await card.getByRole('list', { name: 'Models listed for Quick' }).getByRole('listitem').allTextContents(),
      ['fake-small', 'fake-large']
    );
    assert.equal(await card.locator('.provider-no-model').count(), 0, 'usable at once: no "None listed"');
    await page
      .locator('.sr-only[aria-live="polite"]')
      .getByText('Added Quick. It lists 2 models: fake-small, fake-large.', { exact: true })
      .waitFor();
    const { health, ...quick } = (await fixture.host.call('providers.list', {})).find((p) => p.id === 'quick')!;
    assert.deepEqual(quick, {
      id: 'quick',
      name: 'Quick',
      baseURL: cloud.baseURL,
      models: [{ name: 'fake-small' }, { name: 'fake-large' }],
      defaultModel: 'fake-small',
      hasKey: true
    });
    // Asked as Test connection asks: its card says it answers.
    assert.equal(health?.ok, true);
    await card.locator('.card-header [data-health="answering"]').waitFor();
    assert.deepEqual(
      cloud.requests.slice(asked).map((request) => [request.path, request.authorization]),
      [['/v1/models', `Bearer ${KEY}`]],
      'asked once, with its key'
    );
    // What it said is about that save: Edit, where the list may change, makes it go.
    await card.getByRole('button', { name: 'Edit Quick' }).click();
    await card.locator('.provider-listing').waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Cancel editing' }).click();
    await fixture.host.call('providers.remove', { providerId: 'quick' });
    await card.waitFor({ state: 'detached' });
  });

  it('adds a provider it cannot reach all the same, saying in words why no model could be listed', async () => {
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('away');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Away');
    await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const card = screen.locator('li[data-provider-id="away"]');
    const said = card.locator('.provider-no-model[data-listing="failed"]');
    await said.waitFor();
    assert.equal(
      await said.textContent(),
      'None listed: no model could be listed when it was saved. Could not connect to Away (127.0.0.1:9). ' +
        'Is the server running and the base URL right? Test connection tries again; or add one by name with Edit.'
    );
    await page
      .locator('.sr-only[aria-live="polite"]')
      .getByText(/^Added Away\. No model could be listed: Could not connect to Away/)
      .waitFor();
    // Said once: the Status line gives only since when its calls fail.
    const calls = card.locator('.provider-health', { hasText: 'Failing since' });
    await calls.waitFor();
    assert.doesNotMatch((await calls.textContent()) ?? '', /Could not connect/);
    // Labelled as a model file's is: words that fit both.
    assert.equal(await calls.evaluate((element) => element.previousElementSibling?.textContent), 'Status');
    assert.equal(await form.getByRole('heading', { level: 3 }).textContent(), 'Add a provider', 'the save held');
    assert.deepEqual((await fixture.host.call('providers.list', {})).find((p) => p.id === 'away')?.models, []);
    // Test connection tries again; its result says what the listing said, in its place.
    await card.getByRole('button', { name: 'Test connection to Away' }).click();
    await card.locator('.test-result[data-test="failed"]').waitFor();
    await card.locator('.provider-no-model:not([data-listing])').waitFor();
    await fixture.host.call('providers.remove', { providerId: 'away' });
    await card.waitFor({ state: 'detached' });
  });

  it('keeps saying why it could not reach a provider when Edit opens, on the card and in the form', async () => {
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('offline');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Offline');
    await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const card = screen.locator('li[data-provider-id="offline"]');
    const listing = card.locator('.provider-no-model[data-listing="failed"]');
    await listing.waitFor();
    const failed = 'Could not connect to Offline (127.0.0.1:9).';

    // Edit is what the person opens to fix it: the failure stays on the card, and the form says it too.
    await card.getByRole('button', { name: 'Edit Offline' }).click();
    await form.getByRole('heading', { name: 'Edit Offline' }).waitFor();
    const onCard = (await listing.textContent()) ?? '';
    assert.ok(onCard.startsWith('None listed: no model could be listed') && onCard.includes(failed), onCard);
    const inForm = (await form.locator('.form-status-failed').textContent()) ?? '';
    assert.ok(inForm.startsWith(`No model could be listed when it was saved: ${failed}`), inForm);
    await form.getByRole('button', { name: 'Cancel editing' }).click();
    await form.getByRole('heading', { name: 'Add a provider' }).waitFor();

    // A failed Test connection, the same: its result stays on the card, and the form says it.
    await card.getByRole('button', { name: 'Test connection to Offline' }).click();
    const result = card.locator('.test-result[data-test="failed"]');
    await result.waitFor();
    await card.getByRole('button', { name: 'Edit Offline' }).click();
    await form.getByRole('heading', { name: 'Edit Offline' }).waitFor();
    assert.equal(await result.isVisible(), true, 'the failed test still on the card');
    assert.match((await form.locator('.form-status-failed').textContent()) ?? '', /^Connection failed: .+/);
    await form.getByRole('button', { name: 'Cancel editing' }).click();
    await form.getByRole('heading', { name: 'Add a provider' }).waitFor();
    // An add has nothing to say of the provider edited before.
    assert.equal(await form.locator('.form-status-failed').count(), 0);
    await fixture.host.call('providers.remove', { providerId: 'offline' });
    await card.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('says nothing alarming of a local provider without a key; "No key" stays for a remote one', async () => {
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('remote');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Remote');
    await form.getByLabel('Base URL').fill('https://api.example.com/v1');
    // Listed by hand: the save asks the remote address nothing.
    await form.getByLabel('Model 1 name').fill('remote-model');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const remote = screen.locator('li[data-provider-id="remote"]');
    await remote.waitFor();
    assert.equal(await remote.locator('[data-key]').textContent(), 'No key');
    // The cloud provider, on loopback, lost its key earlier.
    const cloudCard = screen.locator('li[data-provider-id="cloud"]');
    assert.equal(await cloudCard.locator('[data-key]').textContent(), 'No key (none needed locally)');
    await fixture.host.call('providers.remove', { providerId: 'remote' });
    await remote.waitFor({ state: 'detached' });
  });

  it('detects a local server and adds it with one click', async () => {
    await screen.getByRole('button', { name: 'Detect local servers' }).click();
    await screen.getByText('Found 1 local server.').waitFor();
    const found = screen.getByRole('list', { name: 'Local servers found' }).getByRole('listitem');
    assert.match(
      (await found.textContent()) ?? '',
      new RegExp(`Ollama at ${local.baseURL.replaceAll('.', '\\.')}.*llama3\\.2:3b`)
    );
    await found.getByRole('button', { name: 'Add Ollama' }).click();
    const card = screen.locator('li[data-provider-id="ollama"]');
    await card.waitFor();
    assert.equal(await card.locator('[data-key]').textContent(), 'No key (none needed locally)');
    await found.getByText('Added as Ollama').waitFor();
    const ollama = (await fixture.host.call('providers.list', {})).find((p) => p.id === 'ollama');
    assert.deepEqual(ollama, {
      id: 'ollama',
      name: 'Ollama',
      baseURL: local.baseURL,
      models: [{ name: 'llama3.2:3b' }],
      defaultModel: 'llama3.2:3b',
      hasKey: false
    });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    assert.deepEqual(pageErrors, []);
  });

  it('says no local server answered only until the providers change', async () => {
    // The local server stops: nothing answers on the port detection probes.
    await local.close();
    await screen.getByRole('button', { name: 'Detect local servers' }).click();
    const status = screen.locator('.detect-status');
    await status.getByText('No local server answered on the usual ports.', { exact: true }).waitFor();
    // A provider added since: the line would read as about the providers now.
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('later');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Later');
    await form.getByLabel('Base URL').fill('https://api.example.com/v1');
    await form.getByLabel('Model 1 name').fill('later-model');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await screen.locator('li[data-provider-id="later"]').waitFor();
    await status.getByText('No local server answered on the usual ports.').waitFor({ state: 'detached' });
    assert.equal(await status.textContent(), '');
    await fixture.host.call('providers.remove', { providerId: 'later' });
    assert.deepEqual(pageErrors, []);
  });
});
