package live

import (
	"strings"
	"testing"
)

// TestIsJSONRPCDeep: a message nested past encoding/json's depth is still
// a message, and what is not one stays noise however deep it is.
func TestIsJSONRPCDeep(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	cases := []struct {
		line string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"x":` + deep + `}}`, true},
		{`{"id":1,"result":` + deep + `,"jsonrpc":"2.0"}`, true},
		{`[` + deep + `]`, true},
		{`{"jsonrpc":"1.0","result":` + deep + `}`, false},
		{`{"result":` + deep + `}`, false},
		{`{"jsonrpc":"2.0","result":` + deep[:len(deep)-1] + `}`, false},
		{`{"jsonrpc":"2.0","result":` + deep + `} trailing`, false},
		{`{"jsonrpc":` + deep + `}`, false},
		{`{"jsonrpc":"2.0"}`, true},
		{`{level: info}`, false},
	}
	for _, c := range cases {
		if got := isJSONRPC([]byte(c.line)); got != c.want {
			t.Errorf("isJSONRPC(%.60q…) = %v, want %v", c.line, got, c.want)
		}
	}
}
