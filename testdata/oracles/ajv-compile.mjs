// Compiles JSON Schemas with Ajv in strict mode, each with the build of its
// dialect: Ajv2020 for 2020-12 (also when there is no "$schema": MCP's
// default dialect), Ajv2019 for 2019-09, the draft-07 build for draft-07 and
// draft-06, ajv-draft-04 for draft-04. Any other "$schema" goes to Ajv2020,
// which refuses the unknown meta-schema: a dialect no consumer's Ajv knows
// is an error worth seeing.
//
// Strict mode is Ajv's own default one (https://ajv.js.org/strict-mode.html
// and https://ajv.js.org/options.html#strict-mode-options): strictSchema
// refuses unknown keywords and formats and ignored keywords
// (additionalItems without an items array...), strictNumbers refuses
// numbers that are not finite. strictTypes and strictTuples stay as Ajv
// defaults them, off as errors ("log"): they flag valid schemas that only
// lack redundant "type"s ("properties" in a $defs entry without "type":
// "object") or tuple bounds, which no consumer refuses. strictRequired is
// off, as by default. Meta-schema validation is on.
//
// Keywords accepted although Ajv does not declare them:
//   - "x-*": extension keywords, the convention of OpenAPI's specification
//     extensions; MCP 2026-07-28 itself defines "x-mcp-header"
//     (server/tools). JSON Schema 2020-12 core, section 6.5, lets
//     validators collect unknown keywords as annotations; Ajv strict refuses
//     them only to catch typos.
//   - "example": an OpenAPI 3.0 Schema Object field, which Gemini's function
//     declarations carry (https://ai.google.dev/api/caching#Schema) and
//     OpenAPI-derived servers emit.
//   - "propertyOrdering": a field of the same Gemini Schema object (the
//     order the model writes properties in), which schemas written for
//     Gemini carry. (OpenAPI's "nullable" needs no entry:
//     Ajv implements it, and refuses it without a "type" beside it.)
//   - "$anchor" (2019-09 and 2020-12 only): a core keyword of those
//     dialects that Ajv 8 resolves (compile/resolve.js registers "#name"
//     for it) but declares in no vocabulary, so strict mode would call it
//     unknown. References to an anchor still have to resolve.
// "https://json-schema.org/draft-07/schema" (https, no "#") is read as
// draft-07, as json-schema.org serves the draft-07 meta-schema there and
// other validators (santhosh-tekuri/jsonschema, Python's jsonschema)
// accept it.
//
// stdin:  [{"id": string, "schema": <schema>}, ...]
// stdout: [{"id": string, "dialect": string, "error": string|null}, ...]
import Ajv2020 from "ajv/dist/2020.js";
import Ajv2019 from "ajv/dist/2019.js";
import Ajv07 from "ajv";
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const draft06 = require("ajv/dist/refs/json-schema-draft-06.json");
const draft07 = require("ajv/dist/refs/json-schema-draft-07.json");

const annotations = ["example", "propertyOrdering"];

const builds = {
  "2020-12": () => new Ajv2020(options(["$anchor"])),
  "2019-09": () => new Ajv2019(options(["$anchor"])),
  "draft-07": () => {
    const ajv = new Ajv07(options());
    ajv.addMetaSchema(draft07, "https://json-schema.org/draft-07/schema");
    return ajv;
  },
  "draft-04": () => new AjvDraft04(options()),
  "draft-06": () => {
    const ajv = new Ajv07(options());
    ajv.addMetaSchema(draft06);
    return ajv;
  },
};

function options(more = []) {
  return {
    strictSchema: true,
    strictNumbers: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    keywords: [...annotations, ...more],
    logger: false,
    // Compile-only: the generated code is never run on data, so Ajv's
    // code optimisation passes are skipped (they dominate a big schema).
    code: { optimize: false },
  };
}

const metas = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "https://json-schema.org/draft/2019-09/schema": "2019-09",
  "http://json-schema.org/draft-07/schema": "draft-07",
  "https://json-schema.org/draft-07/schema": "draft-07",
  "http://json-schema.org/draft-06/schema": "draft-06",
  "http://json-schema.org/draft-04/schema": "draft-04",
};

function dialect(schema) {
  if (schema === null || typeof schema !== "object" || !("$schema" in schema)) return "2020-12";
  const uri = typeof schema.$schema === "string" ? schema.$schema.replace(/#$/, "") : "";
  return metas[uri] ?? "2020-12";
}

// Every "x-" keyword of the schema, wherever it sits: Ajv has no prefix
// rule, so each is declared before compiling.
function extensionKeywords(v, out = new Set()) {
  if (Array.isArray(v)) v.forEach((e) => extensionKeywords(e, out));
  else if (v !== null && typeof v === "object") {
    for (const [k, e] of Object.entries(v)) {
      if (k.startsWith("x-")) out.add(k);
      extensionKeywords(e, out);
    }
  }
  return out;
}

// One instance per dialect is reused, since building one costs far more
// than a compile; extension keywords are declared on it as they come (they
// are annotations, so declaring more changes no other schema's meaning).
// Each schema is removed again after its compile, whatever the outcome; an
// instance that met an "$id" is dropped, since nested ids stay registered.
const instances = new Map();

function compile(schema) {
  const d = dialect(schema);
  let ajv = instances.get(d);
  if (!ajv) {
    ajv = builds[d]();
    addFormats(ajv);
    ajv.declared = new Set();
    instances.set(d, ajv);
  }
  for (const k of extensionKeywords(schema)) {
    if (!ajv.declared.has(k)) ajv.addKeyword(k);
    ajv.declared.add(k);
  }
  let error = null;
  try {
    ajv.compile(schema);
  } catch (e) {
    error = e.message;
  }
  try {
    ajv.removeSchema(schema);
  } catch {
    instances.delete(d);
  }
  if (JSON.stringify(schema).includes('"$id"')) instances.delete(d);
  return { dialect: d, error };
}

const input = JSON.parse(await readStdin());
process.stdout.write(JSON.stringify(input.map(({ id, schema }) => ({ id, ...compile(schema) }))));

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}
