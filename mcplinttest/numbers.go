package mcplinttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/coerce"
	"github.com/mcpfit/mcplint/schema"
)

// StringNumbers makes Check also call the tools whose input schema declares
// the string form of a number (the oneOf/anyOf that integer-accepts-string's
// fix writes), to see that the server keeps that promise: each such tool is
// called with numbers and with the same numbers as decimal strings ("1" for
// 1), and the test fails when the string call is refused or answered
// differently. A go-sdk server passes by adding coerce.Middleware().
//
// The tools run (three calls each; with names, only the tools named), so use
// it on a server whose tools are safe to call from a test. Arguments are
// built from the schema: each declared parameter gets the first of its
// minimum, 1, 2, 10, 0 that both forms accept; other required parameters
// their default, const, first enum value or first example, or else an empty
// value of their type. A tool whose two numeric calls answer differently
// (a clock, a random number) is compared on success or failure only.
func StringNumbers(tools ...string) Option {
	return func(o *options) {
		o.stringNumbers = true
		o.stringNumberTools = append(o.stringNumberTools, tools...)
	}
}

// numberCall is one tool's pair of argument objects.
type numberCall struct {
	tool             string
	numbers, strings map[string]any
}

// checkStringNumbers calls the tools that declare string forms and returns
// one message per tool that does not keep the promise.
func checkStringNumbers(ctx context.Context, server *mcp.Server, only []string) ([]string, error) {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("connect the server: %w", err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcplinttest", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to the server: %w", err)
	}
	defer cs.Close()
	var msgs []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		if len(only) > 0 && !slices.Contains(only, tool.Name) {
			continue
		}
		c, ok, err := buildCall(tool)
		if err != nil {
			msgs = append(msgs, err.Error())
			continue
		}
		if !ok {
			continue
		}
		if msg, err := c.compare(ctx, cs); err != nil {
			return nil, err
		} else if msg != "" {
			msgs = append(msgs, msg)
		}
	}
	return msgs, nil
}

// compare makes the three calls: numbers twice (to see whether the tool
// answers alike), then strings.
func (c numberCall) compare(ctx context.Context, cs *mcp.ClientSession) (string, error) {
	first, err := callOutcome(ctx, cs, c.tool, c.numbers)
	if err != nil {
		return "", err
	}
	again, err := callOutcome(ctx, cs, c.tool, c.numbers)
	if err != nil {
		return "", err
	}
	got, err := callOutcome(ctx, cs, c.tool, c.strings)
	if err != nil {
		return "", err
	}
	same := got == first
	if first != again {
		// The tool answers differently each time: only success matters.
		same = got.failed == first.failed
	}
	if same {
		return "", nil
	}
	nums, _ := json.Marshal(c.numbers)
	strs, _ := json.Marshal(c.strings)
	return fmt.Sprintf("tool %q declares the string form of its numbers but does not accept it: called with %s it answered %s; with %s it answered %s. Convert the strings before validating (a go-sdk server: server.AddReceivingMiddleware(coerce.Middleware()), package github.com/mcpfit/mcplint/coerce)",
		c.tool, nums, first, strs, got), nil
}

// outcome is what a call answered, comparable.
type outcome struct {
	failed bool
	text   string
}

func (o outcome) String() string {
	t := o.text
	if len(t) > 300 {
		t = t[:300] + "…"
	}
	if o.failed {
		return "an error: " + t
	}
	return t
}

func callOutcome(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any) (outcome, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if ctx.Err() != nil {
		return outcome{}, ctx.Err()
	}
	if err != nil {
		return outcome{failed: true, text: err.Error()}, nil
	}
	body, _ := json.Marshal(struct {
		Content           []mcp.Content `json:"content"`
		StructuredContent any           `json:"structuredContent,omitempty"`
	}{res.Content, res.StructuredContent})
	return outcome{failed: res.IsError, text: string(body)}, nil
}

// buildCall builds the two argument objects of a tool; ok is false when
// the tool declares no string form.
func buildCall(tool *mcp.Tool) (numberCall, bool, error) {
	raw, err := json.Marshal(tool.InputSchema)
	if err != nil {
		return numberCall{}, false, nil
	}
	var root any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&root) != nil {
		return numberCall{}, false, nil
	}
	b := builder{root: root}
	nums, strs, _ := b.object(root, 0)
	if b.declared == 0 {
		return numberCall{}, false, nil
	}
	c := numberCall{tool: tool.Name, numbers: orEmpty(nums), strings: orEmpty(strs)}
	compiled, err := schema.Compile(root)
	if err != nil {
		return c, true, nil // the lint rules report the schema
	}
	for _, args := range []map[string]any{c.numbers, c.strings} {
		if err := schema.Validate(compiled, jsonValue(args)); err != nil {
			a, _ := json.Marshal(args)
			return c, false, fmt.Errorf("tool %q declares the string form of its numbers, but mcplinttest cannot build arguments its schema accepts (%s is refused); test it by hand, or name the other tools in StringNumbers", tool.Name, a)
		}
	}
	return c, true, nil
}

