package tokens

import (
	"bytes"
	"encoding/json"
	"unsafe"

	"github.com/mcpfit/mcplint/internal/jsonscan"
	"github.com/mcpfit/mcplint/internal/par"
	"github.com/mcpfit/mcplint/manifest"
)

// Definition returns the text a client puts in the model's context for
// the tool: {"name":…,"description":…,"input_schema":…} as compact JSON,
// members the tool lacks left out. It appends to buf, which may be nil.
func Definition(buf []byte, t *manifest.Tool) []byte {
	if raw, ok := t.Raw(); ok {
		if b, ok := rawDefinition(buf, raw); ok {
			return b
		}
	}
	v, err := t.Value()
	if err != nil {
		return buf
	}
	obj, _ := v.(map[string]any)
	def := map[string]any{}
	for from, to := range map[string]string{"name": "name", "description": "description", "inputSchema": "input_schema"} {
		if x, ok := obj[from]; ok {
			def[to] = x
		}
	}
	w := bytes.NewBuffer(buf)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if enc.Encode(def) != nil {
		return buf
	}
	return bytes.TrimSuffix(w.Bytes(), []byte("\n"))
}

// Tool is the estimated number of tokens of the tool's definition.
func Tool(t *manifest.Tool) int {
	return estimateBytes(Definition(nil, t))
}

// estimateBytes is Estimate of b, without copying it: Estimate keeps no
// reference to its argument.
func estimateBytes(b []byte) int {
	return Estimate(unsafe.String(unsafe.SliceData(b), len(b)))
}

// chunk is how many tools one goroutine estimates at a time: a list of
// ten thousand tools is spread over the CPUs, fifty take one pass.
const chunk = 256

// Manifest is the estimated number of tokens of the definitions of all
// the manifest's tools.
func Manifest(m *manifest.Manifest) int {
	if m == nil {
		return 0
	}
	tools := m.Tools
	sums := make([]int, (len(tools)+chunk-1)/chunk)
	par.ForEach(len(sums), func(c int) {
		var buf []byte
		for _, t := range tools[c*chunk : min(len(tools), (c+1)*chunk)] {
			buf = Definition(buf[:0], t)
			sums[c] += estimateBytes(buf)
		}
	})
	n := 0
	for _, s := range sums {
		n += s
	}
	return n
}

// definitionMembers are the members a client sends, by their source key,
// with the key it sends them under.
var definitionMembers = [...]struct{ key, as string }{
	{`"name"`, `"name"`},
	{`"description"`, `"description"`},
	{`"inputSchema"`, `"input_schema"`},
}

// rawDefinition builds the definition from the tool's JSON text, without
// decoding it: the members' values are copied with the white space outside
// strings left out. It reports false for text it does not read (it is
// the loader's valid JSON, so that is not expected).
func rawDefinition(buf, raw []byte) ([]byte, bool) {
	var spans [len(definitionMembers)][2]int
	found := false
	i := jsonscan.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return buf, false
	}
	i++
	for {
		i = jsonscan.SkipSpace(raw, i)
		if i >= len(raw) {
			return buf, false
		}
		if raw[i] == '}' {
			break
		}
		if raw[i] == ',' {
			i++
			continue
		}
		if raw[i] != '"' {
			return buf, false
		}
		keyEnd, _ := jsonscan.StringEnd(raw, i)
		if keyEnd < 0 {
			return buf, false
		}
		key := raw[i:keyEnd]
		i = jsonscan.SkipSpace(raw, keyEnd)
		if i >= len(raw) || raw[i] != ':' {
			return buf, false
		}
		i = jsonscan.SkipSpace(raw, i+1)
		end := jsonscan.ValueEnd(raw, i)
		if end < 0 {
			return buf, false
		}
		for m, dm := range definitionMembers {
			if string(key) == dm.key {
				spans[m] = [2]int{i, end}
				found = true
			}
		}
		i = end
	}
	if !found {
		return buf, true
	}
	buf = append(buf, '{')
	first := true
	for m, dm := range definitionMembers {
		if spans[m][1] == 0 {
			continue
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = append(buf, dm.as...)
		buf = append(buf, ':')
		buf = appendCompact(buf, raw[spans[m][0]:spans[m][1]])
	}
	return append(buf, '}'), true
}

// appendCompact appends the JSON text src without the white space outside
// its strings.
func appendCompact(buf, src []byte) []byte {
	for k := 0; k < len(src); {
		switch c := src[k]; c {
		case ' ', '\t', '\n', '\r':
			k++
		case '"':
			end, _ := jsonscan.StringEnd(src, k)
			if end < 0 {
				return append(buf, src[k:]...)
			}
			buf = append(buf, src[k:end]...)
			k = end
		default:
			buf = append(buf, c)
			k++
		}
	}
	return buf
}
