// Drives mcplint's MCP server (mcplint mcp) with the MCP TypeScript SDK's
// own Client over stdio, as an agent's client would: it lists the tools
// and resources, calls each tool of the plan, and reads each resource. The
// SDK validates every result: a tool with an outputSchema whose
// structuredContent does not match it fails the call.
//
// argv:   COMMAND ARGS... (the server)
// env:    passed on to the server
// stdin:  {"calls": [{"name": string, "arguments": {...}}], "resources": [uri...]}
// stdout: {"server": {...}, "tools": [names], "resources": number,
//          "results": [{"name", "isError", "text", "structuredContent"}],
//          "read": [{"uri", "mimeType", "length"}]}
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
const plan = JSON.parse(await readStdin());
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "mcplint-test", version: "1.0.0" });
await client.connect(transport);

const out = { server: client.getServerVersion(), tools: [], resources: 0, results: [], read: [] };
for (const tool of (await client.listTools()).tools) out.tools.push(tool.name);
out.resources = (await client.listResources()).resources.length;
for (const call of plan.calls) {
  const res = await client.callTool({ name: call.name, arguments: call.arguments });
  out.results.push({
    name: call.name,
    isError: res.isError === true,
    text: res.content.filter((c) => c.type === "text").map((c) => c.text).join(""),
    structuredContent: res.structuredContent ?? null,
  });
}
for (const uri of plan.resources) {
  const res = await client.readResource({ uri });
  for (const c of res.contents) out.read.push({ uri: c.uri, mimeType: c.mimeType, length: (c.text ?? "").length });
}
await client.close();
process.stdout.write(JSON.stringify(out));

async function readStdin() {
  let s = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) s += chunk;
  return s;
}
