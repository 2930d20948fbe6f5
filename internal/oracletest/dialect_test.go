package oracletest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/normalize"
)

// dialectTable is the part of normalize/testdata/dialect/cases.json this
// test reads: normalize.Draft2020's cases and their sample instances.
type dialectTable struct {
	Samples []json.RawMessage `json:"samples"`
	Cases   []struct {
		Name       string            `json:"name"`
		In         json.RawMessage   `json:"in"`
		Assumed    string            `json:"assumed"`
		Losses     []string          `json:"losses"`
		Invalid    bool              `json:"invalid"`
		Instances  []json.RawMessage `json:"instances"`
		AjvDiffers string            `json:"ajvDiffers"`
	} `json:"cases"`
}

type ajvValidation struct {
	ID        string            `json:"id"`
	Schema    any               `json:"schema"`
	Instances []json.RawMessage `json:"instances"`
}

type ajvVerdicts struct {
	ID      string  `json:"id"`
	Dialect string  `json:"dialect"`
	Error   *string `json:"error"`
	Valid   []bool  `json:"valid"`
}

// TestDraft2020Ajv replays normalize.Draft2020's table with Ajv, a
// validator independent of both mcplint and the Go validator its own test
// uses: for every case rewritten without Loss, each sample instance gets
// the same verdict from the input under its dialect (Ajv's build for it)
// and from the result under 2020-12 (Ajv2020), and a result compiles in
// Ajv's strict mode whenever its input does.
func TestDraft2020Ajv(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "normalize", "testdata", "dialect", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tab dialectTable
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&tab); err != nil {
		t.Fatal(err)
	}
	var reqs []ajvValidation
	var strict []ajvRequest
	skipped := 0
	for _, c := range tab.Cases {
		if len(c.Losses) > 0 || c.Invalid {
			continue
		}
		if c.AjvDiffers != "" {
			skipped++
			continue
		}
		var in any
		d := json.NewDecoder(bytes.NewReader(c.In))
		d.UseNumber()
		if err := d.Decode(&in); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		out, _ := normalize.Draft2020From(in, c.Assumed)
		before := in
		if m, ok := in.(map[string]any); ok && c.Assumed != "" {
			// Ajv reads the dialect from "$schema".
			before = withSchema(m, c.Assumed)
		}
		instances := append(append([]json.RawMessage{}, tab.Samples...), c.Instances...)
		reqs = append(reqs, ajvValidation{"before " + c.Name, before, instances}, ajvValidation{"after " + c.Name, out, instances})
		strict = append(strict, ajvRequest{"before " + c.Name, before}, ajvRequest{"after " + c.Name, out})
	}
	if len(reqs) == 0 {
		t.Fatal("no case to replay")
	}
	stdin, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	var answers []ajvVerdicts
	if err := json.Unmarshal(testenv.Node(t, "ajv-validate.mjs", stdin), &answers); err != nil {
		t.Fatal(err)
	}
	byID := map[string]ajvVerdicts{}
	for _, a := range answers {
		byID[a.ID] = a
	}
	compared := 0
	for i := 0; i < len(reqs); i += 2 {
		was, now := byID[reqs[i].ID], byID[reqs[i+1].ID]
		switch {
		case was.Error != nil:
			t.Errorf("%s: Ajv (%s) does not compile the input: %s", reqs[i].ID, was.Dialect, *was.Error)
			continue
		case now.Error != nil:
			t.Errorf("%s: Ajv (%s) does not compile the result: %s", reqs[i+1].ID, now.Dialect, *now.Error)
			continue
		}
		for j, v := range was.Valid {
			compared++
			if now.Valid[j] != v {
				t.Errorf("%s: Ajv finds %s valid before: %v (%s), after: %v", reqs[i].ID[len("before "):], reqs[i].Instances[j], v, was.Dialect, now.Valid[j])
			}
		}
	}
	compiled := compileAjv(t, strict)
	for i := 0; i < len(strict); i += 2 {
		was, now := compiled[strict[i].ID], compiled[strict[i+1].ID]
		if was.Error == nil && now.Error != nil {
			t.Errorf("%s: Ajv strict compiles the input (%s) but not the result: %s", strict[i+1].ID, was.Dialect, *now.Error)
		}
	}
	t.Logf("%d verdicts compared over %d cases; %d cases skipped where Ajv departs from the specification", compared, len(reqs)/2, skipped)
}

func withSchema(m map[string]any, dialect string) map[string]any {
	uris := map[string]string{
		"draft-04": "http://json-schema.org/draft-04/schema#",
		"draft-06": "http://json-schema.org/draft-06/schema#",
		"draft-07": "http://json-schema.org/draft-07/schema#",
		"2019-09":  "https://json-schema.org/draft/2019-09/schema",
	}
	out := map[string]any{"$schema": uris[dialect]}
	for k, v := range m {
		out[k] = v
	}
	return out
}
