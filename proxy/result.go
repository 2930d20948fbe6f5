package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/schema"
)

// A tools/call result is checked against the tool's outputSchema: the
// server's own (its contract, which the log holds it to) and the one the
// client was given (which a client that checks results holds it to; the
// fixes may have changed it). A result the client takes passes as it
// came. One the client would fail the whole call on (results) is turned
// into a tool error that carries the server's structured result as text,
// which every such client takes: the TypeScript SDK checks structured
// content only when there is some, the Python SDK not at all on an error.
// A result with no structuredContent whose only text is JSON the schema
// accepts gets it as structuredContent instead, as clients that predate
// structured results wrote them.

// outcome is what the check did to a result.
type outcome struct {
	out     []byte
	changed bool
}

// checkResult checks the result of a call to t. client is the log's name
// for the client and fails says whether the client fails a call on a
// broken result.
func (s *session) checkResult(t *toolEntry, result []byte, client string, rf resultFailure) outcome {
	if len(t.output) == 0 && len(t.shown) == 0 {
		return outcome{out: result}
	}
	ms, err := members(result)
	if err != nil {
		return outcome{out: result}
	}
	if m, ok := find(ms, "resultType"); ok && string(bytes.TrimSpace(result[m.value.start:m.value.end])) != `"complete"` {
		return outcome{out: result} // an interim result (input_required) carries no content yet
	}
	if m, ok := find(ms, "isError"); ok && string(result[m.value.start:m.value.end]) == "true" {
		return outcome{out: result}
	}
	t.compile()
	sc, has := find(ms, "structuredContent")
	if !has {
		return s.missingStructured(t, result, ms, client, rf)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(result[sc.value.start:sc.value.end]))
	if err != nil {
		return outcome{out: result}
	}
	if t.outputS != nil {
		if err := schema.Validate(t.outputS, v); err != nil {
			s.log.reportf(t.name, "structured-content", client, "a result's structuredContent breaks the tool's outputSchema (%s)", where(err))
		}
	}
	if t.shownS == nil {
		return outcome{out: result}
	}
	err = schema.Validate(t.shownS, v)
	// A number the validator cannot hold is not shown to break the schema:
	// the result goes as it came, for the client to judge.
	var ne *schema.NumberError
	if err == nil || !rf.fails || errors.As(err, &ne) {
		return outcome{out: result}
	}
	out, cerr := asToolError(result, sc.value, "the server's structuredContent does not match this tool's outputSchema ("+where(err)+"), so it is given here as text: ")
	if cerr != nil {
		return outcome{out: result}
	}
	s.log.reportf(t.name, "result", client, "a result whose structuredContent breaks the outputSchema was turned into a tool error carrying it as text, since %s", rf.source)
	return outcome{out: out, changed: true}
}

// missingStructured handles a result without structuredContent from a tool
// with an outputSchema.
func (s *session) missingStructured(t *toolEntry, result []byte, ms []member, client string, rf resultFailure) outcome {
	if t.outputS != nil {
		s.log.reportf(t.name, "structured-content", client, "a result has no structuredContent though the tool declares an outputSchema")
	}
	if t.shownS == nil || !rf.fails {
		return outcome{out: result}
	}
	if text, ok := onlyText(result, ms); ok {
		if v, err := jsonschema.UnmarshalJSON(strings.NewReader(text)); err == nil && schema.Validate(t.shownS, v) == nil {
			var compact bytes.Buffer
			if json.Compact(&compact, []byte(text)) == nil {
				if out, err := setMember(result, "structuredContent", compact.Bytes()); err == nil {
					s.log.reportf(t.name, "result", client, "a result without structuredContent got it from its JSON text, which the outputSchema accepts, since %s", rf.source)
					return outcome{out: out, changed: true}
				}
			}
		}
	}
	out, err := setMember(result, "isError", []byte("true"))
	if err != nil {
		return outcome{out: result}
	}
	out, err = appendText(out, "the server returned no structuredContent although this tool declares an outputSchema; its content is above")
	if err != nil {
		return outcome{out: result}
	}
	s.log.reportf(t.name, "result", client, "a result without structuredContent was turned into a tool error, since %s", rf.source)
	return outcome{out: out, changed: true}
}

// onlyText returns the text of a result whose content is one text item.
func onlyText(result []byte, ms []member) (string, bool) {
	c, ok := find(ms, "content")
	if !ok {
		return "", false
	}
	var content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(result[c.value.start:c.value.end], &content) != nil || len(content) != 1 || content[0].Type != "text" {
		return "", false
	}
	return content[0].Text, true
}

// asToolError turns a result into a tool error (isError) without
// structuredContent, whose content says why and carries the structured
// result as JSON text.
func asToolError(result []byte, sc span, note string) ([]byte, error) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, result[sc.start:sc.end]); err != nil {
		return nil, err
	}
	out, err := deleteMember(result, "structuredContent")
	if err != nil {
		return nil, err
	}
	if out, err = setMember(out, "isError", []byte("true")); err != nil {
		return nil, err
	}
	return appendText(out, note+compact.String())
}

// appendText adds a text item to a result's content (creating it when
// missing), signed so the model knows where it comes from.
func appendText(result []byte, text string) ([]byte, error) {
	item, err := json.Marshal(map[string]string{"type": "text", "text": "[mcplint proxy] " + text})
	if err != nil {
		return nil, err
	}
	ms, err := members(result)
	if err != nil {
		return nil, err
	}
	c, ok := find(ms, "content")
	if !ok {
		return setMember(result, "content", append(append([]byte{'['}, item...), ']'))
	}
	list := result[c.value.start:c.value.end]
	items, err := batch(list)
	if err != nil {
		return nil, err
	}
	var add []byte
	if len(items) > 0 {
		add = append([]byte{','}, item...)
	} else {
		add = item
	}
	end := c.value.start + bytes.LastIndexByte(list, ']')
	return splice(result, span{end, end}, add), nil
}

// where names the keywords of the schema a value broke, without the value:
// "/properties/count/type, /required".
func where(err error) string {
	var ve *jsonschema.ValidationError
	var ne *schema.NumberError
	if errors.As(err, &ne) {
		return "it holds a number past what a validator can compare, at " + strconv.Quote(ne.Pointer)
	}
	if !errors.As(err, &ve) {
		return "it does not validate"
	}
	var at []string
	var walk func(e *jsonschema.ValidationError, depth int)
	walk = func(e *jsonschema.ValidationError, depth int) {
		if len(e.Causes) == 0 || depth > 64 {
			if k := keywordAt(e); !slices.Contains(at, k) && len(at) < 5 {
				at = append(at, k)
			}
			return
		}
		for _, c := range e.Causes {
			walk(c, depth+1)
		}
	}
	walk(ve, 0)
	if len(at) == 0 {
		return "it does not validate"
	}
	return "at " + strings.Join(at, ", ")
}
