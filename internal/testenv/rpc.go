package testenv

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
)

// RPCRequest is a JSON-RPC request as the tests' own MCP servers read it.
type RPCRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// RPCOverHTTP is a Streamable HTTP endpoint for a test's server: it refuses
// what is not a POST (405), takes a message without an id (a notification)
// with 202, and hands each request to answer, which writes the response.
func RPCOverHTTP(answer func(w http.ResponseWriter, req RPCRequest)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req RPCRequest
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		answer(w, req)
	})
}

// RPCLines reads the newline-delimited messages of a stdio server's input
// (lines up to 1 MiB) and hands each request to answer; notifications and
// lines that are not JSON are passed over.
func RPCLines(r io.Reader, answer func(req RPCRequest)) {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var req RPCRequest
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		answer(req)
	}
}
