package jsonscan

import "testing"

func TestStringEnd(t *testing.T) {
	for _, c := range []struct {
		src     string
		end     int
		escaped bool
	}{
		{`"" x`, 2, false},
		{`"abc":1`, 5, false},
		{`"a\"b" "`, 6, true},
		{`"a\\" "b"`, 5, true},
		{`"\\\"" `, 6, true},
		{`"\u0022"`, 8, true},
		{`"open`, -1, false},
		{`"open\"`, -1, true},
	} {
		end, escaped := StringEnd([]byte(c.src), 0)
		if end != c.end || escaped != c.escaped {
			t.Errorf("StringEnd(%s) = %d, %v; want %d, %v", c.src, end, escaped, c.end, c.escaped)
		}
	}
}
