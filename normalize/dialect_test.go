package normalize

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

// dialectTable is testdata/dialect/cases.json: Draft2020's cases, and the
// sample instances every case's schema validates before and after the
// rewrite (internal/oracletest replays them with Ajv).
type dialectTable struct {
	Samples []json.RawMessage `json:"samples"`
	Cases   []dialectCase     `json:"cases"`
}

type dialectCase struct {
	Name    string          `json:"name"`
	In      json.RawMessage `json:"in"`
	Assumed string          `json:"assumed"`
	Want    json.RawMessage `json:"want"`
	// Losses are the keywords of the expected Losses, in order.
	Losses []string `json:"losses"`
	// Invalid: the input is not valid under its own dialect, so it has no
	// verdicts to compare.
	Invalid bool `json:"invalid"`
	// Dangling: the result has a reference that leads nowhere (its Loss
	// says so), so it does not compile.
	Dangling bool `json:"dangling"`
	// Instances are values worth validating besides the samples; they
	// must tell the schema's verdicts apart.
	Instances []json.RawMessage `json:"instances"`
	// AjvDiffers says why Ajv, unlike the specification, reads the input
	// otherwise; the Ajv replay skips the case.
	AjvDiffers string `json:"ajvDiffers"`
}

func loadDialectTable(t testing.TB) dialectTable {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "dialect", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tab dialectTable
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&tab); err != nil {
		t.Fatalf("testdata/dialect/cases.json: %v", err)
	}
	if len(tab.Cases) == 0 || len(tab.Samples) == 0 {
		t.Fatal("testdata/dialect/cases.json has no cases or no samples")
	}
	return tab
}

func TestDraft2020(t *testing.T) {
	for _, tt := range loadDialectTable(t).Cases {
		t.Run(tt.Name, func(t *testing.T) {
			in := testenv.JSON(t, string(tt.In))
			before := schema.Clone(in)
			got, losses := Draft2020From(in, tt.Assumed)
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("Draft2020 modified its input (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(testenv.JSON(t, string(tt.Want)), got); diff != "" {
				t.Errorf("Draft2020(%s) (-want +got):\n%s", tt.In, diff)
			}
			var kws []string
			for _, l := range losses {
				kws = append(kws, l.Keyword)
				if l.What == "" {
					t.Errorf("loss without a reason: %+v", l)
				}
			}
			if diff := cmp.Diff(tt.Losses, kws); diff != "" {
				t.Errorf("losses (-want +got):\n%s\n%+v", diff, losses)
			}
			_, err := schema.Compile(got)
			switch {
			case strings.Contains(string(tt.In), "example.com/dialect"):
			case err != nil && !tt.Dangling:
				t.Errorf("the result does not compile as 2020-12: %v", err)
			case err == nil && tt.Dangling:
				t.Error("the result compiles; the case says a reference dangles")
			}
		})
	}
}

// TestDraft2020SameVerdicts validates sample instances against each
// case's schema under its own dialect and against Draft2020's result
// under 2020-12: where no Loss is reported, every verdict must agree.
// The validator (santhosh-tekuri/jsonschema) is independent of the
// rewrite, and ignores keywords beside "$ref" before 2019-09 as the
// specifications say.
func TestDraft2020SameVerdicts(t *testing.T) {
	tab := loadDialectTable(t)
	compared, refused := 0, 0
	for _, tt := range tab.Cases {
		if len(tt.Losses) > 0 || tt.Invalid {
			continue
		}
		in := testenv.JSON(t, string(tt.In))
		assumed := tt.Assumed
		if assumed == "" {
			assumed = schema.Draft2020
		}
		old, err := schema.CompileDialect(in, assumed)
		if err != nil {
			t.Errorf("%s: the input does not compile: %v", tt.Name, err)
			continue
		}
		got, _ := Draft2020From(in, tt.Assumed)
		upgraded, err := schema.Compile(got)
		if err != nil {
			t.Errorf("%s: the result does not compile: %v", tt.Name, err)
			continue
		}
		for _, raw := range append(append([]json.RawMessage{}, tab.Samples...), tt.Instances...) {
			v := testenv.JSON(t, string(raw))
			was, now := old.Validate(v) == nil, upgraded.Validate(v) == nil
			compared++
			if !was {
				refused++
			}
			if was != now {
				t.Errorf("%s: %s is valid before: %v, after: %v", tt.Name, raw, was, now)
			}
		}
		// A case's own instances must tell its schema's verdicts apart.
		if len(tt.Instances) > 0 {
			accepted := 0
			for _, raw := range tt.Instances {
				if old.Validate(testenv.JSON(t, string(raw))) == nil {
					accepted++
				}
			}
			if accepted == 0 || accepted == len(tt.Instances) {
				t.Errorf("%s: the schema accepts %d of its %d instances; give it some of each", tt.Name, accepted, len(tt.Instances))
			}
		}
	}
	if refused == 0 || refused == compared {
		t.Errorf("%d of %d samples refused: the samples do not tell schemas apart", refused, compared)
	}
}

// FuzzDraft2020: no input makes Draft2020 panic or modify its input, and
// for a schema valid under its own dialect, a rewrite without Loss
// compiles as 2020-12 and gives every sample instance the verdict the
// input gave.
func FuzzDraft2020(f *testing.F) {
	tab := loadDialectTable(f)
	for _, tt := range tab.Cases {
		f.Add(string(tt.In))
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var in any
		if d.Decode(&in) != nil {
			return
		}
		before := schema.Clone(in)
		out, losses := Draft2020(in)
		if !cmp.Equal(before, in) {
			t.Fatalf("input modified: %s", s)
		}
		old, err := schema.Compile(in)
		if err != nil || len(losses) > 0 {
			return
		}
		upgraded, err := schema.Compile(out)
		if err != nil {
			t.Fatalf("a valid schema rewritten without loss does not compile: %v\nin:  %s\nout: %s", err, s, schema.Compact(out))
		}
		for _, raw := range tab.Samples {
			x := string(raw)
			v := testenv.JSON(t, x)
			if was, now := old.Validate(v) == nil, upgraded.Validate(v) == nil; was != now {
				t.Fatalf("%s is valid before: %v, after: %v\nin:  %s\nout: %s", x, was, now, s, schema.Compact(out))
			}
		}
	})
}
