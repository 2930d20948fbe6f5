// Lists MCP servers over Streamable HTTP with the MCP TypeScript SDK's own
// Client, as most clients do: connect (initialize), then each list the
// server declares a capability for (the SDK asks for no other), following
// nextCursor. It says whether the SDK got through and what it listed, so
// that a test can hold mcplint check's verdict on the same server to it.
// One node process lists every URL given, one after the other.
//
// argv:   URL...
// stdout: [{"ok": bool, "protocol": string, "tools": [names],
//           "prompts": number, "resources": number, "error": string}, ...]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const opts = { timeout: 2000 };
const all = [];
for (const url of process.argv.slice(2)) all.push(await list(url));
process.stdout.write(JSON.stringify(all));
process.exit(0);

async function list(url) {
  const out = { ok: false, protocol: "", tools: [], prompts: 0, resources: 0, error: "" };
  const client = new Client({ name: "mcplint-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(transport, opts);
    out.protocol = transport.protocolVersion ?? "";
    const caps = client.getServerCapabilities() ?? {};
    if (caps.tools) out.tools = (await pages((p) => client.listTools(p, opts), "tools")).map((t) => t.name);
    if (caps.prompts) out.prompts = (await pages((p) => client.listPrompts(p, opts), "prompts")).length;
    if (caps.resources) out.resources = (await pages((p) => client.listResources(p, opts), "resources")).length;
    out.ok = true;
  } catch (e) {
    out.error = String(e?.message ?? e);
  }
  try {
    await client.close();
  } catch {}
  return out;
}

// The SDK follows no cursor itself: a client loops, and stops at a cursor
// it has seen.
async function pages(list, member) {
  const all = [];
  const seen = new Set();
  let cursor;
  for (let i = 0; i < 100; i++) {
    const r = await list(cursor === undefined ? {} : { cursor });
    all.push(...r[member]);
    if (!r.nextCursor) return all;
    if (seen.has(r.nextCursor)) throw new Error(`${member}: the cursor ${r.nextCursor} came twice`);
    seen.add(r.nextCursor);
    cursor = r.nextCursor;
  }
  throw new Error(`${member}: no end after 100 pages`);
}
