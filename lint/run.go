package lint

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcplint/mcplint/internal/par"
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
	subjects       *subjects
	// applicableEdits limits FixEdits to the fixes Fix may apply (safe
	// ones, unsafe ones too with UnsafeFixes): Fix sets it unless its
	// caller asked for every fix's edits.
	applicableEdits bool
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
	if cfg.Options, err = checkOptions(all, cfg.Options); err != nil {
		return nil, err
	}
	packs, selected := map[string]bool{}, map[string]bool{}
	for _, r := range rules {
		selected[r.ID] = true
		for _, p := range r.Packs {
			packs[p] = true
		}
	}
	return &Linter{Rules: rules, Config: cfg, Cache: &Cache{}, packs: packs, selected: selected, oldest: oldest, newest: newest, subjects: newSubjects(rules)}, nil
}

// Lint runs the selected rules over every tool of m. Tools are decoded one at
// a time by a worker per CPU, so memory holds at most one decoded tool per
// worker. Each tool's findings are merged (Rule.Subject), sorted and placed
// as soon as the tool is done, the findings of list rules (CheckList, run
// first) with them, so a run keeps no more than the findings it returns.
// An error is an input error (a tool that cannot be decoded; the first
// tool's when several fail) or a *PanicError.
func (l *Linter) Lint(m *manifest.Manifest) ([]Diagnostic, error) {
	return l.LintContext(context.Background(), m)
}

// LintContext is Lint that stops when ctx is done, between two tools (rules
// need not know), and then returns ctx's error.
func (l *Linter) LintContext(ctx context.Context, m *manifest.Manifest) ([]Diagnostic, error) {
	return l.lint(ctx, m, nil)
}

// rerun carries what one run learned to the next run on an edited
// version of the same source, as Fix makes them: the findings of the
// per-tool rules (Check) on each tool, placed, before the list rules'
// are added and the subjects merged. A tool whose bytes and setting are
// unchanged (manifest.Unchanged) gets the same findings, so the next run
// moves them to where the tool now is instead of linting it again. List
// rules, which see every tool, always run.
type rerun struct {
	m     *manifest.Manifest // the source the findings are from
	found [][]Diagnostic
}

// reuse returns the findings of tool i of m kept by an earlier run, moved
// to where the tool is in m, if it is unchanged since.
func (r *rerun) reuse(m *manifest.Manifest, same []bool, moved []int, i int) ([]Diagnostic, bool) {
	if same == nil || !same[i] {
		return nil, false
	}
	ds := slices.Clone(r.found[i])
	at := func(off int) manifest.Position { return m.Position(off + moved[i]) }
	for j := range ds {
		d := &ds[j]
		pos := at(d.Offset)
		d.Offset, d.Line, d.Column = pos.Offset, pos.Line, pos.Column
		if d.End != (manifest.Position{}) {
			d.End = at(d.End.Offset)
		}
		if d.Fix != nil && len(d.Fix.TextEdits) > 0 && moved[i] != 0 {
			f := *d.Fix
			f.TextEdits = slices.Clone(f.TextEdits)
			for k := range f.TextEdits {
				f.TextEdits[k].Start += moved[i]
				f.TextEdits[k].End += moved[i]
			}
			d.Fix = &f
		}
	}
	return ds, true
}

