package convert

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/mcpfit/mcplint/internal/sinktest"
)

// zodMembers are the members of Zod schemas (and of z) that the generated
// code may name. A member outside the list fails the check even when it
// is a Zod method: the list is what the emitter is known to write, and
// a name such as "constructor" would reach Function.
var zodMembers = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`string number int boolean null never any array object strictObject
		looseObject tuple union intersection xor enum literal lazy email url guid uuid iso datetime date
		duration ipv4 ipv6 ip hostname min max regex gt gte lt lte multipleOf optional nullable nonoptional
		default describe refine strict passthrough loose catchall rest`) {
		zodMembers[m] = true
	}
}

// zodImport is the module's first line, the only import it may have.
const zodImport = "import { z } from \"zod\";\n"

// zodLazyDecl matches the one TypeScript annotation the tools' code may
// hold: the type of a lazy definition. The Go parser reads JavaScript, so
// the check removes it before parsing; removing it cannot hide anything,
// since what remains is still checked.
var zodLazyDecl = regexp.MustCompile(`(?m)^const ([A-Za-z][A-Za-z0-9]*): z\.ZodType<any> = z\.lazy\(`)

// zodInert checks that code, a module ToZod wrote, is inert: it imports
// only z from "zod"; its helpers are the known ones, verbatim; every other
// statement declares one constant whose value is built only from literals,
// the module's own constants, the helpers and calls of known Zod members
// on the z chain (or on a constant), with z.lazy(() => constant) as the
// only function; and it exports exactly the names in exports.
func zodInert(code string, exports []string) error {
	// Printed into a CI log, the module must not hold a runner's command.
	if cmds := sinktest.Commands(code); len(cmds) > 0 {
		return fmt.Errorf("a CI runner reads a command in the module: %.200s", cmds[0])
	}
	rest, ok := strings.CutPrefix(code, zodImport)
	if !ok {
		return fmt.Errorf("the module does not start with %q", zodImport)
	}
	declared := map[string]bool{"z": true}
	helpers := map[string]bool{}
	for _, n := range slices.Sorted(maps.Keys(zodHelpers)) {
		if r, ok := strings.CutPrefix(rest, "\n"+zodHelpers[n]+"\n"); ok {
			rest = r
			helpers[n] = true
			declared[n] = true
		}
	}
	if !strings.HasPrefix(rest, "\n// ") && rest != "" {
		return fmt.Errorf("after the helpers comes %.80q, not a tool's comment", rest)
	}
	rest = zodLazyDecl.ReplaceAllString(rest, "const $1 = z.lazy(")
	ast, err := js.Parse(parse.NewInputString(zodImport+rest), js.Options{})
	if err != nil {
		return fmt.Errorf("not JavaScript: %v", err)
	}
	if len(ast.List) == 0 {
		return fmt.Errorf("empty module")
	}
	if imp, ok := ast.List[0].(*js.ImportStmt); !ok || imp.Default != nil || len(imp.List) != 1 ||
		imp.List[0].Name != nil || string(imp.List[0].Binding) != "z" || string(imp.Module) != `"zod"` {
		return fmt.Errorf("the first statement is %s, not the import of z", ast.List[0])
	}
	// Constants may be used before their declaration (inside z.lazy), so
	// all are collected first.
	type decl struct {
		name string
		val  js.IExpr
	}
	var decls []decl
	exported := map[string]bool{}
	for _, st := range ast.List[1:] {
		export := false
		if ex, ok := st.(*js.ExportStmt); ok {
			if ex.Default || ex.Module != nil || ex.List != nil {
				return fmt.Errorf("statement %s", st)
			}
			vd, ok := ex.Decl.(*js.VarDecl)
			if !ok {
				return fmt.Errorf("export of %s", ex.Decl)
			}
			st, export = vd, true
		}
		vd, ok := st.(*js.VarDecl)
		if !ok || vd.TokenType != js.ConstToken || len(vd.List) != 1 {
			return fmt.Errorf("statement %s: only const declarations of one name may follow the import", st)
		}
		v, ok := vd.List[0].Binding.(*js.Var)
		if !ok || vd.List[0].Default == nil {
			return fmt.Errorf("declaration %s", vd)
		}
		name := string(v.Data)
		if declared[name] {
			return fmt.Errorf("%s is declared twice", name)
		}
		declared[name] = true
		if export {
			exported[name] = true
		}
		decls = append(decls, decl{name, vd.List[0].Default})
	}
	c := &inertCheck{declared: declared, helpers: helpers}
	for _, d := range decls {
		if err := c.expr(d.val); err != nil {
			return fmt.Errorf("%s: %v", d.name, err)
		}
	}
	want := map[string]bool{}
	for _, e := range exports {
		want[e] = true
	}
	if !maps.Equal(want, exported) {
		return fmt.Errorf("exports %v, want %v", slices.Sorted(maps.Keys(exported)), slices.Sorted(maps.Keys(want)))
	}
	return nil
}

