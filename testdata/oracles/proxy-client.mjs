// Drives a server with the MCP TypeScript SDK's Client, as a real client
// does, and prints what each step got as JSON, so that the proxy tests can
// compare a server reached directly with the same server through mcplint
// proxy. Usage: node proxy-client.mjs CONFIG, where CONFIG is JSON:
//   {"transport": "stdio", "command": "...", "args": [...], "env": {...},
//    "scenario": "everything" | "filesystem" | "memory" | "zod",
//    "dir": "..."}
// or with "transport": "http" and "url". Each step's result is recorded,
// or its error as {"error": {"code", "message"}}; nothing is thrown.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  EmptyResultSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const config = JSON.parse(process.argv[2]);
const out = {};

const client = new Client(
  { name: 'proxy-e2e-client', version: '1.0.0' },
  { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} } },
);
client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///tmp/root', name: 'root' }] }));
client.setRequestHandler(CreateMessageRequestSchema, async () => ({
  role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled' },
}));
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
let notifications = 0;
client.fallbackNotificationHandler = async () => { notifications++; };

function describe(err) {
  return { error: { code: err?.code ?? null, message: String(err?.message ?? err) } };
}

async function step(name, fn) {
  try {
    out[name] = await fn();
  } catch (err) {
    out[name] = describe(err);
  }
}

const transport = config.transport === 'http'
  ? new StreamableHTTPClientTransport(new URL(config.url))
  : new StdioClientTransport({
    command: config.command, args: config.args ?? [],
    env: { ...getDefaultEnvironment(), ...(config.env ?? {}) }, stderr: 'ignore',
  });

try {
  await client.connect(transport);
} catch (err) {
  console.log(JSON.stringify({ connect: describe(err) }));
  process.exit(0);
}
out.server = { version: client.getServerVersion(), capabilities: client.getServerCapabilities() };

const names = (list, key = 'name') => list.map((x) => x[key]);

// server-everything registers the tools that use the client's capabilities
// (roots, sampling, elicitation) once the handshake is over, without waiting
// for it: wait for them (a few seconds at most), so that the listings
// compared are whole, directly and through the proxy alike.
async function settled() {
  for (let i = 0; i < 50; i++) {
    try {
      if (names((await client.listTools()).tools).includes('get-roots-list')) return;
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function everything() {
  await settled();
  await step('tools/list', async () => names((await client.listTools()).tools));
  await step('echo', () => client.callTool({ name: 'echo', arguments: { message: 'hello' } }));
  await step('get-sum', () => client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } }));
  await step('get-structured-content', () => client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } }));
  await step('get-annotated-message', () => client.callTool({ name: 'get-annotated-message', arguments: { messageType: 'error', includeImage: true } }));
  await step('get-tiny-image', () => client.callTool({ name: 'get-tiny-image', arguments: {} }));
  await step('get-resource-links', () => client.callTool({ name: 'get-resource-links', arguments: { count: 2 } }));
  await step('get-resource-reference', () => client.callTool({ name: 'get-resource-reference', arguments: { resourceType: 'Text', resourceId: 2 } }));
  await step('unknown tool', () => client.callTool({ name: 'no-such-tool', arguments: {} }));
  await step('progress', async () => {
    let progress = 0;
    const r = await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      undefined, { onprogress: () => { progress++; } });
    return { result: r, progress };
  });
  await step('roots (a server request)', () => client.callTool({ name: 'get-roots-list', arguments: {} }));
  await step('sampling (a server request)', () => client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 10 } }));
  await step('cancellation', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort('enough'), 300);
    try {
      await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 5, steps: 5 } }, undefined, { signal: ac.signal });
      return 'not cancelled';
    } catch (err) {
      return { cancelled: String(err?.message ?? err).includes('enough') };
    }
  });
  await step('ping after cancellation', () => client.ping());
  await step('prompts/list', async () => names((await client.listPrompts()).prompts));
  await step('prompts/get', () => client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris', state: 'IDF' } }));
  await step('resources/list', async () => names((await client.listResources()).resources, 'uri'));
  await step('resources/read', () => client.readResource({ uri: 'demo://resource/static/document/features.md' }));
  await step('resources/templates/list', async () => names((await client.listResourceTemplates()).resourceTemplates, 'uriTemplate'));
  await step('resources/subscribe', () => client.subscribeResource({ uri: 'demo://resource/static/document/features.md' }));
  await step('resources/unsubscribe', () => client.unsubscribeResource({ uri: 'demo://resource/static/document/features.md' }));
  await step('completion/complete', () => client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } }));
  await step('logging/setLevel', () => client.setLoggingLevel('debug'));
  await step('ping', () => client.ping());
  await step('unknown method', () => client.request({ method: 'unknown/method', params: {} }, EmptyResultSchema));
  // Differences the proxy makes on purpose: a decimal string for a number.
  await step('coerce: get-sum with strings', () => client.callTool({ name: 'get-sum', arguments: { a: '2', b: '3.5' } }));
}

