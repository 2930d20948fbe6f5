package rules

import (
	"math"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/schema"
)

var complexityRules = []*lint.Rule{SchemaComplexity}

// Defaults of schema-complexity, chosen to match the first published MCP
// validator guard (see the rule's doc).
const (
	defaultMaxDepth      = 32
	defaultMaxSubschemas = 10000
)

// SchemaComplexity warns about schemas a bounded validator may refuse.
var SchemaComplexity = &lint.Rule{
	ID:       "schema-complexity",
	Packs:    []string{"mcp"},
	Severity: lint.Warning, Harm: lint.Risks,
	Summary:     "schemas stay within the depth and subschema bounds validators apply against denial of service",
	Fix:         lint.NoFix,
	Options:     map[string]any{"maxDepth": defaultMaxDepth, "maxSubschemas": defaultMaxSubschemas},
	CheckOption: nonNegative,
	Check:       checkSchemaComplexity,
	Doc: `Composition keywords make a schema expensive to validate: sixteen nested
two-branch anyOfs are 65,536 paths, and written with "$defs" and "$ref" such a
schema is a few hundred bytes. Protocol 2026-07-28 therefore asks validators
to bound what a schema may cost ("a maximum schema depth, a cap on the total
number of subschemas, or a per-validation time budget"). A client that
applies such bounds refuses a schema past them, and the tool is gone. This
rule warns before that happens, at two bounds:

- maxDepth (default 32): how deeply subschemas nest, counted as the walker
  counts them (a property of the root is at depth 1, the items of that
  property at depth 2, and so on; following a $ref does not add depth). The
  first subschema deeper than the bound is reported.
- maxSubschemas (default 10000): how many subschemas the schema holds,
  counting the target of a local $ref again wherever it is used (a recursive
  reference counts once), so the "$defs" form of a composition bomb counts
  like its expanded form. Reported at the schema's root.

The defaults are those of the PHP SDK's SchemaComplexityGuard (32 levels,
10,000 estimated subschema evaluations, references expanded), the first MCP
SDK guard written for this section (modelcontextprotocol/php-sdk#436). Real
tool schemas stay far below both: generated schemas for large APIs nest
around ten levels and count hundreds of subschemas. Lower the options to
match a stricter client, such as OpenAI's Structured Outputs limits (10
nesting levels, 5,000 properties) when the tools also go there.

The rule applies from protocol 2026-07-28, the first to ask for such bounds;
it is silent for older protocols. There is no fix: split the tool, or
flatten the schema.

Bad (nested anyOf pairs, 2^16 paths):

    {"anyOf": [{"anyOf": [{"anyOf": [...]}, {...}]}, {"anyOf": [...]}]}

Good:

    {"type": "object", "properties": {"kind": {"enum": ["a", "b"]}, "value": {"type": "string"}}}

Source: MCP specification 2026-07-28, basic, "JSON Schema Usage",
"Composition-Keyword Resource Use" ("Implementations SHOULD apply reasonable
bounds, such as a maximum schema depth, a cap on the total number of
subschemas, or a per-validation time budget, to prevent a malicious schema
from acting as a Denial-of-Service vector against the validator");
modelcontextprotocol/php-sdk#436 for the defaults.`,
}

func checkSchemaComplexity(p *lint.Pass) {
	if !p.Since("2026-07-28") {
		return
	}
	maxDepth := p.Option("maxDepth").(int)
	maxSubschemas := p.Option("maxSubschemas").(int)
	for _, key := range schemaKeys {
		root, ok := p.Value[key].(map[string]any)
		if !ok {
			continue
		}
		tree := p.Schema(key)
		deepest := 0
		var firstTooDeep *schema.Node
		tree.Walk(func(n *schema.Node) bool {
			deepest = max(deepest, n.Depth)
			if n.Depth > maxDepth && firstTooDeep == nil {
				firstTooDeep = n
			}
			return true
		})
		if firstTooDeep != nil {
			p.Reportf(firstTooDeep.Pointer(), "%s nests subschemas deeper than maxDepth %d (%d levels at the deepest); validators that bound depth may refuse the tool; flatten the schema or move repeated parts into \"$defs\"", key, maxDepth, deepest)
		}
		c := &costing{tree: tree}
		if _, refFree, _ := tree.Counted(root); !refFree {
			c.r = resolverOf(p, key)
			c.scoped = c.r.Scoped()
			c.memo = map[uintptr]int{}
		}
		if n := c.cost(root, ""); n > maxSubschemas {
			p.Reportf("/"+key, "%s counts %d subschemas once its $refs are expanded, more than maxSubschemas %d; validators that bound this may refuse the tool; reduce the alternatives in anyOf/oneOf/allOf or split the tool", key, n, maxSubschemas)
		}
	}
}

// costing counts the subschemas of a schema with its references expanded:
// a subschema, its children (schema.EachChild, the walker's own step) and
// the target of its local $ref, each counted in full. Walk cannot do this,
// since it does not follow references. A part of the schema with no
// reference in it counts what the tree counted when it was built.
// Targets are memoised (by identity: a subschema is one decoded object,
// however a reference spells its place) and a reference back into the
// current path counts 1, so counting takes linear time however large the
// number it reaches. Pointers are followed only in a document with "$id"s
// below its root (scoped), where a reference resolves against the base of
// the place it is written.
type costing struct {
	tree   *schema.Tree
	r      *schema.Resolver // nil when the schema has no reference
	scoped bool
	memo   map[uintptr]int // a count, or onPath while it is being counted
}

const onPath = -1

func (c *costing) cost(s map[string]any, ptr string) int {
	if size, refFree, ok := c.tree.Counted(s); ok && refFree {
		return min(size, math.MaxInt32)
	}
	id := schema.Identity(s)
	switch n, ok := c.memo[id]; {
	case n == onPath:
		return 1
	case ok:
		return n
	}
	c.memo[id] = onPath
	total := 1
	add := func(child any, cptr string) {
		if m, ok := child.(map[string]any); ok {
			total = satAdd(total, c.cost(m, cptr))
		} else {
			total = satAdd(total, 1)
		}
	}
	if c.scoped {
		schema.Children(s, ptr, add)
	} else if others, inTree := c.tree.ChildrenOf(s, func(child map[string]any) { add(child, "") }); inTree {
		total = satAdd(total, others)
	} else {
		schema.EachChild(s, func(child any, _, _ string, _ int) { add(child, "") })
	}
	for _, kw := range schema.RefKeywords {
		ref, ok := s[kw].(string)
		if !ok {
			continue
		}
		res := c.r.Resolve(ptr, ref)
		if t, isObj := res.Target.(map[string]any); res.Found && isObj {
			total = satAdd(total, c.cost(t, res.Pointer))
		}
	}
	c.memo[id] = total
	return total
}

func satAdd(a, b int) int {
	if a > math.MaxInt32-b {
		return math.MaxInt32
	}
	return a + b
}
