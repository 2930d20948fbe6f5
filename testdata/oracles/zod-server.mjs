// A stdio MCP server built with the TypeScript SDK that validates every
// call's arguments with Zod, as many servers do, and answers arguments Zod
// refuses with the JSON-RPC error -32602 (InvalidParams): a model's "5"
// for a number fails here. Its tools list the JSON Schema Zod writes for
// them. "math.add" has a name OpenAI refuses; "stats" breaks its own
// outputSchema. Used by the proxy tests.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const tools = {
  'math.add': {
    description: 'Add two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  },
  toggle: {
    description: 'Turn something on or off.',
    input: z.object({ on: z.boolean() }),
    run: ({ on }) => ({ content: [{ type: 'text', text: on ? 'on' : 'off' }] }),
  },
  configure: {
    description: 'Configure with options.',
    input: z.object({ options: z.object({ depth: z.number().int() }) }),
    run: ({ options }) => ({ content: [{ type: 'text', text: `depth ${options.depth}` }] }),
  },
  stats: {
    description: 'Report statistics.',
    input: z.object({}),
    output: z.object({ count: z.number().int() }),
    run: () => ({ content: [{ type: 'text', text: '{"count":"many"}' }], structuredContent: { count: 'many' } }),
  },
};

const server = new Server({ name: 'zod-validated-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: Object.entries(tools).map(([name, t]) => ({
    name,
    description: t.description,
    inputSchema: z.toJSONSchema(t.input),
    ...(t.output ? { outputSchema: z.toJSONSchema(t.output) } : {}),
  })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = tools[request.params.name];
  if (!tool) {
    throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
  }
  const parsed = tool.input.safeParse(request.params.arguments ?? {});
  if (!parsed.success) {
    throw new McpError(ErrorCode.InvalidParams, `invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return tool.run(parsed.data);
});
await server.connect(new StdioServerTransport());