// lint is LintContext, taking what an earlier run on an earlier version
// of m learned from re (nil for none) and leaving there what this one
// learns.
func (l *Linter) lint(ctx context.Context, m *manifest.Manifest, re *rerun) ([]Diagnostic, error) {
	var same []bool
	var moved []int
	if re != nil && re.m != nil {
		same, moved, _ = m.Unchanged(re.m)
	}
	var kept [][]Diagnostic // each tool's per-tool findings, for re
	if re != nil {
		kept = make([][]Diagnostic, len(m.Tools))
	}
	var perTool []*Rule
	for _, r := range l.Rules {
		if r.Check != nil {
			perTool = append(perTool, r)
		}
	}
	// The list rules run while the tools are linted: one after the other
	// before them, they kept the other CPUs idle. A tool linted before
	// their findings are in keeps its own (pending) and is finished once
	// they are.
	var (
		listed   [][]Diagnostic
		listErr  error
		listDone = make(chan struct{})
		lists    bool
	)
	for _, r := range l.Rules {
		lists = lists || r.CheckList != nil
	}
	go func() {
		defer close(listDone)
		listed, listErr = l.lintList(m)
	}()
	found := make([][]Diagnostic, len(m.Tools)) // each tool's findings, done
	var pending [][]Diagnostic                  // own findings of the tools linted before listDone
	if (len(perTool) > 0 || lists) && len(m.Tools) > 0 {
		pending = make([][]Diagnostic, len(m.Tools))
		var (
			next      atomic.Int64 // index of the next tool to lint
			wg        sync.WaitGroup
			mu        sync.Mutex
			first     error
			firstTool int
		)
		for range min(runtime.GOMAXPROCS(0), len(m.Tools)) {
			w := l.newWorker(perTool)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1)) - 1
					if i >= len(m.Tools) || ctx.Err() != nil {
						return
					}
					t := m.Tools[i]
					ready := false
					select {
					case <-listDone:
						ready = true
						if listed != nil {
							w.diags = append(w.diags, listed[i]...)
							listed[i] = nil
						}
					default:
					}
					nlisted := len(w.diags)
					if ds, ok := re.reuse(m, same, moved, i); ok {
						l.listedFixes(t, w.diags)
						place(t, w.diags)
						w.diags = append(w.diags, ds...)
					} else {
						if err := w.lintTool(t); err != nil {
							mu.Lock()
							// The first tool's error, whichever worker
							// meets it first, so a run reports the same.
							if first == nil || t.Index < firstTool {
								first, firstTool = err, t.Index
							}
							mu.Unlock()
							clear(w.diags)
							w.diags = w.diags[:0]
							continue
						}
						l.listedFixes(t, w.diags[:nlisted])
						place(t, w.diags)
					}
					t.Forget() // the tool's fixes are built
					if kept != nil {
						kept[i] = slices.Clone(w.diags[nlisted:])
					}
					if ready {
						found[i] = w.finish(l)
					} else {
						pending[i] = w.handOver()
					}
				}
			}()
		}
		wg.Wait()
		if first != nil {
			<-listDone
			return nil, first
		}
	}
	<-listDone
	if pending != nil && ctx.Err() == nil && listErr == nil {
		// The tools linted before the list rules were done get their
		// findings now, placed, merged and sorted with their own as if
		// they had been there first. A tool linted after has consumed its
		// listed findings and is finished.
		par.ForEach(len(pending), func(i int) {
			if len(pending[i]) == 0 && (listed == nil || len(listed[i]) == 0) {
				return // finished already, or nothing to finish
			}
			var ds []Diagnostic
			if listed != nil && len(listed[i]) > 0 {
				t := m.Tools[i]
				ds = listed[i]
				listed[i] = nil
				l.listedFixes(t, ds)
				place(t, ds)
				t.Forget()
			}
			ds = append(ds, pending[i]...)
			pending[i] = nil
			found[i] = l.settle(ds)
		})
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if listErr != nil {
		return nil, listErr
	}
	if re != nil {
		re.m, re.found = m, kept
	}
	surface, err := l.lintSurface(m)
	if err != nil {
		return nil, err
	}
	n := len(surface)
	for _, ds := range found {
		n += len(ds)
	}
	diags := make([]Diagnostic, 0, n)
	for i, ds := range found {
		diags = append(diags, ds...)
		found[i] = nil
	}
	diags = append(diags, surface...)
	// Tools follow one another in their source, so the tools' sorted
	// findings, one after the other, are sorted; a shape where they would
	// not be, or findings about the rest of the surface, are sorted whole.
	if !slices.IsSortedFunc(diags, compareDiagnostics) {
		Sort(diags)
	}
	return diags, nil
}