func orEmpty(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		return m
	}
	return map[string]any{}
}

// jsonValue is v as the validator reads instances (numbers as json.Number).
func jsonValue(v any) any {
	b, _ := json.Marshal(v)
	var out any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	_ = dec.Decode(&out)
	return out
}

type builder struct {
	root     any
	declared int
}

const maxDepth = 32

// value builds the value of schema s twice: with numbers and with their
// strings. has is false when the schema asks for nothing (an optional
// parameter without a declared string form below it).
func (b *builder) value(s any, depth int, required bool) (nums, strs any, has bool) {
	m, ok := b.resolve(s)
	if !ok || depth > maxDepth {
		return nil, nil, false
	}
	if _, _, ok := coerce.StringForm(m); ok {
		if n, ok := candidate(m); ok {
			b.declared++
			return json.Number(n), n, true
		}
	}
	if schema.HasType(m, "object") || m["properties"] != nil {
		o, os, has := b.object(m, depth)
		if has || required {
			return o, os, true
		}
		return nil, nil, false
	}
	if !required {
		return nil, nil, false
	}
	for _, k := range []string{"default", "const"} {
		if v, ok := m[k]; ok {
			return v, v, true
		}
	}
	for _, k := range []string{"enum", "examples"} {
		if l, ok := m[k].([]any); ok && len(l) > 0 {
			return l[0], l[0], true
		}
	}
	var v any
	switch {
	case schema.HasType(m, "string"):
		v = ""
	case schema.HasType(m, "integer"), schema.HasType(m, "number"):
		v = json.Number("0")
		if min, ok := schema.Number(m["minimum"]); ok {
			v = json.Number(strconv.FormatFloat(math.Ceil(min), 'f', -1, 64))
		}
	case schema.HasType(m, "boolean"):
		v = false
	case schema.HasType(m, "array"):
		v = []any{}
	case schema.HasType(m, "null"):
		v = nil
	}
	return v, v, true
}

// object builds an object: its required properties and every property
// with a declared string form at any depth.
func (b *builder) object(s any, depth int) (nums, strs any, has bool) {
	m, ok := b.resolve(s)
	if !ok {
		return nil, nil, false
	}
	props, _ := m["properties"].(map[string]any)
	required := map[string]bool{}
	if l, ok := m["required"].([]any); ok {
		for _, r := range l {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	o, os := map[string]any{}, map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		before := b.declared
		n, s, ok := b.value(props[name], depth+1, required[name])
		if ok {
			o[name], os[name] = n, s
			has = has || b.declared > before
		}
	}
	return o, os, has
}

func (b *builder) resolve(s any) (map[string]any, bool) {
	for range maxDepth {
		m, ok := s.(map[string]any)
		if !ok {
			return nil, false
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return m, true
		}
		s, ok = schema.Resolve(b.root, ref)
		if !ok {
			return nil, false
		}
	}
	return nil, false
}

// candidate picks a number whose two forms the parameter accepts.
func candidate(param map[string]any) (string, bool) {
	compiled, err := schema.Compile(param)
	if err != nil {
		return "", false
	}
	var tries []string
	for _, k := range []string{"minimum", "exclusiveMinimum"} {
		for _, branch := range branches(param) {
			if v, ok := schema.Number(branch[k]); ok {
				if k == "exclusiveMinimum" {
					v = math.Floor(v) + 1
				}
				tries = append(tries, strconv.FormatFloat(math.Ceil(v), 'f', -1, 64))
			}
		}
	}
	tries = append(tries, "1", "2", "10", "0")
	for _, n := range tries {
		if schema.Validate(compiled, json.Number(n)) == nil && schema.Validate(compiled, n) == nil {
			return n, true
		}
	}
	return "", false
}

func branches(param map[string]any) []map[string]any {
	var out []map[string]any
	for _, k := range []string{"oneOf", "anyOf"} {
		l, _ := param[k].([]any)
		for _, b := range l {
			if m, ok := b.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}
