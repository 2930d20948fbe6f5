// Validates instances against JSON Schemas with Ajv, each schema with the
// build of its dialect as ajv-compile.mjs chooses it (Ajv2020 when there is
// no "$schema", Ajv2019, the draft-07 build for draft-07 and draft-06,
// ajv-draft-04 for draft-04), strict mode off (only what validates
// matters here), formats from ajv-formats.
//
// stdin:  [{"id": string, "schema": <schema>, "instances": [<value>, ...]}, ...]
// stdout: [{"id": string, "dialect": string, "error": string|null,
//           "valid": [bool, ...]}, ...]
import Ajv2020 from "ajv/dist/2020.js";
import Ajv2019 from "ajv/dist/2019.js";
import Ajv07 from "ajv";
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const draft06 = require("ajv/dist/refs/json-schema-draft-06.json");

const options = { strict: false, logger: false };
const builds = {
  "2020-12": () => new Ajv2020(options),
  "2019-09": () => new Ajv2019(options),
  "draft-07": () => new Ajv07(options),
  "draft-06": () => {
    const ajv = new Ajv07(options);
    ajv.addMetaSchema(draft06);
    return ajv;
  },
  "draft-04": () => new AjvDraft04(options),
};

const metas = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "https://json-schema.org/draft/2019-09/schema": "2019-09",
  "http://json-schema.org/draft-07/schema": "draft-07",
  "http://json-schema.org/draft-06/schema": "draft-06",
  "http://json-schema.org/draft-04/schema": "draft-04",
};

function dialect(schema) {
  if (schema === null || typeof schema !== "object" || typeof schema.$schema !== "string") return "2020-12";
  return metas[schema.$schema.replace(/#$/, "")] ?? "2020-12";
}

// A fresh instance per schema: schemas of the table share "$id"s.
function judge({ id, schema, instances }) {
  const d = dialect(schema);
  const ajv = builds[d]();
  addFormats(ajv);
  try {
    const validate = ajv.compile(schema);
    return { id, dialect: d, error: null, valid: instances.map((v) => validate(v)) };
  } catch (e) {
    return { id, dialect: d, error: e.message, valid: [] };
  }
}

const input = JSON.parse(await readStdin());
process.stdout.write(JSON.stringify(input.map(judge)));

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}