// lintList runs the list rules (CheckList), one after the other, and
// returns their findings by tool, in the order of the rules and then of
// their reports, or nil when there are none. A list rule's panic is
// reported after the tools' input errors, as when list rules ran last.
func (l *Linter) lintList(m *manifest.Manifest) ([][]Diagnostic, error) {
	var listed [][]Diagnostic
	for _, r := range l.Rules {
		if r.CheckList == nil {
			continue
		}
		err := guard(r, nil, func() {
			r.CheckList(&ListPass{
				Rule: r, Manifest: m, Protocol: l.newest, oldest: l.oldest,
				options: l.Config.Options[r.ID], packs: l.packs,
				report: func(t *manifest.Tool, d Diagnostic) {
					// The fix's edits are built by the worker that lints
					// the tool (see listedFixes): building them here, one
					// tool after the other, indexed each tool twice and
					// took a third of a fix of many renamed tools on one
					// core. A list pass gives its rule no way to index a
					// tool, so there is nothing to forget here.
					d.File, d.Tool, d.ToolIndex = t.M.Path, t.Name, t.Index
					if !l.adopt(r, &d) {
						return
					}
					if listed == nil {
						listed = make([][]Diagnostic, len(m.Tools))
					}
					listed[t.Index] = append(listed[t.Index], d)
				},
			})
		})
		if err != nil {
			return listed, err
		}
	}
	return listed, nil
}

// lintSurface runs the rules about a server's prompts, resources and
// templates (CheckSurface), when the manifest has them, and returns their
// findings, placed and merged.
func (l *Linter) lintSurface(m *manifest.Manifest) ([]Diagnostic, error) {
	if len(m.Results) == 0 {
		return nil, nil
	}
	var ds []Diagnostic
	for _, r := range l.Rules {
		if r.CheckSurface == nil {
			continue
		}
		err := guard(r, nil, func() {
			r.CheckSurface(&SurfacePass{
				Rule: r, Manifest: m, Protocol: l.newest, oldest: l.oldest,
				options: l.Config.Options[r.ID], packs: l.packs,
				report: func(e *manifest.Entry, d Diagnostic) {
					placeEntry(e, &d)
					if l.adopt(r, &d) {
						ds = append(ds, d)
					}
				},
			})
		})
		if err != nil {
			return nil, err
		}
	}
	return l.subjects.merge(ds), nil
}

// finish hands over the placed findings of a tool the worker holds,
// merged and sorted.
func (w *worker) finish(l *Linter) []Diagnostic {
	return l.settle(w.handOver())
}

// handOver returns the findings the worker holds in a slice of their own
// (nil for none), so that the worker's can be reused for the next tool.
func (w *worker) handOver() []Diagnostic {
	if len(w.diags) == 0 {
		return nil
	}
	out := slices.Clone(w.diags)
	clear(w.diags)
	w.diags = w.diags[:0]
	return out
}

// settle merges and sorts the placed findings ds of one tool (Rule.Subject),
// in place.
func (l *Linter) settle(ds []Diagnostic) []Diagnostic {
	if len(ds) == 0 {
		return nil
	}
	ds = l.subjects.merge(ds)
	Sort(ds)
	return ds
}

// Add takes in findings made outside Lint, such as those of the live rules
// (package live), which judge what a running server did rather than its
// tools: each gets what Lint gives its own (suppressions, the configured
// severity, the rule's consumers), those of rules the linter does not run
// are dropped, and the result is ds with them, sorted.
func (l *Linter) Add(ds []Diagnostic, found ...Diagnostic) []Diagnostic {
	for _, d := range found {
		for _, r := range l.Rules {
			if r.ID == d.Rule {
				if l.adopt(r, &d) {
					ds = append(ds, d)
				}
				break
			}
		}
	}
	Sort(ds)
	return ds
}

