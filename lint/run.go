package lint

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/mcplint/mcplint/manifest"
)

// Linter runs a selection of rules.
type Linter struct {
	Rules  []*Rule
	Config Config
	Cache  *Cache

	packs    map[string]bool // packs with at least one selected rule
	selected map[string]bool // IDs of the selected rules
	// oldest and newest bound the protocol versions checked: one version
	// when Config.Protocol names it, every version in use otherwise.
	oldest, newest string
}

// New selects rules from the catalogue according to cfg.
func New(all []*Rule, cfg Config) (*Linter, error) {
	oldest, newest := InUse[0], InUse[len(InUse)-1]
	if cfg.Protocol != "" {
		if !ValidProtocol(cfg.Protocol) {
			return nil, fmt.Errorf("unknown protocol version %q (known: %v)", cfg.Protocol, Protocols)
		}
		oldest, newest = cfg.Protocol, cfg.Protocol
	}
	rules, err := Select(all, cfg)
	if err != nil {
		return nil, err
	}
	packs, selected := map[string]bool{}, map[string]bool{}
	for _, r := range rules {
		selected[r.ID] = true
		for _, p := range r.Packs {
			packs[p] = true
		}
	}
	return &Linter{Rules: rules, Config: cfg, Cache: &Cache{}, packs: packs, selected: selected, oldest: oldest, newest: newest}, nil
}

// Lint runs the selected rules over every tool of m. Tools are decoded one at
// a time by a worker per CPU, so memory holds at most one decoded tool per
// worker. An error is an input error (a tool that cannot be decoded; the
// first tool's when several fail) or a *PanicError.
func (l *Linter) Lint(m *manifest.Manifest) ([]Diagnostic, error) {
	return l.LintContext(context.Background(), m)
}

