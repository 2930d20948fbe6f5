package lint

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/mcplint/mcplint/manifest"
)

// Linter runs a selection of rules.
type Linter struct {
	Rules  []*Rule
	Config Config
	Cache  *Cache
}

// New selects rules from the catalogue according to cfg.
func New(all []*Rule, cfg Config) (*Linter, error) {
	if cfg.Protocol == "" {
		cfg.Protocol = LatestProtocol
	}
	if !ValidProtocol(cfg.Protocol) {
		return nil, fmt.Errorf("unknown protocol version %q (known: %v)", cfg.Protocol, Protocols)
	}
	rules, err := Select(all, cfg)
	if err != nil {
		return nil, err
	}
	return &Linter{Rules: rules, Config: cfg, Cache: &Cache{}}, nil
}

// Lint runs the selected rules over every tool of m. Tools are decoded one at
// a time by a worker per CPU, so memory holds at most one decoded tool per
// worker. An error is an input error (a tool that cannot be decoded).
func (l *Linter) Lint(m *manifest.Manifest) ([]Diagnostic, error) {
	var (
		mu    sync.Mutex
		diags []Diagnostic
		first error
	)
	add := func(t *manifest.Tool, r *Rule, d Diagnostic) {
		l.place(t, &d)
		if s, ok := l.Config.Severity[r.ID]; ok {
			d.Severity = s
		} else if d.Severity == 0 {
			d.Severity = r.Severity
		}
		mu.Lock()
		diags = append(diags, d)
		mu.Unlock()
	}
	var perTool []*Rule
	for _, r := range l.Rules {
		if r.Check != nil {
			perTool = append(perTool, r)
		}
	}
	if len(perTool) > 0 && len(m.Tools) > 0 {
		jobs := make(chan *manifest.Tool)
		var wg sync.WaitGroup
		workers := min(runtime.GOMAXPROCS(0), len(m.Tools))
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for t := range jobs {
					if err := l.lintTool(t, perTool, add); err != nil {
						mu.Lock()
						if first == nil {
							first = err
						}
						mu.Unlock()
					}
				}
			}()
		}
		for _, t := range m.Tools {
			jobs <- t
		}
		close(jobs)
		wg.Wait()
		if first != nil {
			return nil, first
		}
	}
	for _, r := range l.Rules {
		if r.CheckList == nil {
			continue
		}
		r.CheckList(&ListPass{
			Rule: r, Manifest: m, Protocol: l.Config.Protocol,
			options: l.Config.Options[r.ID],
			report:  func(t *manifest.Tool, d Diagnostic) { add(t, r, d) },
		})
	}
	Sort(diags)
	return diags, nil
}

func (l *Linter) lintTool(t *manifest.Tool, rules []*Rule, add func(*manifest.Tool, *Rule, Diagnostic)) error {
	v, err := t.Value()
	if err != nil {
		return err
	}
	obj, _ := v.(map[string]any)
	for _, r := range rules {
		r.Check(&Pass{
			Rule: r, Tool: t, Value: obj, Protocol: l.Config.Protocol, Cache: l.Cache,
			options: l.Config.Options[r.ID],
			report:  func(d Diagnostic) { add(t, r, d) },
		})
	}
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