// keep fills in what a finding of rule r about tool t needs before it is
// placed, and reports whether it stays: a suppression may drop it. It
// applies the configured severity and, in runs that need them, builds the
// fix's edits while the tool's decoded value is still at hand; otherwise it
// lets go of what would build them.
func (l *Linter) keep(t *manifest.Tool, r *Rule, d *Diagnostic) bool {
	d.File, d.Tool, d.ToolIndex = t.M.Path, t.Name, t.Index
	if !l.adopt(r, d) {
		return false
	}
	l.buildFix(t, d)
	return true
}

// listedFixes builds the fixes of the list rules' findings ds of tool t.
func (l *Linter) listedFixes(t *manifest.Tool, ds []Diagnostic) {
	for i := range ds {
		l.buildFix(t, &ds[i])
	}
}

// buildFix gives a finding's fix its edits when the run shows or applies
// them (Config.FixEdits), and drops what built them.
func (l *Linter) buildFix(t *manifest.Tool, d *Diagnostic) {
	if f := d.Fix; f != nil && !f.built {
		if l.Config.FixEdits && (!l.applicableEdits || f.Safe || l.Config.UnsafeFixes) {
			if f.Edits == nil && f.Build != nil {
				f.Edits = f.Build()
			}
			if len(f.Edits) > 0 {
				te, whole, err := t.TextEdits(f.Edits)
				if whole {
					f.TextEdits = te
				}
				f.err = err
			}
			f.built = true
		}
		f.Build = nil
	}
}

// adopt applies to a finding of rule r what every finding gets, wherever
// it was made, and reports whether it stays: a suppression may drop it.
func (l *Linter) adopt(r *Rule, d *Diagnostic) bool {
	if l.suppressed(r, d) {
		return false
	}
	if d.Consumers == nil {
		d.Consumers = r.Consumers
	}
	if s, ok := l.Config.Severity[r.ID]; ok {
		d.Severity = s
	} else if d.Severity == 0 {
		d.Severity = r.Severity
	}
	return true
}

// place fills in where the findings ds of tool t are, finding all their
// pointers in one reading of the tool.
func place(t *manifest.Tool, ds []Diagnostic) {
	rels := make([]string, len(ds))
	for i := range ds {
		rels[i] = ds[i].RelPointer
	}
	for i, pl := range t.Places(rels) {
		d := &ds[i]
		pos := t.M.Position(pl.Offset())
		d.Line, d.Column, d.Offset = pos.Line, pos.Column, pos.Offset
		d.Pointer = t.DocPointer(d.RelPointer)
		if pl.Found {
			d.End = t.M.Position(pl.End)
		}
	}
}

// worker lints tools one after the other. Its passes, one per rule, are
// made once and reused for every tool: at ten thousand tools, a pass and
// its report function per rule and tool were a good part of the run's
// allocations. It keeps its findings, placed, until the run merges them.
type worker struct {
	rules   []*Rule
	passes  []Pass
	schemas toolSchemas
	tool    *manifest.Tool // the tool being linted, for the reports
	diags   []Diagnostic
}

func (l *Linter) newWorker(rules []*Rule) *worker {
	w := &worker{rules: rules, passes: make([]Pass, len(rules))}
	for i, r := range rules {
		w.passes[i] = Pass{
			Rule: r, Protocol: l.newest, oldest: l.oldest, Cache: l.Cache, schemas: &w.schemas,
			options: l.Config.Options[r.ID], packs: l.packs, selected: l.selected,
			report: func(d Diagnostic) {
				if l.keep(w.tool, r, &d) {
					w.diags = append(w.diags, d)
				}
			},
		}
	}
	return w
}

func (w *worker) lintTool(t *manifest.Tool) error {
	if len(w.rules) == 0 {
		return nil
	}
	v, err := t.Value()
	if err != nil {
		return err
	}
	obj, _ := v.(map[string]any)
	w.tool = t
	w.schemas.reset(obj)
	defer func() {
		// Let the decoded tool go while the worker waits for the next.
		for i := range w.passes {
			w.passes[i].Tool, w.passes[i].Value = nil, nil
		}
		w.tool = nil
		w.schemas.reset(nil)
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
