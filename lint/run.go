package lint

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/manifest"
)

// Linter runs a selection of rules.
type Linter struct {
	Rules  []*Rule
	Config Config
	Cache  *Cache

	// run are the rules the run runs: Rules, and the silencers (see
	// silencers), whose findings are never reported.
	run      []*Rule
	silencer map[string]bool

	selected map[string]bool // IDs of the selected rules
	inPlay   map[consumer.ID]bool
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
	selected := map[string]bool{}
	for _, r := range rules {
		selected[r.ID] = true
	}
	l := &Linter{Rules: rules, Config: cfg, Cache: &Cache{}, selected: selected, oldest: oldest, newest: newest, inPlay: inPlay(rules)}
	l.run, l.silencer = rules, map[string]bool{}
	for _, r := range silencers(all, rules, cfg) {
		l.run = append(l.run, r)
		l.silencer[r.ID] = true
	}
	l.subjects = newSubjects(l.run)
	return l, nil
}

// inPlay are the consumers a selection judges for: those its rules
// protect, except a consumer of an opt-in mode that only rules on by
// default name (openai-array-items protects strict mode too, but strict
// mode is in play when a strict rule runs). Fixes write what every
// consumer in play takes (Pass.InPlay).
func inPlay(rules []*Rule) map[consumer.ID]bool {
	out := map[consumer.ID]bool{}
	for _, r := range rules {
		on := DefaultOn(r)
		for _, f := range r.Consumers {
			if c := consumer.ByID(f.Consumer); c != nil && (c.Default || !on) {
				out[f.Consumer] = true
			}
		}
	}
	return out
}

// silencers are the rules a configuration ignores (Ignore, or a
// suppression that names them) that report a subject a selected rule
// reports too (Rule.Subject). They run beside the selection so that their
// findings, never reported themselves, take with them the finding they
// merge into: a finding has every merged rule's ID, and ignoring any of
// them silences it. Otherwise --ignore tool-name-valid left the same
// finding reported under openai-function-name.
func silencers(all, selected []*Rule, cfg Config) []*Rule {
	subjects := map[string]bool{}
	for _, r := range selected {
		if r.Subject != "" {
			subjects[r.Subject] = true
		}
	}
	if len(subjects) == 0 {
		return nil
	}
	named := slices.Clone(cfg.Ignore)
	for _, s := range cfg.Suppress {
		if s.Rule != "" {
			named = append(named, s.Rule)
		}
	}
	var out []*Rule
	for _, r := range all {
		if !subjects[r.Subject] || slices.Contains(selected, r) {
			continue
		}
		if slices.ContainsFunc(named, func(n string) bool { return n != "all" && matches(r, n) }) {
			out = append(out, r)
		}
	}
	return out
}

// Lint runs the selected rules over every tool of m. Tools are decoded one at
// a time by a worker per CPU, so memory holds at most one decoded tool per
// worker. Each tool's findings are merged (Rule.Subject), sorted and placed
// as soon as the tool is done, the findings of list rules (CheckList, run
// beside the tools) with them, so a run keeps no more than the findings it
// returns (and LintEach not even those).
// An error is an input error (a tool that cannot be decoded; the first
// tool's when several fail) or a *PanicError.
func (l *Linter) Lint(m *manifest.Manifest) ([]Diagnostic, error) {
	return l.LintContext(context.Background(), m)
}

// LintContext is Lint that stops when ctx is done, between two tools (rules
// need not know), and then returns ctx's error.
func (l *Linter) LintContext(ctx context.Context, m *manifest.Manifest) ([]Diagnostic, error) {
	var diags []Diagnostic
	if err := l.LintEach(ctx, m, func(ds []Diagnostic) { diags = append(diags, ds...) }); err != nil {
		return nil, err
	}
	return diags, nil
}

