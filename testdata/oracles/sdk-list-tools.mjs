// Judges tools/list results the way a client built on the MCP TypeScript SDK
// does in Client.listTools: the result is parsed with the SDK's own
// ListToolsResultSchema, then every outputSchema is compiled by the SDK's
// default JSON Schema validator (Client.cacheToolMetadata), and either
// failing fails the whole list.
//
// stdin:  [{"id": string, "result": <tools/list result>}, ...]
// stdout: {"supportedVersions": [...], "results": [{"id": string, "issues":
//          [{"tool": index|null, "path": [...], "message": string}]}, ...]}
// A result the SDK accepts has no issues. supportedVersions are the
// protocol versions this SDK negotiates: its judgement speaks for those.
import { ListToolsResultSchema, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

const input = JSON.parse(await readStdin());
const results = input.map(({ id, result }) => ({ id, issues: judge(result) }));
process.stdout.write(JSON.stringify({ supportedVersions: SUPPORTED_PROTOCOL_VERSIONS, results }));

function judge(result) {
  const issues = [];
  const parsed = ListToolsResultSchema.safeParse(result);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      issues.push({
        tool: i.path[0] === "tools" && typeof i.path[1] === "number" ? i.path[1] : null,
        path: i.path,
        message: i.message,
      });
    }
  }
  // The client compiles output schemas only once the list parses; each
  // tool that parses is judged as if the list had, so that one bad tool
  // does not hide another's schema.
  const refused = new Set(issues.map((i) => i.tool));
  if (refused.has(null) || !Array.isArray(result?.tools)) return issues;
  const validator = new AjvJsonSchemaValidator(); // one per list, as the client keeps one
  result.tools.forEach((tool, index) => {
    if (refused.has(index) || !tool?.outputSchema) return;
    try {
      validator.getValidator(tool.outputSchema);
    } catch (e) {
      issues.push({ tool: index, path: ["tools", index, "outputSchema"], message: "compiling outputSchema: " + e.message });
    }
  });
  return issues;
}

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}
