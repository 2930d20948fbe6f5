// Judge of the inertness of mcplint's Zod modules, by the TypeScript
// compiler's own parser. A module passes when it parses without a
// diagnostic and:
//   - its only import is `import { z } from "zod"`;
//   - its functions and types are mcplint's helpers, verbatim;
//   - every other statement declares one constant (exported or not; the
//     only type annotation allowed is z.ZodType<any>) whose value uses
//     nothing but literals, the module's own constants and helpers, calls
//     of known Zod members on the z chain or on a constant, calls of
//     helpers, and z.lazy(() => constant);
//   - it exports exactly the names expected.
// A module that passes is then loaded with Zod 4 (its code run as a
// function of z, as zod-diff.mjs does) and its exported schemas converted
// with z.toJSONSchema, so the caller can check that each string arrived
// intact.
//
// stdin:  {"helpers": {name: source}, "members": [name],
//          "modules": [{"id", "code", "exports": [name], "load": bool}]}
// stdout: {"results": [{"id", "error": string, "schemas": {name: json}}]}
import { readFileSync } from "node:fs";
import ts from "typescript";
import * as zod4 from "zod";

const input = JSON.parse(readFileSync(0, "utf8"));
const members = new Set(input.members);
const K = ts.SyntaxKind;

function check(id, code, exports) {
  const sf = ts.createSourceFile(id + ".ts", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  if (sf.parseDiagnostics.length > 0) {
    const d = sf.parseDiagnostics[0];
    return "parse error at " + d.start + ": " + ts.flattenDiagnosticMessageText(d.messageText, " ");
  }
  const helpers = new Set();
  const consts = new Set();
  const exported = new Set();
  const values = [];
  const stmts = sf.statements;
  const imp = stmts[0];
  if (
    !imp ||
    imp.kind !== K.ImportDeclaration ||
    imp.moduleSpecifier.text !== "zod" ||
    imp.getText(sf) !== 'import { z } from "zod";'
  ) {
    return "the first statement is not the import of z";
  }
  for (const st of stmts.slice(1)) {
    if (st.kind === K.FunctionDeclaration || st.kind === K.TypeAliasDeclaration) {
      const name = st.name?.text;
      const src = input.helpers[name];
      // A helper's text is its source less the comment lines above it.
      if (src === undefined || !src.endsWith(st.getText(sf)) || helpers.has(name)) {
        return "declaration of " + name + " is not one of mcplint's helpers";
      }
      const head = src.slice(0, src.length - st.getText(sf).length);
      if (!head.split("\n").every((l) => l === "" || l.startsWith("//"))) {
        return "declaration of " + name + " differs from the helper";
      }
      helpers.add(name);
      continue;
    }
    if (st.kind !== K.VariableStatement) return "statement of kind " + K[st.kind];
    const mods = (st.modifiers ?? []).map((m) => m.kind);
    if (mods.some((m) => m !== K.ExportKeyword)) return "modifier on a declaration";
    const list = st.declarationList;
    if (!(list.flags & ts.NodeFlags.Const) || list.declarations.length !== 1) return "not one const declaration";
    const d = list.declarations[0];
    if (d.name.kind !== K.Identifier || !d.initializer) return "declaration without a name or a value";
    if (d.type && d.type.getText(sf) !== "z.ZodType<any>") return "type annotation " + d.type.getText(sf);
    const name = d.name.text;
    if (consts.has(name) || helpers.has(name) || name === "z") return name + " declared twice";
    consts.add(name);
    if (mods.length > 0) exported.add(name);
    values.push([name, d.initializer]);
  }
  const known = (n) => n === "z" || consts.has(n) || helpers.has(n);
  function expr(n) {
    switch (n.kind) {
      case K.StringLiteral:
      case K.NumericLiteral:
      case K.TrueKeyword:
      case K.FalseKeyword:
      case K.NullKeyword:
        return null;
      case K.RegularExpressionLiteral:
        return n.text.endsWith("/u") ? null : "regular expression " + n.text + " without the u flag";
      case K.PrefixUnaryExpression:
        return n.operator === K.MinusToken && n.operand.kind === K.NumericLiteral ? null : "operator " + n.getText(sf);
      case K.ArrayLiteralExpression:
        for (const e of n.elements) {
          if (e.kind === K.SpreadElement || e.kind === K.OmittedExpression) return "array element " + e.getText(sf);
          const err = expr(e);
          if (err) return err;
        }
        return null;
      case K.ObjectLiteralExpression:
        for (const p of n.properties) {
          if (p.kind !== K.PropertyAssignment) return "object member " + p.getText(sf);
          const k = p.name;
          if (k.kind === K.ComputedPropertyName) {
            if (k.expression.kind !== K.StringLiteral || k.expression.text !== "__proto__") return "computed key " + k.getText(sf);
          } else if (k.kind !== K.Identifier && k.kind !== K.StringLiteral) {
            return "key " + k.getText(sf);
          }
          const err = expr(p.initializer);
          if (err) return err;
        }
        return null;
      case K.Identifier:
        return known(n.text) ? null : "identifier " + n.text + " is not the module's own";
      case K.PropertyAccessExpression:
        if (n.questionDotToken) return "optional chain";
        if (!members.has(n.name.text)) return "member " + n.name.text + " is not a known Zod member";
        if (n.expression.kind === K.Identifier && helpers.has(n.expression.text)) return "member of a helper";
        return expr(n.expression);
      case K.CallExpression: {
        if (n.questionDotToken || n.typeArguments) return "call " + n.getText(sf).slice(0, 80);
        const f = n.expression;
        if (f.kind === K.PropertyAccessExpression) {
          const err = expr(f);
          if (err) return err;
        } else if (!(f.kind === K.Identifier && helpers.has(f.text))) {
          return "call of " + f.getText(sf).slice(0, 80);
        }
        for (const a of n.arguments) {
          if (a.kind === K.SpreadElement) return "spread argument";
          const err = expr(a);
          if (err) return err;
        }
        return null;
      }
      case K.ArrowFunction:
        if (n.parameters.length > 0 || n.modifiers || n.type || n.typeParameters) return "function " + n.getText(sf);
        return n.body.kind === K.Identifier && consts.has(n.body.text) ? null : "function " + n.getText(sf);
    }
    return "expression of kind " + K[n.kind] + ": " + n.getText(sf).slice(0, 80);
  }
  for (const [name, v] of values) {
    const err = expr(v);
    if (err) return name + ": " + err;
  }
  const want = new Set(exports);
  if (want.size !== exported.size || [...want].some((e) => !exported.has(e))) {
    return "exports " + [...exported].sort().join(",") + ", want " + [...want].sort().join(",");
  }
  return "";
}

// load runs a module that passed the check, as a function of z, and
// returns the JSON Schema of each exported schema.
function load(code, exports) {
  const body = code.replace(/^import \{ z \} from "zod";$/m, "").replace(/^export const /gm, "const ");
  const js = ts.transpileModule(body + "\nreturn {" + exports.join(", ") + "};", {
    compilerOptions: { module: ts.ModuleKind.None, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: false,
  }).outputText;
  const mod = new Function("z", js)(zod4.z);
  const out = {};
  for (const name of exports) {
    if (!name.endsWith("Schema")) continue;
    out[name] = zod4.z.toJSONSchema(mod[name], { io: "input", unrepresentable: "any", cycles: "ref", reused: "inline" });
  }
  return out;
}

const results = input.modules.map((m) => {
  const r = { id: m.id, error: check(m.id, m.code, m.exports) };
  if (!r.error && m.load) {
    try {
      r.schemas = load(m.code, m.exports);
    } catch (e) {
      r.error = "load: " + (e.stack ?? e);
    }
  }
  return r;
});
process.stdout.write(JSON.stringify({ results }));
