// Generates the test data of the zod-leak rule: what JSON.stringify really
// makes of Zod 3 and Zod 4 schemas, published where JSON Schema belongs.
//
//   cd testdata/generators/zod-leak && npm ci && node gen.mjs
//
// It writes, relative to the repository root:
//   normalize/testdata/zod/fixtures.json       one leaked value per line, with
//       the JSON Schema the library's own converter makes of the live schema
//       (zod-to-json-schema for Zod 3, as the MCP TypeScript SDK 1.x calls it;
//       z.toJSONSchema with io "input" for Zod 4), so the Go rebuild is judged
//       against the converters and not against itself;
//   rules/testdata/cases/zod-leak/<case>/input.json   manifests whose tools
//       carry the leaked values.
// The versions are pinned exactly in package.json ("zod3" and "zod4" are
// aliases; plain "zod" is there only as zod-to-json-schema's peer) and the
// lock file is committed. Re-running it must leave the committed files
// unchanged.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { zodToJsonSchema } from 'zod-to-json-schema';
import { z as z3 } from 'zod3';
import { z as z4 } from 'zod4';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

// What a server publishes when a Zod value reaches the wire without its
// converter: JSON.stringify keeps the enumerable own properties and drops
// functions, so the result is the Zod internals, not a schema.
const leak = (v) => JSON.parse(JSON.stringify(v));

function converted(version, schema) {
  const out = version === 3
    ? zodToJsonSchema(schema, { strictUnions: true, pipeStrategy: 'input' })
    : z4.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' });
  delete out.$schema;
  return out;
}

// ---- Zod 3 ----------------------------------------------------------------

// Every kind the rebuild knows, with bounds, descriptions, optional, nullable
// and defaults. Zod 3 keeps a ZodObject's shape behind a function, so a nested
// object survives JSON.stringify only through the cache its first parse fills
// (_cached); searchShape3 is therefore parsed once before it is serialised.
const searchShape3 = () => ({
  query: z3.string().min(1).max(200).describe('Search terms'),
  limit: z3.number().int().min(1).max(100).optional().describe('Maximum number of results'),
  score: z3.number().gt(0).lte(1),
  exact: z3.boolean().default(false),
  sort: z3.enum(['relevance', 'date']).describe('Result order'),
  tags: z3.array(z3.string().max(32)).min(1).max(5).optional(),
  cursor: z3.string().nullable(),
  kind: z3.union([z3.literal('issue'), z3.literal('pr')]),
  filter: z3.object({
    author: z3.string().email(),
    since: z3.string().datetime().optional(),
  }).strict().describe('Restrict the search'),
});
const search3 = searchShape3();
const cachedObject3 = z3.object(search3);
cachedObject3.safeParse({ filter: { author: 'a@example.com' } });

// A small object parsed once, so its shape is in _cached.
const result3 = z3.object({ total: z3.number().int().nonnegative(), next: z3.string().optional() });
result3.safeParse({ total: 1 });

// The same object never parsed: its shape is a function and serialises to
// nothing, so only "a ZodObject" survives.
const lostObject3 = z3.object(searchShape3());
const lostNested3 = {
  path: z3.string().describe('File to write'),
  options: z3.object({ mode: z3.string() }),
};

// ---- Zod 4 ----------------------------------------------------------------

// Zod 4 keeps shapes and defaults in def, but its checks (.min, .max, .regex,
// .length, ...) serialise to {} and .describe() lives in a registry, so those
// are lost. Only what survives is used here; bounded4 shows the losses.
const searchShape4 = () => ({
  query: z4.string().describe('Search terms (this description does not survive)'),
  limit: z4.int().optional(),
  exact: z4.boolean().default(false),
  sort: z4.enum(['relevance', 'date']),
  tags: z4.array(z4.string()).optional(),
  cursor: z4.string().nullable(),
  site: z4.url(),
  kind: z4.literal('issue'),
  filter: z4.object({ author: z4.string(), draft: z4.boolean().optional() }),
});
const search4 = searchShape4();
const object4 = z4.object({
  owner: z4.string(),
  repo: z4.string(),
  state: z4.enum(['open', 'closed']).default('open'),
});
const output4 = z4.strictObject({ id: z4.int(), url: z4.string(), labels: z4.array(z4.string()) });
const bounded4 = {
  query: z4.string().min(1).max(200),
  limit: z4.int().min(1).max(100).optional(),
  email: z4.email(),
};