async function filesystem() {
  const d = config.dir;
  await step('tools/list', async () => names((await client.listTools()).tools));
  await step('list_allowed_directories', () => client.callTool({ name: 'list_allowed_directories', arguments: {} }));
  await step('write_file', () => client.callTool({ name: 'write_file', arguments: { path: `${d}/notes.txt`, content: 'one\ntwo\nthree\n' } }));
  await step('read_text_file', () => client.callTool({ name: 'read_text_file', arguments: { path: `${d}/notes.txt` } }));
  await step('edit_file (dry run)', () => client.callTool({ name: 'edit_file', arguments: { path: `${d}/notes.txt`, edits: [{ oldText: 'two', newText: '2' }], dryRun: true } }));
  await step('list_directory', () => client.callTool({ name: 'list_directory', arguments: { path: d } }));
  await step('directory_tree', () => client.callTool({ name: 'directory_tree', arguments: { path: d } }));
  await step('outside the allowed directories', () => client.callTool({ name: 'read_text_file', arguments: { path: '/etc/hostname' } }));
  await step('coerce: read_text_file with a string head', () => client.callTool({ name: 'read_text_file', arguments: { path: `${d}/notes.txt`, head: '2' } }));
}

async function memory() {
  await step('tools/list', async () => names((await client.listTools()).tools));
  await step('create_entities', () => client.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote programs'] }, { name: 'Engine', entityType: 'machine', observations: [] }] } }));
  await step('create_relations', () => client.callTool({ name: 'create_relations', arguments: { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programmed' }] } }));
  await step('read_graph', () => client.callTool({ name: 'read_graph', arguments: {} }));
  await step('search_nodes', () => client.callTool({ name: 'search_nodes', arguments: { query: 'Ada' } }));
  await step('delete_entities', () => client.callTool({ name: 'delete_entities', arguments: { entityNames: ['Engine'] } }));
  await step('coerce: create_entities with a JSON text', () => client.callTool({ name: 'create_entities', arguments: { entities: '[{"name":"Babbage","entityType":"person","observations":[]}]' } }));
}


async function zod() {
  await step('tools/list', async () => (await client.listTools()).tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema })));
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const add = tools.find((n) => n.startsWith('math'));
  await step('add', () => client.callTool({ name: add, arguments: { a: 2, b: 3 } }));
  await step('add "5"', () => client.callTool({ name: add, arguments: { a: '5', b: 3 } }));
  await step('add "five"', () => client.callTool({ name: add, arguments: { a: 'five', b: 3 } }));
  await step('toggle "true"', () => client.callTool({ name: 'toggle', arguments: { on: 'true' } }));
  await step('configure JSON text', () => client.callTool({ name: 'configure', arguments: { options: '{"depth": 2}' } }));
  await step('stats (breaks its outputSchema)', () => client.callTool({ name: 'stats', arguments: {} }));
}

const scenarios = { everything, filesystem, memory, zod };
await scenarios[config.scenario]();
await client.close();
console.log(JSON.stringify(out));