type inertCheck struct {
	declared, helpers map[string]bool
}

func (c *inertCheck) expr(e js.IExpr) error {
	// The parser builds some nodes as values, others as pointers.
	switch x := e.(type) {
	case js.LiteralExpr:
		return c.expr(&x)
	case js.ArrayExpr:
		return c.expr(&x)
	case js.ObjectExpr:
		return c.expr(&x)
	case js.DotExpr:
		return c.expr(&x)
	case js.CallExpr:
		return c.expr(&x)
	case js.UnaryExpr:
		return c.expr(&x)
	case js.ArrowFunc:
		return c.expr(&x)
	}
	switch x := e.(type) {
	case *js.LiteralExpr:
		switch x.TokenType {
		case js.StringToken, js.DecimalToken, js.IntegerToken, js.TrueToken, js.FalseToken, js.NullToken:
			return nil
		case js.RegExpToken:
			if !strings.HasSuffix(string(x.Data), "/u") {
				return fmt.Errorf("regular expression %s without the u flag", x.Data)
			}
			return nil
		}
		return fmt.Errorf("literal %s of kind %v", x.Data, x.TokenType)
	case *js.UnaryExpr:
		lit, ok := x.X.(*js.LiteralExpr)
		if v, isValue := x.X.(js.LiteralExpr); isValue {
			lit, ok = &v, true
		}
		if ok && x.Op == js.NegToken && (lit.TokenType == js.DecimalToken || lit.TokenType == js.IntegerToken) {
			return nil
		}
		return fmt.Errorf("operator in %s", x)
	case *js.ArrayExpr:
		for _, el := range x.List {
			if el.Spread || el.Value == nil {
				return fmt.Errorf("array element in %s", x)
			}
			if err := c.expr(el.Value); err != nil {
				return err
			}
		}
		return nil
	case *js.ObjectExpr:
		for _, p := range x.List {
			if p.Spread || p.Name == nil || p.Init != nil {
				return fmt.Errorf("property in %s", x)
			}
			if p.Name.Computed != nil {
				if lit, ok := p.Name.Computed.(*js.LiteralExpr); !ok || lit.TokenType != js.StringToken || string(lit.Data) != `"__proto__"` {
					return fmt.Errorf("computed key %s", p.Name.Computed)
				}
			}
			if _, ok := p.Value.(*js.MethodDecl); ok {
				return fmt.Errorf("method in %s", x)
			}
			if err := c.expr(p.Value); err != nil {
				return err
			}
		}
		return nil
	case *js.Var:
		if !c.declared[string(x.Data)] {
			return fmt.Errorf("identifier %s is not the module's own", x.Data)
		}
		return nil
	case *js.DotExpr:
		if x.Optional {
			return fmt.Errorf("optional chain %s", x)
		}
		if name := dotName(x.Y); !zodMembers[name] {
			return fmt.Errorf("member %q is not a known Zod member", name)
		}
		if v, ok := x.X.(*js.Var); ok && c.helpers[string(v.Data)] {
			return fmt.Errorf("member of helper %s", v.Data)
		}
		return c.expr(x.X)
	case *js.CallExpr:
		if x.Optional {
			return fmt.Errorf("optional call %s", x)
		}
		switch f := x.X.(type) {
		case *js.DotExpr:
			if err := c.expr(f); err != nil {
				return err
			}
		case *js.Var:
			if !c.helpers[string(f.Data)] {
				return fmt.Errorf("call of %s, which is not a helper", f.Data)
			}
		default:
			return fmt.Errorf("call of %s", x.X)
		}
		for _, a := range x.Args.List {
			if a.Rest {
				return fmt.Errorf("spread argument in %s", x)
			}
			if err := c.expr(a.Value); err != nil {
				return err
			}
		}
		return nil
	case *js.ArrowFunc:
		// z.lazy(() => constant) only.
		if x.Async || len(x.Params.List) != 0 || x.Params.Rest != nil || len(x.Body.List) != 1 {
			return fmt.Errorf("function %s", x)
		}
		ret, ok := x.Body.List[0].(*js.ReturnStmt)
		if !ok {
			return fmt.Errorf("function %s", x)
		}
		v, ok := ret.Value.(*js.Var)
		if !ok || !c.declared[string(v.Data)] || c.helpers[string(v.Data)] || string(v.Data) == "z" {
			return fmt.Errorf("function %s returns something other than a constant", x)
		}
		return nil
	}
	return fmt.Errorf("expression %s (%T)", e, e)
}

func dotName(y js.IExpr) string {
	switch n := y.(type) {
	case *js.Var:
		return string(n.Data)
	case js.LiteralExpr:
		return string(n.Data)
	case *js.LiteralExpr:
		return string(n.Data)
	}
	return ""
}
