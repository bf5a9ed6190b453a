/**
 * A stdio server that leaves plain work open, for the unclean-stop test: its tool `wait` never
 * answers, and a call to it asks the client a question outside a task (`elicitation/create`)
 * that waits for the person.
 *
 * Usage: node --import tsx test/support/open-work-server.ts
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'open-work-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'wait', inputSchema: { type: 'object' } }]
}));
server.setRequestHandler(CallToolRequestSchema, () => {
  void server
    .request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Ship the release to every customer now? This question goes on for a while, to be cut short.',
          requestedSchema: { type: 'object', properties: {} }
        }
      },
      ElicitResultSchema
    )
    .catch(() => undefined);
  return new Promise<never>(() => undefined);
});
await server.connect(new StdioServerTransport());
