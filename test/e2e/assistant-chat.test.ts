import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { systemClock } from '../../app/core/clock.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { tempDir } from '../support/host-fixture.js';
import { startTaskToolHttpServer } from '../support/requestor-http-server.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { accessibleDescription, buildRenderer, openDesk, root } from './renderer-build.js';
import { everythingServer } from '../support/everything-server.js';

const SCREENSHOT = path.join(root, '.tmp/assistant-chat.png');

type ChatMessage = { role: string; content: unknown };

const SERVER_NAMES: Record<string, string> = { everything: 'Everything', work: 'Work', jobs: 'Jobs' };

describe('the Assistant screen in Chromium (fake LLM, server-everything over stdio, task servers over HTTP)', () => {
  const data = tempDir();
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 100 });
  // A second task server whose tasks give no immediate response: the conversation waits on them.
  const jobsStore = new ClockedTaskStore({ clock: systemClock, pollInterval: 100 });
  let work: Awaited<ReturnType<typeof startTaskToolHttpServer>>;
  let jobs: Awaited<ReturnType<typeof startTaskToolHttpServer>>;
  let llm: FakeOpenAIServer;
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const open = async (): Promise<void> => {
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [
        everythingServer,
        { id: 'work', name: 'Work', transport: { type: 'http', url: work.url.href } },
        { id: 'jobs', name: 'Jobs', transport: { type: 'http', url: jobs.url.href } }
      ]
    });
    for (const id of ['everything', 'work', 'jobs']) assert.equal((await host.connect(id)).state.status, 'ready');
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1200, height: 900 },
      context: { permissions: ['clipboard-read', 'clipboard-write'] }
    }));
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
  };
  const closeAll = async (): Promise<void> => {
    await browser?.close();
    await server?.close();
    await host?.close();
  };

  before(async () => {
    built = await buildRenderer();
    work = await startTaskToolHttpServer({
      clock: systemClock,
      store,
      immediateResponse: 'The job has started; it reports back when done.'
    });
    jobs = await startTaskToolHttpServer({ clock: systemClock, store: jobsStore });
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    const setup = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    await saveFakeProvider(setup, llm.baseURL);
    await setup.close();
    await open();
  });

  after(async () => {
    await closeAll();
    await work?.close();
    await jobs?.close();
    await llm?.close();
    store.close();
    jobsStore.close();
    built?.remove();
    data.remove();
  });

  const pane = (): Locator => page.locator('section.chat-pane');
  const messages = (): Locator => pane().getByRole('log', { name: 'Messages' });
  const lastAnswer = (): Locator => messages().locator('[data-role="assistant"]').last();

  /**
   * Starts a chat from the list and gives it a title and the tools of `serverId` (only), with
   * `policy` for that server's tool calls when given; Save closes the settings.
   */
  async function newChat(title: string, serverId: string, policy?: 'ask' | 'auto'): Promise<void> {
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    await pane().getByRole('button', { name: 'Settings' }).click();
    const settings = pane().getByRole('form', { name: 'Conversation settings' });
    await settings.getByLabel('Title').fill(title);
    // A new chat starts with the servers of the last one: only `serverId` stays ticked.
    for (const [id, name] of Object.entries(SERVER_NAMES))
      await settings.getByLabel(name, { exact: true }).setChecked(id === serverId);
    // Saved at once (the policy is the server's, in every conversation).
    if (policy) await settings.getByLabel(`Tool calls to ${SERVER_NAMES[serverId]}`).selectOption(policy);
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await pane().getByRole('heading', { name: title }).waitFor();
    await settings.waitFor({ state: 'detached' });
  }

  async function send(text: string): Promise<void> {
    // A turn ends a moment after its last words show (its message is written first): until it
    // has, Enter sends nothing, and the replies queued for this message would go to no one.
    await pane().and(page.locator(':not([data-status="generating"]):not([data-status="tools"])')).waitFor();
    await pane().getByLabel('Your message').fill(text);
    await pane().getByLabel('Your message').press('Enter');
  }

  it('echo under "ask": the approval card, approved with edited arguments; the tool result goes to the model and its answer streams in', async () => {
    await newChat('Echo test', 'everything');
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'e1', name: 'everything__echo', arguments: '{"message":"hello"}' }] },
      { kind: 'hold' }
    );
    await send('Please echo hello');
    const approval = pane().getByRole('group', { name: 'Approve echo?' });
    await approval.waitFor();
    assert.match(await approval.locator('pre').innerText(), /"message": "hello"/);
    // The server by the name the rest of the Desk gives it, not its id.
    assert.match(await approval.locator('p').first().innerText(), /call echo on Everything with:/);
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el?.getAttribute('data-tool-call-id') ?? el?.getAttribute('aria-label') ?? el?.textContent ?? '';
      });
    // By keyboard: Deny… opens its form with the focus in it; Escape closes it, back on Deny….
    // The message box says what the conversation waits for.
    assert.equal(
      await pane().getByLabel('Your message').getAttribute('placeholder'),
      'Approve or deny the call above, or stop.'
    );
    await approval.getByRole('button', { name: 'Deny…' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.closest('label')?.textContent?.startsWith('Why not'));
    await page.keyboard.type('not yet');
    await page.keyboard.press('Escape');
    await approval.getByRole('button', { name: 'Deny…' }).waitFor();
    assert.equal(await focused(), 'Deny…');
    // The tool's form, filled with the call's arguments, takes the focus; Cancel edit puts the
    // arguments back as they were.
    const argumentsForm = approval.getByRole('group', { name: 'Arguments', exact: true });
    const messageField = argumentsForm.getByLabel('message');
    await approval.getByRole('button', { name: 'Edit arguments' }).click();
    await messageField.waitFor();
    assert.equal(await messageField.inputValue(), 'hello');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'message');
    await messageField.fill('never sent');
    assert.equal(await approval.getByRole('button', { name: 'Always allow echo' }).isDisabled(), true);
    await approval.getByRole('button', { name: 'Cancel edit' }).click();
    assert.match(await approval.locator('pre').innerText(), /"message": "hello"/);
    assert.equal(await focused(), 'Edit arguments');
    assert.equal(await approval.getByRole('button', { name: 'Always allow echo' }).isDisabled(), false);
    // Escape in the form cancels the edit too, and opened again it starts from the call's arguments.
    await page.keyboard.press('Enter');
    await messageField.fill('never sent either');
    await page.keyboard.press('Escape');
    await approval.getByRole('button', { name: 'Edit arguments' }).waitFor();
    assert.match(await approval.locator('pre').innerText(), /"message": "hello"/);
    assert.equal(await focused(), 'Edit arguments');
    await page.keyboard.press('Enter');
    assert.equal(await messageField.inputValue(), 'hello');
    assert.equal(await approval.getByRole('button', { name: 'Approve', exact: true }).count(), 1, 'nothing edited');
    // Edit as JSON: the JSON box, which takes the focus; Escape there backs out of the edit too.
    await approval.getByRole('button', { name: 'Edit as JSON' }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'TEXTAREA');
    await approval.getByLabel('Arguments (JSON)').fill('{ "message": "never sent" }');
    await page.keyboard.press('Escape');
    await approval.getByRole('button', { name: 'Edit arguments' }).waitFor();
    assert.match(await approval.locator('pre').innerText(), /"message": "hello"/);
    assert.equal(await focused(), 'Edit arguments');
    // Arguments the tool's schema refuses: the host says so; Cancel edit, or Escape, puts the
    // arguments back, and what was said of the edited ones goes with them.
    const editor = approval.getByLabel('Arguments (JSON)');
    const alert = approval.getByRole('alert');
    const editAsJson = async (): Promise<void> => {
      await approval.getByRole('button', { name: 'Edit arguments' }).click();
      await approval.getByRole('button', { name: 'Edit as JSON' }).click();
    };
    for (const how of ['Cancel edit', 'Escape']) {
      await editAsJson();
      await editor.fill('{"message": 5}');
      await approval.getByRole('button', { name: 'Approve with edits' }).click();
      await alert.getByText('Your decision on echo was not taken.').waitFor();
      assert.match(await alert.innerText(), /Invalid arguments for tool "echo": message: must be string/);
      if (how === 'Escape') await editor.press('Escape');
      else await approval.getByRole('button', { name: 'Cancel edit' }).click();
      await approval.getByRole('button', { name: 'Edit arguments' }).waitFor();
      assert.match(await approval.locator('pre').innerText(), /"message": "hello"/);
      await alert.waitFor({ state: 'hidden' });
      assert.equal(await approval.locator('.action-error:not([hidden])').count(), 0, `${how}: no failure left`);
    }
    await editAsJson();
    // As the person types, a quiet note (the box's description, not an alert) says while it is not JSON.
    const note = approval.locator('.chat-args-note');
    assert.equal(await note.count(), 0, 'the arguments as they came are JSON');
    assert.equal(await editor.getAttribute('aria-describedby'), null);
    await editor.fill('{ "message": ');
    await note.waitFor();
    assert.match((await accessibleDescription(editor)) ?? '', /^Not JSON yet: /);
    assert.equal(await note.getAttribute('role'), null);
    assert.equal(await approval.getByRole('alert').count(), 0, 'no alert before Approve is pressed');
    await editor.fill('["a list"]');
    assert.equal(await accessibleDescription(editor), 'Not a JSON object: put the arguments between { and }.');
    await editor.fill('{ "message": "almost" }');
    await note.waitFor({ state: 'detached' });
    assert.equal(await editor.getAttribute('aria-describedby'), null);
    // Not JSON: said so; once corrected the error goes, and Tab from the editor reaches Approve first.
    await approval.getByLabel('Arguments (JSON)').fill('{ "message": ');
    await approval.getByRole('button', { name: 'Approve with edits' }).click();
    await approval.getByRole('alert').getByText('The arguments are not JSON.').waitFor();
    assert.equal(await note.count(), 0, 'the alert says it, not the note too');
    await approval.getByLabel('Arguments (JSON)').fill('{ "message": "edited by me" }');
    await approval.getByRole('alert').waitFor({ state: 'hidden' });
    await approval.getByLabel('Arguments (JSON)').focus();
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Approve with edits');
    await page.keyboard.press('Enter');

    const held = await llm.nextHeld();
    const tool = (held.request.body.messages as ChatMessage[]).find((m) => m.role === 'tool');
    assert.equal(
      tool?.content,
      'The user edited the arguments before approving this call; it was made with {"message":"edited by me"}.\n\nEcho: edited by me'
    );
    const card = pane().locator('[data-tool-call-id="e1"]');
    // The approval card is gone; the focus stayed on the call's card rather than falling to the page.
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-tool-call-id') === 'e1');
    await card.locator('.chat-result').getByText('Echo: edited by me').waitFor();
    // The card keeps that the person changed what ran (a plain call: its own word for how it
    // stands, the one the Tools, Tasks and History screens say).
    assert.equal(
      (await card.locator('.chat-tool-head').innerText()).replace(/\s+/g, ' '),
      'echo on Everything Completed · run with the arguments you changed'
    );

    held.push('The tool said: ');
    await messages().locator('[data-streaming="true"]').getByText('The tool said:').waitFor();
    assert.equal(await pane().getByRole('button', { name: '■ Stop' }).count(), 1, 'Stop while the answer streams');
    held.push('**edited', ' by me**.');
    held.finish();
    await lastAnswer().locator('strong', { hasText: 'edited by me' }).waitFor();
    await messages().locator('[data-streaming="true"]').waitFor({ state: 'detached' });
    await pane().getByRole('button', { name: 'Send' }).waitFor();
    // The turn is over and the focus was still on the call's card: it goes to the message box.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Your message');
    // Who said what, for assistive technology too (the bubbles differ only by side and colour);
    // the call is named as the model's call, not read as words of its answer.
    const spoken = await messages().ariaSnapshot();
    assert.match(spoken, /- paragraph: "You said: Please echo hello"\n/);
    assert.match(spoken, /- group "Tool call echo on Everything":/);
    assert.match(
      spoken,
      /- paragraph: "fake-small said:"\n\s*- paragraph:\n\s*- text: "The tool said:"\n\s*- strong: edited by me/
    );
    // The raw result is one click away.
    await card.getByRole('button', { name: 'Raw JSON' }).click();
    assert.match(await card.locator('.chat-result pre.json').innerText(), /"type": "text"/);
    const audit = JSON.stringify(await host.call('audit.read', {}));
    assert.match(audit, /assistant\.tool-decision/);
    // The Audit log names the conversation by its title, not by the id it keeps.
    await page.locator('nav').getByRole('link', { name: 'Audit log', exact: true }).click();
    const decision = page.locator('table.audit tr', { hasText: 'assistant.tool-decision' }).first();
    await decision.waitFor();
    assert.equal(
      await decision
        .locator('dt', { hasText: /^conversation/ })
        .allTextContents()
        .then((t) => t.join()),
      'conversation'
    );
    assert.equal(await decision.locator('dt + dd').first().textContent(), '“Echo test”');
    await page.locator('nav').getByRole('link', { name: 'Assistant', exact: true }).click();
    await pane().getByRole('heading', { name: 'Echo test' }).waitFor();
  });

  it('Enter in the reason field denies the call with that reason, and the model reads it', async () => {
    await newChat('Denied', 'everything');
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'd1', name: 'everything__echo', arguments: '{"message":"no"}' }] },
      { kind: 'text', tokens: ['Fine, I will not.'] }
    );
    await send('Echo no');
    const approval = pane().getByRole('group', { name: 'Approve echo?' });
    await approval.getByRole('button', { name: 'Deny…' }).click();
    await approval.getByLabel('Why not (optional, the model reads it)').fill('not today');
    await approval.getByLabel('Why not (optional, the model reads it)').press('Enter');
    await pane().locator('[data-tool-call-id="d1"][data-state="denied"]').waitFor();
    await lastAnswer().getByText('Fine, I will not.').waitFor();
    const tool = (llm.chatRequests.at(-1)!.body.messages as ChatMessage[]).findLast((m) => m.role === 'tool');
    assert.match(String(tool?.content), /their reason: not today/);
  });

  it('Edit arguments opens the tool’s form: a problem the host finds is said at its field, and what was typed is what the tool gets', async () => {
    await newChat('Form edits', 'everything');
    const args = '{"url":"https://example.com/start"}';
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'u1', name: 'everything__trigger-url-elicitation', arguments: args }] },
      { kind: 'text', tokens: ['Not that one, then.'] }
    );
    await send('Open a link');
    const link = pane().getByRole('group', { name: 'Approve trigger-url-elicitation?' });
    await link.getByRole('button', { name: 'Edit arguments' }).click();
    const url = link.getByRole('group', { name: 'Arguments', exact: true }).getByLabel('url');
    await url.waitFor();
    assert.equal(await url.inputValue(), 'https://example.com/start');
    // The form sends it; the host checks it against the tool's schema and its word lands on the field.
    await url.fill('not a link');
    await link.getByRole('button', { name: 'Approve with edits' }).click();
    await link.getByRole('alert').getByText('One field needs correcting.').waitFor();
    await link.locator('.field-error', { hasText: 'Enter a full URL (https://…)' }).waitFor();
    assert.equal(await url.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'url');
    assert.equal(await link.getByRole('button', { name: /^Always allow/ }).isDisabled(), true);
    await link.getByRole('button', { name: 'Deny…' }).click();
    await link.getByRole('button', { name: 'Deny the call' }).click();
    await pane().locator('[data-tool-call-id="u1"][data-state="denied"]').waitFor();
    await lastAnswer().getByText('Not that one, then.').waitFor();

    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [{ id: 'f1', name: 'everything__echo', arguments: '{"message":"from the model"}' }]
      },
      { kind: 'text', tokens: ['Echoed.'] }
    );
    await send('Echo something');
    const approval = pane().getByRole('group', { name: 'Approve echo?' });
    await approval.getByRole('button', { name: 'Edit arguments' }).click();
    const message = approval.getByRole('group', { name: 'Arguments', exact: true }).getByLabel('message');
    assert.equal(await message.inputValue(), 'from the model');
    await message.fill('typed in the form');
    await approval.getByRole('button', { name: 'Approve with edits' }).click();
    await pane().locator('[data-tool-call-id="f1"][data-state="completed"]').waitFor();
    await lastAnswer().getByText('Echoed.').waitFor();
    const tool = (llm.chatRequests.at(-1)!.body.messages as ChatMessage[]).findLast((m) => m.role === 'tool');
    assert.equal(
      tool?.content,
      'The user edited the arguments before approving this call; it was made with {"message":"typed in the form"}.\n\nEcho: typed in the form'
    );
  });

  it('Edit as JSON carries what was typed in the form; arguments the form cannot show open as JSON', async () => {
    await newChat('JSON edits', 'everything');
    // A key the tool's schema does not declare: the form would drop it, so the JSON box opens.
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [{ id: 'x1', name: 'everything__echo', arguments: '{"message":"hi","volume":11}' }]
      },
      { kind: 'text', tokens: ['Left it.'] }
    );
    await send('Echo loudly');
    const loud = pane().getByRole('group', { name: 'Approve echo?' });
    await loud.getByRole('button', { name: 'Edit arguments' }).click();
    await page.waitForFunction(() => document.activeElement?.tagName === 'TEXTAREA');
    assert.deepEqual(JSON.parse(await loud.getByLabel('Arguments (JSON)').inputValue()), { message: 'hi', volume: 11 });
    assert.equal(await loud.getByRole('group', { name: 'Arguments', exact: true }).count(), 0);
    assert.equal(await loud.getByRole('button', { name: 'Edit as JSON' }).count(), 0);
    await loud.getByRole('button', { name: 'Deny…' }).click();
    await loud.getByRole('button', { name: 'Deny the call' }).click();
    await lastAnswer().getByText('Left it.').waitFor();

    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'j1', name: 'everything__echo', arguments: '{"message":"hi"}' }] },
      { kind: 'text', tokens: ['Sent as JSON.'] }
    );
    await send('Echo hi');
    const approval = pane().getByRole('group', { name: 'Approve echo?' });
    await approval.getByRole('button', { name: 'Edit arguments' }).click();
    await approval.getByRole('group', { name: 'Arguments', exact: true }).getByLabel('message').fill('typed first');
    await approval.getByRole('button', { name: 'Edit as JSON' }).click();
    const editor = approval.getByLabel('Arguments (JSON)');
    assert.deepEqual(JSON.parse(await editor.inputValue()), { message: 'typed first' });
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'TEXTAREA');
    assert.equal(await approval.getByRole('button', { name: /^Always allow/ }).isDisabled(), true);
    await editor.fill('{ "message": "then as JSON" }');
    await approval.getByRole('button', { name: 'Approve with edits' }).click();
    await lastAnswer().getByText('Sent as JSON.').waitFor();
    const tool = (llm.chatRequests.at(-1)!.body.messages as ChatMessage[]).findLast((m) => m.role === 'tool');
    assert.equal(
      tool?.content,
      'The user edited the arguments before approving this call; it was made with {"message":"then as JSON"}.\n\nEcho: then as JSON'
    );
  });

  it('the last answer can be asked again and the last message edited and sent again, by keyboard too; what followed it is replaced', async () => {
    await newChat('Again', 'everything');
    llm.enqueue({ kind: 'text', tokens: ['First answer.'] });
    await send('Write a line');
    await lastAnswer().getByText('First answer.').waitFor();
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
    assert.equal(await lastAnswer().getByRole('button', { name: 'Copy this answer' }).count(), 1);
    // Ask again: the same words, a new answer in place of the old one; the model reads no old answer.
    llm.enqueue({ kind: 'text', tokens: ['Second answer.'] });
    await lastAnswer()
      .getByRole('button', { name: /^Ask again/ })
      .click();
    await lastAnswer().getByText('Second answer.').waitFor();
    assert.equal(await messages().getByText('First answer.').count(), 0);
    const asked = llm.chatRequests.at(-1)!.body.messages as ChatMessage[];
    assert.deepEqual(
      asked.map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`),
      ['user: Write a line']
    );
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Your message');
    // Edit, by keyboard: the editor takes the focus; Escape gives up, back on Edit.
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
    const edit = messages().getByRole('button', { name: 'Edit your last message' });
    await edit.focus();
    await page.keyboard.press('Enter');
    const editor = messages().getByRole('form', { name: 'Edit your message' });
    const box = editor.getByLabel('Your message, edited');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Your message, edited');
    assert.equal(await box.inputValue(), 'Write a line');
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Edit your last message');
    await page.keyboard.press('Enter');
    await box.fill('Write a line about the sea');
    llm.enqueue({ kind: 'text', tokens: ['Waves.'] });
    await page.keyboard.press('Enter');
    await lastAnswer().getByText('Waves.').waitFor();
    assert.deepEqual(await messages().locator('.chat-user-text').allInnerTexts(), [
      'You said:\nWrite a line about the sea'
    ]);
    assert.equal(await messages().getByText('Second answer.').count(), 0);
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Your message');
    // Only the last message is offered to edit, and only the last answer to ask again.
    llm.enqueue({ kind: 'text', tokens: ['More waves.'] });
    await send('And another');
    await lastAnswer().getByText('More waves.').waitFor();
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
    assert.equal(await messages().getByRole('button', { name: 'Edit your last message' }).count(), 1);
    assert.equal(
      await messages()
        .getByRole('button', { name: /^Ask again/ })
        .count(),
      1
    );
    assert.equal(await messages().getByRole('button', { name: 'Copy this answer' }).count(), 2);
    assert.deepEqual(pageErrors, []);
  });

  it('an answer’s code block has Copy, which copies its code; a nested list has no blank lines around it', async () => {
    await newChat('Markdown', 'everything');
    const code = 'const answer = 42;\nconsole.log(answer);';
    llm.enqueue({
      kind: 'text',
      tokens: [`Steps:\n\n- One\n  - One a\n  - One b\n- Two\n\n> A quote.\n\n\`\`\`js\n${code}\n\`\`\`\n`]
    });
    await send('Show me code');
    const answer = lastAnswer();
    await answer.locator('pre code').waitFor();
    await answer.getByRole('button', { name: 'Copy this code' }).click();
    await answer.getByRole('button', { name: 'Copy this code' }).getByText('Copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
    // The whole answer's Copy copies its Markdown as written.
    await answer.getByRole('button', { name: 'Copy this answer' }).click();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /^Steps:\n\n- One\n {2}- One a/);
    // "One" and its nested list: one line apart, not a blank line between them.
    const gap = await answer.locator('li li', { hasText: 'One a' }).evaluate((li) => {
      const outer = li.parentElement!.closest('li')!;
      const lineHeight = parseFloat(getComputedStyle(outer).lineHeight);
      return (li.getBoundingClientRect().top - outer.getBoundingClientRect().top) / lineHeight;
    });
    assert.ok(gap < 1.6, `the nested list starts ${gap.toFixed(2)} lines below its item`);
    assert.equal(
      await answer.locator('blockquote').evaluate((q) => getComputedStyle(q).borderLeftStyle),
      'solid',
      'a quote is marked as one'
    );
    assert.deepEqual(pageErrors, []);
  });

  it('says under an answer the provider cut off, at the token limit or by its content filter', async () => {
    await newChat('Cut off', 'everything');
    llm.enqueue({ kind: 'text', tokens: ['A long', ' story that'], finishReason: 'length' });
    await send('Tell me a long story');
    await lastAnswer()
      .getByText('Cut off: the model reached its token limit, or the end of its context, before it finished.')
      .waitFor();
    llm.enqueue({ kind: 'text', tokens: ['Part of'], finishReason: 'content_filter' });
    await send('And another');
    await lastAnswer().getByText('Cut off: the provider’s content filter withheld the rest of the answer.').waitFor();
    // An answer that ended as the model meant says nothing of it.
    llm.enqueue({ kind: 'text', tokens: ['The end.'] });
    await send('Finish it');
    await lastAnswer().getByText('The end.').waitFor();
    assert.equal(
      await lastAnswer()
        .getByText(/^Cut off/)
        .count(),
      0
    );
    assert.deepEqual(pageErrors, []);
  });

  it('an answer streaming in follows the reader only while they are at the bottom', async () => {
    await newChat('Long read', 'everything');
    const long = Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');
    llm.enqueue({ kind: 'text', tokens: [long] }, { kind: 'hold' });
    await send('Write a lot');
    await lastAnswer().getByText('Line 80 of a long answer.').waitFor();
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
    await send('And more');
    const held = await llm.nextHeld();
    held.push('More:');
    await messages().locator('[data-streaming="true"]').getByText('More:').waitFor();
    const log = messages();
    const fromBottom = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    assert.ok((await fromBottom()) < 40, 'at the bottom while the answer starts');
    // A scroll's event comes with the next frame: two frames later the page has taken it.
    const scrolled = () =>
      page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    // Each paragraph shown (a stream that pauses shows what came last) before the next is sent.
    const shown = (text: string) => messages().locator('[data-streaming="true"]', { hasText: text }).waitFor();
    // The reader scrolls up to read: new text does not pull them down.
    await log.evaluate((el) => el.scrollTo({ top: 200 }));
    await scrolled();
    for (let i = 0; i < 5; i++) {
      held.push(`\n\nNew paragraph ${i}.`);
      await shown(`New paragraph ${i}.`);
      await scrolled();
    }
    assert.equal(await log.evaluate((el) => Math.round(el.scrollTop)), 200, 'left where the reader was');
    // Back at the bottom, the stream is followed again.
    await log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await scrolled();
    for (let i = 0; i < 3; i++) {
      held.push(`\n\nLast paragraph ${i}.`);
      await shown(`Last paragraph ${i}.`);
      await scrolled();
    }
    assert.ok((await fromBottom()) < 40, 'followed to the bottom');
    held.finish();
    await pane().getByRole('button', { name: 'Send' }).waitFor();
  });

  it('simulate-research-query runs as a task: the card shows its status and TTL, and the conversation goes on by itself with the report', async () => {
    await newChat('Research', 'everything', 'auto');
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [{ id: 'rq', name: 'everything__simulate-research-query', arguments: '{"topic":"tide pools"}' }]
      },
      { kind: 'text', tokens: ['Here is ', 'the research on tide pools.'] }
    );
    await send('Research tide pools');
    const card = pane().locator('[data-tool-call-id="rq"]');
    const task = card.getByRole('group', { name: 'Task of simulate-research-query' });
    await task.waitFor();
    await task.locator('.chat-task-message').waitFor();
    assert.match(await task.locator('.chat-task-message').innerText(), /Gathering|Analyzing|Synthesizing|Generating/);
    await task.getByText(/^The server keeps the task and its result for \d.* more$/).waitFor();
    // Taskdesk asked for its default hour; server-everything keeps its tasks 5 minutes, and the card says so.
    await task.locator('.ttl-asked', { hasText: '(Taskdesk asked for 1 h)' }).waitFor();
    assert.equal(((await task.textContent()) ?? '').match(/keeps|kept/g)?.length, 1, 'its lifetime said once');
    await lastAnswer().getByText('Here is the research on tide pools.').waitFor({ timeout: 30_000 });
    const tool = (llm.chatRequests.at(-1)!.body.messages as ChatMessage[]).find((m) => m.role === 'tool');
    assert.match(String(tool?.content), /tide pools/);
    await card.locator('.chat-result').first().waitFor();
  });

  it('simulate-research-query with ambiguous: true: its question shows in the chat (and the Inbox) and is answered from the chat', async () => {
    await newChat('Python research', 'everything');
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [
          {
            id: 'amb',
            name: 'everything__simulate-research-query',
            arguments: '{"topic":"python","ambiguous":true}'
          }
        ]
      },
      { kind: 'text', tokens: ['The snakes, then.'] }
    );
    // A short window: the question comes in below what the message box shows.
    await page.setViewportSize({ width: 1200, height: 560 });
    await send('Research python');
    // The Everything server runs without asking since the previous test chose that.
    const card = pane().locator('[data-tool-call-id="amb"]');
    const question = card.getByRole('article').filter({ hasText: 'could have multiple interpretations' });
    await question.waitFor({ timeout: 20_000 });
    // The reader was at the end: the question is brought into view, as streamed text is.
    await page.waitForFunction(() => {
      const box = document.querySelector('.chat-messages')!.getBoundingClientRect();
      const asked = document.querySelector('.chat-questions [data-inbox-id], .chat-questions article');
      const shown = asked?.getBoundingClientRect();
      return shown !== undefined && shown.top >= box.top - 1 && Math.min(shown.bottom, box.bottom) - shown.top > 40;
    });
    // The message box and the conversation list say that an answer is awaited.
    assert.equal(
      await pane().getByLabel('Your message').getAttribute('placeholder'),
      'A task asks a question above and waits for your answer.'
    );
    assert.equal(
      await page.locator('.chat-list-item[aria-selected="true"] .chat-state').innerText(),
      'Answer a question'
    );
    assert.equal(
      await page.locator('#screen-inbox [data-inbox-id]').count(),
      1,
      'the same question waits in the Inbox'
    );
    await question.getByLabel('Clarification').selectOption({ label: 'Python snake species' });
    await question.getByRole('button', { name: 'Submit' }).click();
    // The card goes with its button: the focus goes to the task it answered, not to the page.
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'Task of simulate-research-query'
    );
    await page.setViewportSize({ width: 1200, height: 900 });
    await lastAnswer().getByText('The snakes, then.').waitFor({ timeout: 30_000 });
    const tool = (llm.chatRequests.at(-1)!.body.messages as ChatMessage[]).findLast((m) => m.role === 'tool');
    assert.match(String(tool?.content), /snake/);
    assert.equal(
      await page.locator('#screen-inbox [data-inbox-id]').count(),
      0,
      'answered in the chat, gone from the Inbox'
    );
  });

  it('a long plain call shows its progress and elapsed time on its card; its Cancel ends that call alone, the model is told and answers, and the focus ends in the message box', async () => {
    // Asked first (an earlier chat set Everything's calls to run), so that approving puts the focus on its card.
    await newChat('Long call', 'everything', 'ask');
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [
          { id: 'l1', name: 'everything__trigger-long-running-operation', arguments: '{"duration":10,"steps":5}' }
        ]
      },
      { kind: 'hold' }
    );
    await send('Run the long operation');
    const approval = pane().getByRole('group', { name: 'Approve trigger-long-running-operation?' });
    await approval.getByRole('button', { name: 'Approve', exact: true }).click();
    const card = pane().locator('[data-tool-call-id="l1"]');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-tool-call-id') === 'l1');
    // As the Tools screen shows the same call: how long it has run, how far it is, and a Cancel.
    const bar = card.getByRole('progressbar', { name: 'Progress of trigger-long-running-operation' });
    await bar.waitFor();
    assert.equal(await bar.getAttribute('max'), '5');
    assert.match((await card.locator('.progress-text').textContent()) ?? '', /^[1-4]\/5$/);
    assert.match((await card.locator('.chat-tool-state').textContent()) ?? '', /^Running for \d+ s$/);
    assert.match((await card.locator('.elapsed').textContent()) ?? '', /^\d+ s$/);
    const [running] = await host.call('tools.runningCalls', {});
    assert.match(running?.callId ?? '', /^as-/, 'the assistant’s own plain call');
    await card.getByRole('button', { name: 'Cancel trigger-long-running-operation' }).click();
    // The model is asked again, with the words it reads after Stop: that call alone ended.
    const held = await llm.nextHeld();
    const tool = (held.request.body.messages as ChatMessage[]).findLast((m) => m.role === 'tool');
    assert.equal(tool?.content, 'The person stopped this call.');
    await card.and(page.locator('[data-state="cancelled"]')).waitFor();
    // The Desk's word for a call the person cancelled (the Tools, Tasks and History screens'), not "Stopped".
    assert.equal(await card.locator('.chat-tool-state').textContent(), 'Cancelled');
    assert.deepEqual(await host.call('tools.runningCalls', {}), [], 'the call ended on the host');
    // Its Cancel went: the focus stays on the call's card while the model answers...
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-tool-call-id') === 'l1');
    held.push('It was cancelled, as you asked.');
    held.finish();
    await lastAnswer().getByText('It was cancelled, as you asked.').waitFor();
    // ...and goes to the message box once the turn is over.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Your message');
    const audit = JSON.stringify(await host.call('audit.read', {}));
    assert.match(audit, /tool\.call-cancelled/);
  });

  it('Stop during streaming ends the answer where it was and closes the model request', async () => {
    await newChat('Stopped', 'everything');
    llm.enqueue({ kind: 'hold' });
    await send('Tell me a long story');
    const held = await llm.nextHeld();
    held.push('Once upon a time');
    await messages().locator('[data-streaming="true"]').getByText('Once upon a time').waitFor();
    // By keyboard: Tab from the message box to Stop, Enter; the focus stays in the composer.
    await page.waitForFunction(
      () => document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Your message"]')?.value === '',
      undefined,
      { timeout: 10_000 }
    );
    await pane().getByLabel('Your message').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), '■ Stop');
    await page.keyboard.press('Enter');
    await held.closed;
    assert.equal(held.closedByClient, true);
    await lastAnswer().getByText('(stopped)').waitFor();
    assert.match(await lastAnswer().innerText(), /Once upon a time/);
    await pane().getByRole('button', { name: 'Send' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Your message');
  });

  it('Stop during a running task: tasks/cancel reaches the server, the card and the conversation show it stopped, the model is not asked again', async () => {
    await newChat('Stop the job', 'jobs', 'auto');
    // Save closed the settings, and the focus went back to their button.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Settings');
    llm.enqueue({
      kind: 'tool-calls',
      calls: [{ id: 'j1', name: 'jobs__work-required', arguments: '{"durationMs":600000,"label":"never"}' }]
    });
    const before = llm.chatRequests.length;
    await send('Run the endless job');
    const card = pane().locator('[data-tool-call-id="j1"]');
    const task = card.getByRole('group', { name: 'Task of work-required' });
    await card.locator('[data-task-state="working"]').waitFor();
    await task.getByText(/^The server keeps the task and its result for \d.* more$/).waitFor();
    assert.equal(await task.locator('.ttl-asked').count(), 0, 'kept as long as asked: nothing to explain');
    // No immediate response: the conversation waits on the task (and says so), and Stop is offered.
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Your message"]')?.placeholder ===
        'Waiting on a tool call: wait, or stop it.'
    );
    await pane().getByRole('button', { name: '■ Stop' }).click();
    await pane().locator('[data-tool-call-id="j1"][data-state="cancelled"]').waitFor();
    await card.locator('[data-task-state="cancelled"]').waitFor();
    // The task card's badge says how it stands: not "Stopped" beside "Cancelled" as well.
    assert.equal(await card.locator('.chat-tool-state').count(), 0);
    await card.locator('.chat-result').getByText('The person stopped this call; its task was cancelled.').waitFor();
    await pane().getByRole('button', { name: 'Send' }).waitFor();

    const conversation = (await host.call('assistant.list', {})).find((c) => c.title === 'Stop the job')!;
    const stopped = await host.call('assistant.get', { conversationId: conversation.id });
    assert.equal(stopped.status, 'idle');
    const call = stopped.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!;
    assert.equal(call.state, 'cancelled');
    const view = await host.call('outbound.get', { outboundId: call.outboundId! });
    assert.equal(view.state, 'cancelled');
    // The server itself holds the task as cancelled: tasks/cancel reached it.
    assert.equal((await jobsStore.getTask(view.taskId))?.status, 'cancelled');
    assert.equal(llm.chatRequests.length, before + 1, 'the model was asked once, for the tool call, and not again');
  });

  it('Stop while a task waits on a question: the card shows the stop at once, with neither Cancel task nor the question', async () => {
    await newChat('Stop the question', 'everything', 'auto');
    llm.enqueue({
      kind: 'tool-calls',
      calls: [
        { id: 'sq', name: 'everything__simulate-research-query', arguments: '{"topic":"python","ambiguous":true}' }
      ]
    });
    const before = llm.chatRequests.length;
    await send('Research python, then never mind');
    const card = pane().locator('[data-tool-call-id="sq"]');
    await card
      .getByRole('article')
      .filter({ hasText: 'could have multiple interpretations' })
      .waitFor({ timeout: 20_000 });
    await card.getByRole('button', { name: 'Cancel task of simulate-research-query' }).waitFor();
    // Every state the card is drawn in from Stop on: none may say the call stopped yet offer to cancel or answer.
    await card.evaluate((element) => {
      const seen: string[] = [];
      (window as unknown as { contradictions: string[] }).contradictions = seen;
      // Passed inline: a function bound to a name would be wrapped in the bundler's `__name`, unknown to the page.
      new MutationObserver(() => {
        if (element.getAttribute('data-state') !== 'cancelled') return;
        const task = element.querySelector('.chat-task');
        const badge = task?.querySelector('.status')?.textContent ?? '';
        const cancel = Array.from(element.querySelectorAll('button')).some((b) => b.textContent === 'Cancel task');
        const question = element.querySelector('.chat-questions') !== null;
        if (cancel || question || badge === 'Waiting for Taskdesk' || badge === 'Working')
          seen.push(`${badge}${cancel ? ', Cancel task' : ''}${question ? ', a question' : ''}`);
      }).observe(element, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true
      });
    });
    await pane().getByRole('button', { name: '■ Stop' }).click();
    await card.locator('[data-task-state="cancelled"]').waitFor();
    await card.locator('.chat-result').getByText('The person stopped this call; its task was cancelled.').waitFor();
    assert.deepEqual(await page.evaluate(() => (window as unknown as { contradictions: string[] }).contradictions), []);
    assert.equal(await card.locator('.chat-task .status').innerText(), 'Cancelled');
    assert.equal(await card.locator('.chat-questions').count(), 0);
    assert.equal(await page.locator('#screen-inbox [data-inbox-id]').count(), 0, 'withdrawn from the Inbox too');
    await pane().getByRole('button', { name: 'Send' }).waitFor();
    assert.equal(llm.chatRequests.length, before + 1, 'the model is not asked again');
  });

  it('a server-everything prompt (its arguments form) and resource are added to a message, and the model receives both', async () => {
    await newChat('Sources', 'everything');
    const picker = pane().getByRole('dialog', { name: 'Add a prompt or resource' });
    await pane().getByRole('button', { name: 'Attach a prompt or resource' }).click();
    const focusedLabel = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el?.getAttribute('aria-label') ?? el?.closest('label')?.textContent ?? el?.textContent ?? '';
      });
    await picker.getByRole('button', { name: 'Arguments Prompt' }).click();
    const form = picker.getByRole('form', { name: 'Arguments of args-prompt' });
    // The form takes the place of the button chosen: the focus goes to its first field; Back returns to the button.
    assert.match(await focusedLabel(), /^city/);
    await form.getByRole('button', { name: 'Back' }).click();
    assert.equal(await focusedLabel(), 'Arguments Prompt');
    await page.keyboard.press('Enter');
    assert.equal(await form.getByRole('button', { name: 'Add prompt' }).isDisabled(), true, 'city is required');
    await form.getByRole('textbox', { name: /^city/ }).fill('Lisbon');
    // Enter in a field adds the prompt; the focus goes back to the message it goes with.
    await page.keyboard.press('Enter');
    const attached = pane().getByRole('list', { name: 'Attached' });
    await attached.getByText('Prompt "Arguments Prompt" of Everything, with city = Lisbon').waitFor();
    assert.equal(await focusedLabel(), 'Your message');

    await pane().getByRole('button', { name: 'Attach a prompt or resource' }).click();
    await picker
      .getByRole('region', { name: 'Resources' })
      .getByRole('button', { name: 'instructions.md', exact: true })
      .click();
    await attached.getByText('Resource instructions.md of Everything').waitFor();
    assert.equal(await focusedLabel(), 'Your message');

    llm.enqueue({ kind: 'text', tokens: ['Both ', 'noted.'] });
    await send('Use the prompt and the file');
    await lastAnswer().getByText('Both noted.').waitFor();
    // The sent message names what it carries as the chips did: the prompt's title, the resource's name.
    const sentSources = messages().locator('[data-role="user"]').last().locator('summary');
    assert.deepEqual(await sentSources.allTextContents(), [
      'Attached: prompt "Arguments Prompt" of Everything, with city = Lisbon',
      'Attached: resource "instructions.md" (demo://resource/static/document/instructions.md) of Everything'
    ]);
    const user = (llm.chatRequests.at(-1)!.body.messages as ChatMessage[]).findLast((m) => m.role === 'user')!;
    const parts = (user.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '');
    assert.equal(parts[0], 'Use the prompt and the file');
    assert.equal(
      parts[1],
      '[From prompt "Arguments Prompt" of Everything, with city = Lisbon]\nuser: What\'s weather in Lisbon?'
    );
    assert.match(
      parts[2] ?? '',
      /^\[From resource "instructions\.md" \(demo:\/\/resource\/static\/document\/instructions\.md\) of Everything\]\n\[resource demo:\/\/resource\/static\/document\/instructions\.md\]\n\S/
    );
    // The chips go once the message is sent (the send's answer may come after the model's first words).
    await attached.waitFor({ state: 'detached' });
  });

  it('a task with an immediate response is cancelled from its card once the conversation has gone on: tasks/cancel reaches the server and the model hears how it ended', async () => {
    await newChat('Cancel the job', 'work', 'auto');
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [{ id: 'c1', name: 'work__work-required', arguments: '{"durationMs":600000,"label":"unwanted"}' }]
      },
      { kind: 'text', tokens: ['It is running.'] },
      { kind: 'text', tokens: ['Understood: it was cancelled.'] }
    );
    await send('Run a job I will change my mind about');
    const card = pane().locator('[data-tool-call-id="c1"]');
    await lastAnswer().getByText('It is running.').waitFor();
    // The conversation went on: Stop is gone, and the task's own card offers Cancel.
    await pane().getByRole('button', { name: 'Send' }).waitFor();
    assert.equal(await pane().getByRole('button', { name: '■ Stop' }).count(), 0);
    await card.getByRole('button', { name: 'Cancel task of work-required' }).click();
    await card.locator('[data-task-state="cancelled"]').waitFor();
    assert.equal(await card.locator('.chat-tool-state').count(), 0, 'one word for how it stands: the task card’s');
    assert.ok(
      await card.getByRole('group', { name: 'Task of work-required' }).evaluate((el) => el === document.activeElement),
      'focus stays on the card when its button goes'
    );
    await lastAnswer().getByText('Understood: it was cancelled.').waitFor();
    assert.equal(await card.getByRole('button', { name: 'Cancel task of work-required' }).count(), 0);
    const view = host.requestor.list().find((t) => t.toolName === 'work-required' && t.state === 'cancelled');
    assert.ok(view, 'the requested task is cancelled');
    assert.equal((await store.getTask(view.taskId))?.status, 'cancelled', 'tasks/cancel reached the server');
    const told = (llm.chatRequests.at(-1)!.body.messages as ChatMessage[]).at(-1)!;
    assert.match(JSON.stringify(told.content), /ended without a result \(cancelled by the person\)/);
  });

  it('a task with an immediate response and progress: the model goes on at once; after a restart of the host the result still reaches the conversation', async () => {
    await newChat('Long job', 'work', 'auto');
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [
          {
            id: 'w1',
            name: 'work__work-required',
            arguments: '{"durationMs":10000,"label":"survived","progressSteps":5}'
          }
        ]
      },
      { kind: 'text', tokens: ['It is running; I will tell you.'] },
      { kind: 'text', tokens: ['It finished: survived.'] }
    );
    await send('Run the long job');
    const card = pane().locator('[data-tool-call-id="w1"]');
    await card.getByText('The job has started; it reports back when done.').waitFor();
    await lastAnswer().getByText('It is running; I will tell you.').waitFor();
    // Progress the server sends after its CreateTaskResult comes on the session's stream over
    // Streamable HTTP and shows on the card, with the task's status and TTL.
    const taskCard = card.getByRole('group', { name: 'Task of work-required' });
    await taskCard.getByText(/^The server keeps the task and its result for \d.* more$/).waitFor();
    await taskCard
      .locator('.progress-text')
      .getByText(/^step \d · \d\/5$/)
      .waitFor();
    await page.screenshot({ path: SCREENSHOT });
    assert.equal(llm.chatRequests.length >= 2, true);
    const before = llm.chatRequests.length;
    const running = host.requestor.list().find((t) => t.toolName === 'work-required');
    assert.equal(running?.state, 'working', 'the task still runs when the host stops');

    await closeAll();
    await open();
    await page.getByRole('option', { name: /Long job/ }).click();
    await pane().getByRole('heading', { name: 'Long job' }).waitFor();
    await lastAnswer().getByText('It finished: survived.').waitFor({ timeout: 30_000 });
    assert.equal(llm.chatRequests.length, before + 1);
    const notice = (llm.chatRequests.at(-1)!.body.messages as ChatMessage[]).at(-1)!;
    assert.match(JSON.stringify(notice.content), /done: survived/);
    await pane()
      .locator('[data-tool-call-id="w1"] .chat-result[data-result-role="notice"]')
      .getByText('done: survived')
      .waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