// ---- fixtures for the normalize tests -------------------------------------

const fixtures = [
  ['zod3-raw-shape', 3, search3, z3.object(search3)],
  ['zod3-object-cached', 3, cachedObject3, cachedObject3],
  ['zod3-object-lost-shape', 3, lostObject3, lostObject3],
  ['zod3-nested-lost-shape', 3, lostNested3, z3.object(lostNested3)],
  ['zod3-passthrough-catchall', 3,
    { meta: z3.object({ id: z3.string() }).passthrough(), counts: z3.record(z3.string(), z3.number().nonnegative()) },
    null],
  ['zod3-regex', 3, { code: z3.string().regex(/^[A-Z]{3}$/) }, null],
  ['zod4-raw-shape', 4, search4, z4.object(search4)],
  ['zod4-object', 4, object4, object4],
  ['zod4-strict-object', 4, output4, output4],
  ['zod4-bounded', 4, bounded4, z4.object(bounded4)],
  ['zod4-union-record', 4,
    { id: z4.union([z4.string(), z4.number()]), env: z4.record(z4.string(), z4.string()), mode: z4.literal(['a', 'b']) },
    null],
];
const lines = fixtures.map(([name, version, value, live]) => {
  const liveSchema = live ?? (version === 3 ? z3.object(value) : z4.object(value));
  return JSON.stringify({ name, version, leak: leak(value), converted: converted(version, liveSchema) });
});
write('normalize/testdata/zod/fixtures.json', '[\n' + lines.join(',\n') + '\n]\n');

// ---- manifests for the rule's cases ---------------------------------------

const tool = (name, description, extra) => ({ name, description, ...extra });
const manifest = (...tools) => JSON.stringify({ tools }, null, 2) + '\n';

write('rules/testdata/cases/zod-leak/zod3-raw-shape/input.json', manifest(
  // The raw shape itself handed over as inputSchema; a parsed ZodObject as
  // outputSchema.
  tool('search', 'Search issues.', { inputSchema: leak(search3), outputSchema: leak(result3) }),
  // The raw shape put under "properties" of a hand-written object schema.
  tool('search_props', 'Search issues.', {
    inputSchema: { type: 'object', properties: leak({ query: search3.query, limit: search3.limit, exact: search3.exact }) },
  }),
));

write('rules/testdata/cases/zod-leak/zod3-lost-shape/input.json', manifest(
  tool('search', 'Search issues.', { inputSchema: leak(lostObject3) }),
  tool('write_file', 'Write a file.', { inputSchema: leak(lostNested3) }),
));

write('rules/testdata/cases/zod-leak/zod4-raw-shape/input.json', manifest(
  tool('search', 'Search issues.', { inputSchema: leak(search4) }),
  tool('search_props', 'Search issues.', {
    inputSchema: { type: 'object', properties: leak({ query: search4.query, limit: search4.limit, sort: search4.sort }) },
  }),
));

write('rules/testdata/cases/zod-leak/zod4-object/input.json', manifest(
  tool('list_issues', 'List the issues of a repository.', {
    inputSchema: leak(object4),
    outputSchema: leak(output4),
  }),
));

write('rules/testdata/cases/zod-leak/zod4-lost-checks/input.json', manifest(
  tool('search', 'Search issues.', { inputSchema: leak(bounded4) }),
));

write('rules/testdata/cases/zod-leak/partial-leak/input.json', manifest(
  tool('read_file', 'Read a file.', {
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File to read' },
        encoding: leak(z3.enum(['utf8', 'base64']).describe('How to return the content')),
      },
      required: ['path'],
    },
  }),
  tool('tag_files', 'Tag files.', {
    inputSchema: {
      type: 'object',
      properties: {
        files: { type: 'array', items: leak(z4.string()) },
        tag: { type: 'string' },
      },
      required: ['files', 'tag'],
    },
  }),
));

// One safe and one unsafe finding in the same tool, fixed without
// --unsafe-fixes: only the safe one is applied.
write('rules/testdata/cases/zod-leak/mixed-fixes/input.json', manifest(
  tool('lookup', 'Look up a country.', {
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        region: leak(z3.enum(['eu', 'us']).optional()),
        code: leak(z3.string().regex(/^[A-Z]{2}$/).describe('ISO 3166 code')),
      },
      required: ['code'],
    },
  }),
));

function write(rel, text) {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log('wrote', rel);
}
