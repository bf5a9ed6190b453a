/**
 * A server of MCP 2026-07-28 whose tools, prompt and resource ask for input with multi round-trip
 * requests (SEP-2322: an `InputRequiredResult`, answered by the client's retry), built on the v2
 * server package and served over stdio.
 *
 * Usage: node --import tsx test/support/mrtr-server.ts
 *
 * Every `requestState` is sealed with the SDK's HMAC codec and verified on each retry, so state
 * that was changed on its way is refused (−32602 "Invalid or expired requestState").
 *
 * - `ask-name` {}: an elicitation form (`name`); "hello <name>", or "no name (<action>)".
 * - `open-page` {}: a URL-mode elicitation; "page: <action>".
 * - `draft` {}: `sampling/createMessage`; "model said: <text>".
 * - `where` {}: `roots/list`; the root URIs, one per line (or "no roots").
 * - `three-at-once` {}: a form, a sampling request and a roots request in one round; a summary.
 * - `two-rounds` {}: asks `first`, then (state sealed) `second`; "<first> then <second> (rounds: 2)".
 * - `tampered` {}: asks a question with a `requestState` whose seal does not match (as if changed on the way).
 * - prompt `greeting`: asks for a name, then a user message "Hello <name>".
 * - resource `notes://private`: asks to confirm, then the notes (or "not shared").
 */
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  McpServer,
  acceptedContent,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ServerContext
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const codec = createRequestStateCodec<{ step: string; first?: string }>({
  key: 'taskdesk-mrtr-fixture-key-0123456789abcdef'
});

type Responses = Record<string, unknown> | undefined;

function text(value: string): { content: Array<{ type: 'text'; text: string }> } {
  return { content: [{ type: 'text', text: value }] };
}

function responsesOf(ctx: ServerContext): Responses {
  return ctx.mcpReq.inputResponses;
}

const nameForm = (message: string) =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
  });

/** One server instance (stdio serves one client). */
export function buildMrtrServer(): McpServer {
  const server = new McpServer(
    { name: 'mrtr-server', version: '1.0.0' },
    {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      requestState: { verify: (state, ctx) => codec.verify(state, ctx) }
    }
  );

  server.registerTool('ask-name', { description: 'Asks for a name', inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = inputResponse(responsesOf(ctx), 'name');
    if (answer.kind !== 'elicit') return inputRequired({ inputRequests: { name: nameForm('Your name?') } });
    const content = acceptedContent<{ name: string }>(responsesOf(ctx), 'name');
    return text(content ? `hello ${content.name}` : `no name (${answer.action})`);
  });

  // Whether the retry carries a progress token, as the first request did.
  server.registerTool(
    'ask-then-token',
    { description: 'Asks for a name, then says if the retry had a progress token', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = inputResponse(responsesOf(ctx), 'name');
      if (answer.kind !== 'elicit') return inputRequired({ inputRequests: { name: nameForm('Your name, again?') } });
      return text(`progress token: ${ctx.mcpReq._meta?.progressToken !== undefined}`);
    }
  );

  server.registerTool(
    'open-page',
    { description: 'Asks to open a page', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = inputResponse(responsesOf(ctx), 'page');
      if (answer.kind !== 'elicit')
        return inputRequired({
          inputRequests: {
            page: inputRequired.elicitUrl({
              message: 'Sign in to the example service',
              url: 'https://example.com/sign-in'
            })
          }
        });
      return text(`page: ${answer.action}`);
    }
  );

  server.registerTool('draft', { description: 'Asks a model', inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = inputResponse(responsesOf(ctx), 'draft');
    if (answer.kind !== 'sampling')
      return inputRequired({
        inputRequests: {
          draft: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Write one word.' } }],
            maxTokens: 20
          })
        }
      });
    const content = answer.result.content as { type?: string; text?: string };
    return text(`model said: ${content.text ?? JSON.stringify(content)}`);
  });

  server.registerTool('where', { description: 'Asks for the roots', inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = inputResponse(responsesOf(ctx), 'roots');
    if (answer.kind !== 'roots') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    return text(answer.roots.length === 0 ? 'no roots' : answer.roots.map((root) => root.uri).join('\n'));
  });

  server.registerTool(
    'three-at-once',
    { description: 'Asks three things at once', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const responses = responsesOf(ctx);
      const name = inputResponse(responses, 'name');
      const draft = inputResponse(responses, 'draft');
      const roots = inputResponse(responses, 'roots');
      if (name.kind !== 'elicit' || draft.kind !== 'sampling' || roots.kind !== 'roots')
        return inputRequired({
          inputRequests: {
            name: nameForm('Your name, please'),
            draft: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'A colour?' } }],
              maxTokens: 10
            }),
            roots: inputRequired.listRoots()
          }
        });
      const who = acceptedContent<{ name: string }>(responses, 'name')?.name ?? `(${name.action})`;
      const said = (draft.result.content as { text?: string }).text ?? '?';
      return text(`name=${who} model=${said} roots=${roots.roots.length}`);
    }
  );

  server.registerTool('two-rounds', { description: 'Asks twice', inputSchema: z.object({}) }, async (_args, ctx) => {
    const responses = responsesOf(ctx);
    const state = ctx.mcpReq.requestState<{ step: string; first?: string }>();
    if (state === undefined) {
      return inputRequired({
        inputRequests: { first: nameForm('First word?') },
        requestState: await codec.mint({ step: 'first' })
      });
    }
    if (state.step === 'first') {
      const first = acceptedContent<{ name: string }>(responses, 'first')?.name ?? '?';
      return inputRequired({
        inputRequests: { second: nameForm('Second word?') },
        requestState: await codec.mint({ step: 'second', first })
      });
    }
    const second = acceptedContent<{ name: string }>(responses, 'second')?.name ?? '?';
    return text(`${state.first ?? '?'} then ${second} (rounds: 2)`);
  });

  server.registerTool(
    'tampered',
    { description: 'Sends a state that will not verify', inputSchema: z.object({}) },
    async () => {
      const sealed = await codec.mint({ step: 'first' });
      // One character changed, as an intermediary changing the state on its way would.
      const changed = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.slice(-1);
      return inputRequired({ inputRequests: { name: nameForm('Anything?') }, requestState: changed });
    }
  );

  server.registerPrompt('greeting', { description: 'Greets after asking a name' }, async (ctx) => {
    const content = acceptedContent<{ name: string }>(responsesOf(ctx), 'name');
    if (!content) return inputRequired({ inputRequests: { name: nameForm('Whom to greet?') } });
    return { messages: [{ role: 'user', content: { type: 'text', text: `Hello ${content.name}` } }] };
  });

  server.registerResource('notes', 'notes://private', { description: 'Asks before sharing' }, async (uri, ctx) => {
    const answer = inputResponse(responsesOf(ctx), 'share');
    if (answer.kind !== 'elicit')
      return inputRequired({
        inputRequests: {
          share: inputRequired.elicit({
            message: 'Share your notes?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } }
          })
        }
      });
    return { contents: [{ uri: uri.href, text: answer.action === 'accept' ? 'the private notes' : 'not shared' }] };
  });
  return server;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serveStdio(buildMrtrServer, { legacy: 'reject' });
}
