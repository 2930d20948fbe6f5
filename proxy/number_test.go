package proxy

import (
	"bytes"
	"strings"
	"testing"
)

// TestHugeExponent: a number past what the schema validator can compare
// (1e-99999999999: big.Rat refuses the exponent and the validator
// dereferences nil) crashed the proxy, from a client's arguments or a
// server's structuredContent. It is now passed on as it came.
func TestHugeExponent(t *testing.T) {
	const schema = `{"type":"object","properties":{"x":{"type":"number","minimum":0}}}`
	in := `{"x": 1e-99999999999}`
	if out, cs := coerceArgs(mustCompile(t, schema), []byte(in)); string(out) != in || len(cs) != 0 {
		t.Errorf("arguments: got %s (%d coercions), want them as sent", out, len(cs))
	}
	var log bytes.Buffer
	s := &session{log: newChangeLog(&log, false, nil)}
	entry := &toolEntry{name: "t", exposed: "t", output: []byte(schema), shown: []byte(schema)}
	entry.compile()
	result := `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"x":1e-99999999999}}`
	got := s.checkResult(entry, []byte(result), "claude", resultFailure{fails: true, source: "test"})
	if string(got.out) != result || got.changed {
		t.Errorf("result: got %s, want it as it came", got.out)
	}
	if !strings.Contains(log.String(), "a number past what a validator can compare") {
		t.Errorf("log %q, want the number named", log.String())
	}
}
