package convert

import (
	"maps"
	"slices"
	"strings"
)

// zodHelpers are the functions the refinements call, written into the
// module only when used. Each takes the Zod schemas it checks with once,
// when the module loads, so a parse never builds a schema.
var zodHelpers = map[string]string{
	"Parser": `type Parser = { safeParse(v: unknown): { success: boolean } };`,
	"jsonEqual": `function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ka = Object.keys(a), kb = Object.keys(b);
  const ra = a as Record<string, unknown>, rb = b as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && jsonEqual(ra[k], rb[k]));
}`,
	"uniqueItems": `// uniqueItems compares items as JSON Schema does: numbers by value,
// objects whatever their key order.
function uniqueItems(a: readonly unknown[]): boolean {
  return a.every((x, i) => a.findIndex((y) => jsonEqual(x, y)) === i);
}`,
	"matches": `function matches(s: Parser) {
  return (v: unknown): boolean => s.safeParse(v).success;
}`,
	"not": `function not(s: Parser) {
  return (v: unknown): boolean => !s.safeParse(v).success;
}`,
	"ifThenElse": `function ifThenElse(i: Parser, t: Parser | null, e: Parser | null) {
  return (v: unknown): boolean => {
    const branch = i.safeParse(v).success ? t : e;
    return branch === null || branch.safeParse(v).success;
  };
}`,
	"exactlyOne": `function exactlyOne(list: Parser[]) {
  return (v: unknown): boolean => list.filter((s) => s.safeParse(v).success).length === 1;
}`,
	"contains": `function contains(s: Parser, min: number, max: number) {
  return (a: readonly unknown[]): boolean => {
    const n = a.filter((x) => s.safeParse(x).success).length;
    return n >= min && n <= max;
  };
}`,
	"propertyNames": `function propertyNames(s: Parser) {
  return (o: object): boolean => Object.keys(o).every((k) => s.safeParse(k).success);
}`,
	"dependentRequired": `function dependentRequired(name: string, required: string[]) {
  return (o: object): boolean => !Object.prototype.hasOwnProperty.call(o, name) || required.every((k) => Object.prototype.hasOwnProperty.call(o, k));
}`,
	"dependentSchema": `function dependentSchema(name: string, s: Parser) {
  return (o: object): boolean => !Object.prototype.hasOwnProperty.call(o, name) || s.safeParse(o).success;
}`,
	"pattern": `// pattern compiles a pattern that mcplint could not write as a literal:
// with the u flag, as JSON Schema validators compile patterns, else
// without it; a pattern neither compiles matches nothing.
function pattern(source: string): RegExp {
  try {
    return new RegExp(source, "u");
  } catch {
    try {
      return new RegExp(source);
    } catch {
      return /(?!)/;
    }
  }
}`,
	"defined": `function defined(v: unknown): boolean {
  return v !== undefined;
}`,
	"propertyCount": `function propertyCount(min: number, max: number) {
  return (o: object): boolean => Object.keys(o).length >= min && Object.keys(o).length <= max;
}`,
	"itemCount": `function itemCount(min: number, max: number) {
  return (a: readonly unknown[]): boolean => a.length >= min && a.length <= max;
}`,
	"patternProperties": `// patternProperties checks the properties whose names match a pattern
// against its schemas, and those neither named nor matched against
// additional.
function patternProperties(patterns: [RegExp, Parser][], named: string[], additional: Parser | null) {
  return (o: object): boolean => Object.entries(o).every(([k, v]) => {
    const hits = patterns.filter(([re]) => re.test(k));
    if (!hits.every(([, s]) => s.safeParse(v).success)) return false;
    return additional === null || named.includes(k) || hits.length > 0 || additional.safeParse(v).success;
  });
}`,
}

// zodMaxCount is the largest count a refinement compares with
// (Number.MAX_SAFE_INTEGER): no JavaScript object or array is larger.
const zodMaxCount = 1<<53 - 1

// zodHelperNeeds lists the helpers a helper calls or whose types it uses.
var zodHelperNeeds = map[string][]string{
	"uniqueItems": {"jsonEqual"}, "matches": {"Parser"}, "not": {"Parser"},
	"ifThenElse": {"Parser"}, "exactlyOne": {"Parser"}, "contains": {"Parser"},
	"propertyNames": {"Parser"}, "dependentSchema": {"Parser"}, "patternProperties": {"Parser"},
}

// use marks a helper as needed and returns its name.
func (m *zodModule) use(name string) string {
	if m.helpers == nil {
		m.helpers = map[string]bool{}
	}
	m.helpers[name] = true
	for _, n := range zodHelperNeeds[name] {
		m.helpers[n] = true
	}
	return name
}

func (m *zodModule) helperSource() string {
	var b strings.Builder
	for _, n := range slices.Sorted(maps.Keys(m.helpers)) {
		b.WriteString("\n" + zodHelpers[n] + "\n")
	}
	return b.String()
}