// LintEach is LintContext handing the findings over as they are final
// instead of returning them, so that a run need not hold them all (a
// report can be written as the tools are linted): emit gets them in the
// order Lint returns them, in slices it may keep, one call at a time. In a
// JSON source (manifest.Manifest.Sequential) they come tool by tool,
// otherwise all at once at the end. When the run fails, findings of the
// tools before the failing one may have been handed over: an input error
// cannot come that late (the loader refuses a tool nested too deep), but a
// rule's panic can.
func (l *Linter) LintEach(ctx context.Context, m *manifest.Manifest, emit func([]Diagnostic)) error {
	return l.lint(ctx, m, nil, emit)
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

// toolState is where a tool of a run is: not linted yet, done (its
// findings final), pending (linted before the list rules' findings were
// in), or failed (an input error or a panic).
type toolState uint8

const (
	toolWaiting toolState = iota
	toolDone
	toolPending
	toolFailed
)

// lint is LintEach, taking what an earlier run on an earlier version of m
// learned from re (nil for none) and leaving there what this one learns.
func (l *Linter) lint(ctx context.Context, m *manifest.Manifest, re *rerun, emit func([]Diagnostic)) error {
	l = l.forSource(m)
	var same []bool
	var moved []int
	if re != nil && re.m != nil {
		same, moved, _ = m.Unchanged(re.m)
	}
	var kept [][]Diagnostic // each tool's per-tool findings, for re
	if re != nil {
		kept = make([][]Diagnostic, len(m.Tools))
	}
	// Past MaxFindings the run stops: its workers see the context done.
	ctx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	var tooMany error
	var perTool []*Rule
	for _, r := range l.run {
		if r.Check != nil {
			perTool = append(perTool, r)
		}
	}
	// Findings are handed over tool by tool when the tools follow one
	// another in the source: each tool's findings, sorted, then come after
	// the last one's, and the surface's, which are about other values, are
	// merged in. Otherwise (YAML aliases can make two tools one node) they
	// are gathered and sorted whole. The surface's findings are few and
	// found first, so the merge can place them; an error of theirs is
	// reported after the tools' input errors, as when they came last.
	stream := m.Sequential()
	var gathered []Diagnostic
	out := emit
	if !stream {
		out = func(ds []Diagnostic) { gathered = append(gathered, ds...) }
	}
	if max := l.Config.MaxFindings; max > 0 {
		count, inner := 0, out
		out = func(ds []Diagnostic) {
			if tooMany != nil {
				return
			}
			for i := range ds {
				count += ds[i].heldWeight()
			}
			if count > max {
				tooMany = &FindingsError{Path: m.Path, Limit: max}
				stopRun()
				return
			}
			inner(ds)
		}
	}
	surface, surfaceErr := l.lintSurface(m)
	Sort(surface)
	out = mergeInto(out, surface, surfaceErr == nil)

	// The list rules run while the tools are linted: one after the other
	// before them, they kept the other CPUs idle. A tool linted before
	// their findings are in keeps its own (pending) and is finished once
	// they are. The state of each tool, and listIn, are guarded by mu;
	// the run's goroutine waits on ready for the next tool to hand over.
	var (
		mu       sync.Mutex
		ready    = sync.NewCond(&mu)
		state    = make([]toolState, len(m.Tools))
		held     = make([][]Diagnostic, len(m.Tools)) // each tool's findings: final when done, its own when pending
		listed   [][]listedFinding
		listErr  error
		listIn   bool // listed and listErr are set
		idle     bool // no worker lints any more
		listDone = make(chan struct{})
		lists    bool
		// pending counts the findings held by pending tools: past
		// maxPending, a worker waits for the list rules rather than lint
		// on, so that what waits is bounded whatever the list's length.
		pending int
	)
	for _, r := range l.run {
		lists = lists || r.CheckList != nil
	}
	var (
		wg        sync.WaitGroup
		first     error // the first tool's error, whichever worker meets it first
		firstTool int
		next      atomic.Int64 // index of the next tool to lint
		workers   int
	)
	if (len(perTool) > 0 || lists) && len(m.Tools) > 0 {
		workers = min(runtime.GOMAXPROCS(0), len(m.Tools))
	} else {
		for i := range state {
			state[i] = toolDone
		}
	}
	// fail records that tool i failed with err (an input error or a
	// rule's panic); the run reports the first tool's.
	fail := func(i int, err error) {
		mu.Lock()
		if first == nil || i < firstTool {
			first, firstTool = err, i
		}
		state[i] = toolFailed
		ready.Signal()
		mu.Unlock()
	}
	run := &Cache{}
	work := func() {
		w := l.newWorker(perTool, run)
		for {
			i := int(next.Add(1)) - 1
			if i >= len(m.Tools) || ctx.Err() != nil {
				return
			}
			t := m.Tools[i]
			after := false // the list rules' findings are in
			var err error
			mu.Lock()
			full := pending >= maxPending
			mu.Unlock()
			if full {
				<-listDone
			}
			select {
			case <-listDone:
				after = true
				if listed != nil {
					w.diags, err = l.buildListed(t, listed[i], w.diags, false)
					listed[i] = nil
				}
			default:
			}
			nlisted := len(w.diags)
			ds, reused := re.reuse(m, same, moved, i)
			if err == nil && !reused {
				err = w.lintTool(t)
			}
			// The findings are completed (Diagnostic.Complete) and placed
			// once merged, unless the tool waits for the list rules'
			// findings or a later run reuses them (a reused tool's are kept
			// too): those merged away are neither.
			lazy := after && kept == nil
			if err == nil && !lazy {
				err = l.completeAll(t, w.diags)
			}
			if err != nil {
				fail(i, err)
				clear(w.diags)
				w.diags = w.diags[:0]
				continue
			}
			if reused {
				l.listedFixes(t, w.diags)
				place(t, w.diags)
				w.diags = append(w.diags, ds...)
			} else {
				l.listedFixes(t, w.diags[:nlisted])
				if !lazy {
					place(t, w.diags)
				}
			}
			if kept != nil {
				kept[i] = slices.Clone(w.diags[nlisted:])
			}
			ds, st := w.handOver(), toolPending
			if after {
				ds, err = l.settleTool(t, ds, lazy)
				st = toolDone
			}
			t.Forget() // the tool's fixes are built
			if err != nil {
				fail(i, err)
				continue
			}
			mu.Lock()
			held[i], state[i] = ds, st
			if st == toolPending {
				pending += len(ds) + 1
			}
			ready.Signal()
			mu.Unlock()
		}
	}
	// The list rules get a CPU of their own, and their goroutine lints
	// tools once they are done: sharing the CPUs with every worker, they
	// took three times as long, and each tool linted meanwhile held its
	// findings until they were in (the peak of a run's memory).
	late := lists && workers > 1
	wg.Go(func() {
		ls, err := l.lintList(m)
		mu.Lock()
		listed, listErr, listIn = ls, err, true
		ready.Signal()
		mu.Unlock()
		close(listDone)
		if late {
			work()
		}
	})
	for k := range workers {
		if !late || k > 0 {
			wg.Go(work)
		}
	}
	go func() {
		wg.Wait()
		mu.Lock()
		idle = true
		ready.Signal()
		mu.Unlock()
	}()

	// Hand the tools' findings over in order, as soon as each is final. A
	// pending tool gets the list rules' findings now, placed, merged and
	// sorted with its own as if they had been there first. Nothing more is
	// handed over once the run has failed.
	mu.Lock()
	for i := 0; i < len(m.Tools); {
		st := state[i]
		switch {
		case st == toolFailed || ctx.Err() != nil || listIn && listErr != nil:
			i = len(m.Tools)
			continue
		case st == toolWaiting && !idle, st == toolPending && !listIn:
			ready.Wait()
			continue
		case st == toolWaiting:
			i = len(m.Tools) // stopped: the context is done
			continue
		}
		ds := held[i]
		held[i] = nil
		mu.Unlock()
		if st == toolPending {
			if listed != nil && len(listed[i]) > 0 {
				t, own := m.Tools[i], ds
				var err error
				ds, err = l.buildListed(t, listed[i], nil, true)
				listed[i] = nil
				if err != nil {
					fail(i, err)
					mu.Lock()
					continue // to the failed tool
				}
				l.listedFixes(t, ds)
				place(t, ds)
				t.Forget()
				ds = append(ds, own...)
			}
			ds = l.settle(ds)
		}
		if len(ds) > 0 {
			out(ds)
		}
		i++
		mu.Lock()
	}
	mu.Unlock()
	wg.Wait()
	<-listDone
	if tooMany != nil {
		return tooMany
	}
	if first != nil {
		return first
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if listErr != nil {
		return listErr
	}
	if surfaceErr != nil {
		return surfaceErr
	}
	if re != nil {
		re.m, re.found = m, kept
	}
	out(nil) // the surface's findings after the last tool's
	if tooMany != nil {
		return tooMany
	}
	if !stream {
		// Tools follow one another in their source, so the tools' sorted
		// findings, one after the other, are mostly sorted already.
		if !slices.IsSortedFunc(gathered, compareDiagnostics) {
			Sort(gathered)
		}
		if len(gathered) > 0 {
			emit(gathered)
		}
	}
	return nil
}

// FindingBytes is what MaxFindings reckons a held finding costs: a finding
// whose own strings (message, pointer, fix description) are longer counts
// as one finding per FindingBytes of them, so that the bound holds in
// bytes too. Ten thousand findings under a 100 KB property key, each with
// the key in its pointer, held a gigabyte and counted as ten thousand.
const FindingBytes = 2500

// heldWeight is how many findings d counts as against MaxFindings: one,
// or one per FindingBytes of its own strings. The tool's name and the
// file's path are the tool's and the manifest's, shared by all their
// findings, and RelPointer shares the memory of Pointer (shareTail): none
// of them is counted.
func (d *Diagnostic) heldWeight() int {
	n := len(d.Message) + len(d.Pointer)
	if d.Fix != nil {
		n += len(d.Fix.Message)
	}
	return max(1, (n+FindingBytes-1)/FindingBytes)
}

// FindingsError is a source with more findings than Config.MaxFindings.
type FindingsError struct {
	Path  string
	Limit int
}

func (e *FindingsError) Error() string {
	return fmt.Sprintf("%s: more than %d findings, the limit for a report held whole in memory; narrow the selection (--select, --ignore), or write one text or JSON report to standard output, which is written as it goes", e.Path, e.Limit)
}

// maxPending bounds the findings tools may hold while the list rules run
// (each pending tool counts one more): some tens of megabytes. A run that
// linted on kept every finding of a list of a million tools, gigabytes.
const maxPending = 1 << 16

// mergeInto returns an emit function that hands over to emit what it is
// given merged with the sorted findings extra, in order; given nil, it
// hands over what is left of extra. Unless on, it hands over nothing.
// Findings that compare equal keep the tools' first, as a stable sort of
// the tools' findings followed by extra does.
func mergeInto(emit func([]Diagnostic), extra []Diagnostic, on bool) func([]Diagnostic) {
	return func(ds []Diagnostic) {
		if !on {
			return
		}
		if ds == nil {
			if len(extra) > 0 {
				emit(extra)
				extra = nil
			}
			return
		}
		if len(extra) == 0 || compareDiagnostics(extra[0], ds[len(ds)-1]) >= 0 {
			emit(ds)
			return
		}
		merged := make([]Diagnostic, 0, len(ds)+len(extra))
		j := 0
		for i := range ds {
			for j < len(extra) && compareDiagnostics(extra[j], ds[i]) < 0 {
				merged = append(merged, extra[j])
				j++
			}
			merged = append(merged, ds[i])
		}
		extra = extra[j:]
		emit(merged)
	}
}

// listedFinding is a list rule's finding about one tool, made when the
// tool's findings are handed over (ListPass.ReportFunc).
type listedFinding struct {
	rule  *Rule
	build func() Diagnostic
}

// buildListed appends to ds the list rules' findings fs about tool t that
// stay, built, and completed too when now is set. A rule's panic while
// building is an error about t.
func (l *Linter) buildListed(t *manifest.Tool, fs []listedFinding, ds []Diagnostic, now bool) ([]Diagnostic, error) {
	for _, f := range fs {
		var d Diagnostic
		err := guard(f.rule.ID, t, func() { d = f.build() })
		if err != nil {
			return ds, err
		}
		d.Rule = f.rule.ID
		d.File, d.Tool, d.ToolIndex = t.M.Path, t.Name, t.Index
		if !l.adopt(f.rule, &d) {
			continue
		}
		if now {
			if err := l.complete(t, &d); err != nil {
				return ds, err
			}
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// complete makes the message and fix of a kept finding about tool t (nil
// for none) whose rule left them to be made (Diagnostic.Complete), and
// builds the fix's edits while the tool's index is at hand.
func (l *Linter) complete(t *manifest.Tool, d *Diagnostic) error {
	if d.Complete == nil {
		return nil
	}
	if err := guard(d.Rule, t, d.complete); err != nil {
		return err
	}
	if t != nil {
		l.buildFix(t, d)
	}
	return nil
}

// completeAll completes the findings ds about tool t.
func (l *Linter) completeAll(t *manifest.Tool, ds []Diagnostic) error {
	for i := range ds {
		if err := l.complete(t, &ds[i]); err != nil {
			return err
		}
	}
	return nil
}

// settleTool is settle for the findings ds of tool t, some of them not
// completed yet: only those the merge keeps, or whose fix it takes, are.
// Unless placed, the findings are placed once merged (the merge needs only
// their pointers). The tool's index must still be at hand, for the fixes.
func (l *Linter) settleTool(t *manifest.Tool, ds []Diagnostic, placeLater bool) ([]Diagnostic, error) {
	if len(ds) == 0 {
		return nil, nil
	}
	if placeLater && l.subjects != nil {
		for i := range ds {
			ds[i].Pointer = t.DocPointer(ds[i].RelPointer)
		}
	}
	var err error
	ds = l.subjects.merge(ds, func(d *Diagnostic) {
		if err == nil {
			err = l.complete(t, d)
		}
	})
	ds = dropSilenced(ds)
	if err == nil {
		err = l.completeAll(t, ds)
	}
	if err != nil {
		return nil, err
	}
	if placeLater {
		place(t, ds)
	}
	Sort(ds)
	return ds, nil
}

// lintList runs the list rules (CheckList), one after the other, and
// returns their findings by tool, to be built, in the order of the rules
// and then of their reports, or nil when there are none. A list rule's
// panic is reported after the tools' input errors, as when list rules ran
// last.
func (l *Linter) lintList(m *manifest.Manifest) ([][]listedFinding, error) {
	var listed [][]listedFinding
	var names map[string]*manifest.Tool // ListPass.ToolNamed
	for _, r := range l.run {
		if r.CheckList == nil {
			continue
		}
		err := guard(r.ID, nil, func() {
			r.CheckList(&ListPass{
				Rule: r, Manifest: m, Protocol: l.newest, runView: l.view(r), names: &names,
				report: func(t *manifest.Tool, build func() Diagnostic) {
					// The finding, and its fix's edits, are built by the
					// worker that lints the tool (see listedFixes):
					// building the edits here, one tool after the other,
					// indexed each tool twice and took a third of a fix of
					// many renamed tools on one core. A list pass gives its
					// rule no way to index a tool, so there is nothing to
					// forget here.
					if listed == nil {
						listed = make([][]listedFinding, len(m.Tools))
					}
					listed[t.Index] = append(listed[t.Index], listedFinding{r, build})
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
	for _, r := range l.run {
		if r.CheckSurface == nil {
			continue
		}
		err := guard(r.ID, nil, func() {
			r.CheckSurface(&SurfacePass{
				Rule: r, Manifest: m, Protocol: l.newest, runView: l.view(r),
				report: func(e *manifest.Entry, d Diagnostic) {
					placeEntry(e, &d)
					if l.adopt(r, &d) {
						d.complete() // CheckSurface's guard holds
						ds = append(ds, d)
					}
				},
			})
		})
		if err != nil {
			return nil, err
		}
	}
	return dropSilenced(l.subjects.merge(ds, nil)), nil
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
	ds = dropSilenced(l.subjects.merge(ds, nil))
	Sort(ds)
	return ds
}

// Option returns option name of rule r as the linter's rules read it:
// configured, or the rule's default. Code that reports for a rule outside
// Lint (through Add) reads the rule's options here.
func (l *Linter) Option(r *Rule, name string) any { return option(r, l.Config.Options[r.ID], name) }

// Add takes in findings made outside Lint, such as those of the live rules
// (package live), which judge what a running server did rather than its
// tools: each gets what Lint gives its own (suppressions, the configured
// severity, the rule's consumers), those of rules the linter does not run
// are dropped, and the result is ds with them, sorted.
func (l *Linter) Add(ds []Diagnostic, found ...Diagnostic) []Diagnostic {
	for _, d := range found {
		for _, r := range l.Rules {
			if r.ID == d.Rule {
				if l.adopt(r, &d) && !d.Silenced {
					d.complete()
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
	switch {
	case l.silencer[r.ID]:
		d.Silenced = true
	case l.suppressed(r, d):
		if l.subjects == nil || r.Subject == "" {
			return false
		}
		// Kept until merged: the finding it merges into goes with it.
		d.Silenced = true
	}
	d.bound()
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
	// Findings about one value (several rules at one schema) share its
	// pointer when it is long: each of them held a copy of a 100 KB key.
	var long map[string]string
	for i, pl := range t.Places(rels) {
		d := &ds[i]
		pos := t.M.Position(pl.Offset())
		d.Line, d.Column, d.Offset = pos.Line, pos.Column, pos.Offset
		if len(d.RelPointer) <= longPointer {
			d.Pointer = t.DocPointer(d.RelPointer)
		} else if p, ok := long[d.RelPointer]; ok {
			d.Pointer = p
		} else {
			d.Pointer = t.DocPointer(d.RelPointer)
			if long == nil {
				long = map[string]string{}
			}
			long[d.RelPointer] = d.Pointer
		}
		d.RelPointer = shareTail(d.Pointer, d.RelPointer)
		if pl.Found {
			d.End = t.M.Position(pl.End)
		}
	}
}

// longPointer is the length past which place shares a pointer between
// the findings about one value; no real pointer comes near it.
const longPointer = 1 << 10

// shareTail returns rel as the end of doc, sharing its memory, when doc
// ends with it (the pointer of a finding and the same relative to its
// tool, as nearly always): a finding under a 100 KB key held the key twice.
func shareTail(doc, rel string) string {
	if len(rel) > 0 && strings.HasSuffix(doc, rel) {
		return doc[len(doc)-len(rel):]
	}
	return rel
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

// view is what a pass of rule r sees of this run.
func (l *Linter) view(r *Rule) runView {
	return runView{oldest: l.oldest, options: l.Config.Options[r.ID]}
}

func (l *Linter) newWorker(rules []*Rule, run *Cache) *worker {
	w := &worker{rules: rules, passes: make([]Pass, len(rules))}
	for i, r := range rules {
		w.passes[i] = Pass{
			Rule: r, Protocol: l.newest, Cache: l.Cache, Run: run, runView: l.view(r), schemas: &w.schemas,
			selected: l.selected, inPlay: l.inPlay,
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
		if err := guard(r.ID, t, func() { r.Check(p) }); err != nil {
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

func guard(rule string, t *manifest.Tool, fn func()) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Rule: rule, Tool: t, Value: v, Stack: debug.Stack()}
		}
	}()
	fn()
	return nil
}
