// Judge of mcplint's regular expression literals: for every case it asks
// the engine whether the pattern compiles in Unicode mode, and, when
// mcplint wrote a literal for it, whether the literal parses as JavaScript
// and denotes the same pattern.
//
// stdin:  {"cases": [{"pattern": string, "literal": string | null}]}
// stdout: {"results": [{"valid": bool, "error": string, "parses": bool,
//          "flags": string, "same": bool, "source": string, "expected": string}]}
//
// "same" compares the two sources after undoing the spellings that differ
// without changing the pattern: "\/" for "/", and a character written as
// \u{...} (mcplint: any outside printable ASCII, and "#", which it escapes
// after a "#"), \n, \r, \u2028, \u2029 (the engine's escaping of
// RegExp.prototype.source) or as itself.
import { readFileSync } from "node:fs";

function canon(src) {
  let out = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c !== "\\") {
      out += c;
      continue;
    }
    const rest = src.slice(i + 1);
    let m;
    if (rest[0] === "/") {
      out += "/";
      i += 1;
    } else if (rest[0] === "n") {
      out += "\n";
      i += 1;
    } else if (rest[0] === "r") {
      out += "\r";
      i += 1;
    } else if ((m = /^u(2028|2029)/.exec(rest))) {
      out += String.fromCharCode(parseInt(m[1], 16));
      i += m[0].length;
    } else if ((m = /^u\{([0-9A-Fa-f]+)\}/.exec(rest)) && (!(parseInt(m[1], 16) >= 0x20 && parseInt(m[1], 16) < 0x7f) || parseInt(m[1], 16) === 0x23)) {
      out += String.fromCodePoint(parseInt(m[1], 16));
      i += m[0].length;
    } else {
      out += c + (rest[0] ?? "");
      i += 1;
    }
  }
  return out;
}

const input = JSON.parse(readFileSync(0, "utf8"));
const results = input.cases.map(({ pattern, literal }) => {
  const r = { valid: false, error: "", parses: false, flags: "", same: false, source: "", expected: "" };
  let expected;
  try {
    expected = new RegExp(pattern, "u");
    r.valid = true;
    r.expected = expected.source;
  } catch (e) {
    r.error = e.message;
  }
  if (literal === null) return r;
  let re;
  try {
    re = new Function("return " + literal + ";")();
  } catch (e) {
    r.error = "literal: " + e.message;
    return r;
  }
  r.parses = re instanceof RegExp;
  r.flags = re.flags;
  r.source = re.source;
  r.same = r.valid && canon(re.source) === canon(expected.source);
  return r;
});
process.stdout.write(JSON.stringify({ results }));
