// Differential oracle for mcplint's Zod source: for every case it compiles
// the JSON Schema with Ajv (2020-12, 2019-09 or draft-07 as $schema says;
// ajv-formats; strict off) and evaluates the generated TypeScript modules
// (transpiled in-process, "zod" bound to Zod 4 or Zod 3), then prints, as
// JSON, every sample where Zod's safeParse and Ajv's validate disagree.
//
// stdin:  {"cases": [{"id", "schema", "modules": {"3": ts, "4": ts},
//          "samples": [{"value", "ptr"}]}]}
// stdout: {"checked": n, "disagreements": [{"id", "major", "sample",
//          "value", "ptr", "ajv", "zod"}], "errors": [{"id", "major", "error"}]}
import { readFileSync } from "node:fs";
import ts from "typescript";
import Ajv from "ajv";
import Ajv2019 from "ajv/dist/2019.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import * as zod4 from "zod";
import * as zod3 from "zod3";

// Zod 3 builds a ZodError for every failed parse; without stack traces
// that is cheap, and failed parses are half of the samples.
Error.stackTraceLimit = 0;
const started = Date.now();
const input = JSON.parse(readFileSync(0, "utf8"));
const opts = { strict: false, validateSchema: false, allErrors: false };

// One Ajv per dialect; a schema is removed after its case, so that
// schemas sharing an $id do not collide.
const ajvs = new Map();
function ajvFor(schema) {
  const s = typeof schema === "object" && schema !== null ? schema.$schema : undefined;
  let Class = Ajv2020;
  if (typeof s === "string" && s.includes("2019-09")) Class = Ajv2019;
  if (typeof s === "string" && /draft-0[67]/.test(s)) Class = Ajv;
  if (!ajvs.has(Class)) ajvs.set(Class, addFormats(new Class(opts)));
  return ajvs.get(Class);
}

// Every module becomes a function of z returning its tool's schema, and
// all of them are transpiled at once: transpileModule costs tens of
// milliseconds a call, whatever the size of its input.
function loadAll(codes) {
  const parts = codes.map((code, i) => {
    const name = /^export const (\w+Schema) =/m.exec(code)?.[1];
    const body = code.replace(/^import \{ z \} from "zod";$/m, "").replace(/^export const /gm, "const ");
    return `cases[${i}] = (z: any) => {\n${body}\nreturn ${name};\n};`;
  });
  const js = ts.transpileModule("const cases: any[] = [];\n" + parts.join("\n") + "\nreturn cases;", {
    compilerOptions: { module: ts.ModuleKind.None, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: false,
  }).outputText;
  return new Function(js)();
}

const out = { checked: 0, disagreements: [], errors: [] };
const loaders = { "3": loadAll(input.cases.map((c) => c.modules["3"])), "4": loadAll(input.cases.map((c) => c.modules["4"])) };
input.cases.forEach((c, ci) => {
  let validate;
  const ajv = ajvFor(c.schema);
  const { $schema, ...rest } = c.schema;
  try {
    validate = ajv.compile(rest);
  } catch (e) {
    out.errors.push({ id: c.id, major: 0, error: "ajv: " + e.message });
    return;
  } finally {
    ajv.removeSchema(rest);
    if (typeof rest.$id === "string") ajv.removeSchema(rest.$id);
  }
  for (const [major, zmod] of [["3", zod3], ["4", zod4]]) {
    let zs;
    try {
      zs = loaders[major][ci](zmod.z);
    } catch (e) {
      out.errors.push({ id: c.id, major: Number(major), error: e.stack });
      continue;
    }
    for (const [i, s] of c.samples.entries()) {
      out.checked++;
      let a;
      try {
        a = validate(s.value);
      } catch (e) {
        out.errors.push({ id: c.id, major: Number(major), error: "ajv: validate: " + e.message });
        break;
      }
      let z;
      try {
        z = zs.safeParse(s.value).success;
      } catch (e) {
        z = "threw: " + e.message;
      }
      if (a !== z) {
        out.disagreements.push({ id: c.id, major: Number(major), sample: i, value: s.value, ptr: s.ptr, also: s.also, ajv: a, zod: z });
      }
    }
  }
});
out.ms = Date.now() - started;
process.stdout.write(JSON.stringify(out));