// LintContext is Lint that stops when ctx is done, between two tools (rules
// need not know), and then returns ctx's error.
func (l *Linter) LintContext(ctx context.Context, m *manifest.Manifest) ([]Diagnostic, error) {
	var (
		mu        sync.Mutex
		diags     []Diagnostic
		first     error
		firstTool int
	)
	add := func(t *manifest.Tool, r *Rule, d Diagnostic) {
		l.place(t, &d)
		l.record(r, d, &mu, &diags)
	}
	var perTool []*Rule
	for _, r := range l.Rules {
		if r.Check != nil {
			perTool = append(perTool, r)
		}
	}
	if len(perTool) > 0 && len(m.Tools) > 0 {
		var next atomic.Int64 // index of the next tool to lint
		var wg sync.WaitGroup
		workers := min(runtime.GOMAXPROCS(0), len(m.Tools))
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := l.newWorker(perTool, add)
				for {
					i := int(next.Add(1)) - 1
					if i >= len(m.Tools) || ctx.Err() != nil {
						return
					}
					t := m.Tools[i]
					if err := w.lintTool(t); err != nil {
						mu.Lock()
						// The first tool's error, whichever worker
						// meets it first, so a run reports the same.
						if first == nil || t.Index < firstTool {
							first, firstTool = err, t.Index
						}
						mu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
		if first != nil {
			return nil, first
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, r := range l.Rules {
		if r.CheckList == nil {
			continue
		}
		err := guard(r, nil, func() {
			r.CheckList(&ListPass{
				Rule: r, Manifest: m, Protocol: l.newest, oldest: l.oldest,
				options: l.Config.Options[r.ID], packs: l.packs,
				report: func(t *manifest.Tool, d Diagnostic) { add(t, r, d) },
			})
		})
		if err != nil {
			return nil, err
		}
	}
	if len(m.Results) > 0 {
		addEntry := func(e *manifest.Entry, r *Rule, d Diagnostic) {
			placeEntry(e, &d)
			l.record(r, d, &mu, &diags)
		}
		for _, r := range l.Rules {
			if r.CheckSurface == nil {
				continue
			}
			err := guard(r, nil, func() {
				r.CheckSurface(&SurfacePass{
					Rule: r, Manifest: m, Protocol: l.newest, oldest: l.oldest,
					options: l.Config.Options[r.ID], packs: l.packs,
					report: func(e *manifest.Entry, d Diagnostic) { addEntry(e, r, d) },
				})
			})
			if err != nil {
				return nil, err
			}
		}
	}
	diags = mergeSubjects(diags, l.Rules)
	Sort(diags)
	return diags, nil
}

// record keeps a placed diagnostic of rule r unless the configuration
// suppresses it, with the rule's consumers and the configured severity.
func (l *Linter) record(r *Rule, d Diagnostic, mu *sync.Mutex, diags *[]Diagnostic) {
	if l.suppressed(r, &d) {
		return
	}
	if d.Consumers == nil {
		d.Consumers = r.Consumers
	}
	if s, ok := l.Config.Severity[r.ID]; ok {
		d.Severity = s
	} else if d.Severity == 0 {
		d.Severity = r.Severity
	}
	mu.Lock()
	*diags = append(*diags, d)
	mu.Unlock()
}

// worker lints tools one after the other. Its passes, one per rule, are
// made once and reused for every tool: at ten thousand tools, a pass and
// its report function per rule and tool were a good part of the run's
// allocations.
type worker struct {
	rules  []*Rule
	passes []Pass
	tool   *manifest.Tool // the tool being linted, for the reports
}

func (l *Linter) newWorker(rules []*Rule, add func(*manifest.Tool, *Rule, Diagnostic)) *worker {
	w := &worker{rules: rules, passes: make([]Pass, len(rules))}
	for i, r := range rules {
		w.passes[i] = Pass{
			Rule: r, Protocol: l.newest, oldest: l.oldest, Cache: l.Cache,
			options: l.Config.Options[r.ID], packs: l.packs, selected: l.selected,
			report: func(d Diagnostic) { add(w.tool, r, d) },
		}
	}
	return w
}

func (w *worker) lintTool(t *manifest.Tool) error {
	v, err := t.Value()
	if err != nil {
		return err
	}
	obj, _ := v.(map[string]any)
	w.tool = t
	defer func() {
		// Let the decoded tool go while the worker waits for the next.
		for i := range w.passes {
			w.passes[i].Tool, w.passes[i].Value = nil, nil
		}
		w.tool = nil
	}()
	for i, r := range w.rules {
		p := &w.passes[i]
		p.Tool, p.Value = t, obj
		if err := guard(r, t, func() { r.Check(p) }); err != nil {
			return err
		}
	}
	return nil
}

// PanicError reports a rule that panicked: a bug in the rule, which should
// cost the run an error rather than the process.
type PanicError struct {
	Rule  string
	Tool  *manifest.Tool // nil for a CheckList
	Value any            // what the rule panicked with
	Stack []byte
}

func (e *PanicError) Error() string {
	where := "the manifest"
	if e.Tool != nil {
		where = fmt.Sprintf("tool %d (%q)", e.Tool.Index, e.Tool.Name)
		where += " of " + e.Tool.M.Path
	}
	return fmt.Sprintf("internal error: rule %s failed on %s: %v; please report this", e.Rule, where, e.Value)
}

func guard(r *Rule, t *manifest.Tool, fn func()) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Rule: r.ID, Tool: t, Value: v, Stack: debug.Stack()}
		}
	}()
	fn()
	return nil
}

// place fills in where a diagnostic is.
func (l *Linter) place(t *manifest.Tool, d *Diagnostic) {
	pos := t.Locate(d.RelPointer)
	d.File = t.M.Path
	d.Line, d.Column, d.Offset = pos.Line, pos.Column, pos.Offset
	d.Tool = t.Name
	d.ToolIndex = t.Index
	d.Pointer = t.DocPointer(d.RelPointer)
}
