package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
)

// check --discover --yes --wrap prints, after the report, for each server
// a client refuses, the entry of that client's configuration that runs
// the server through mcplint proxy adapted for it.

// wrapClient is what --wrap knows of a client: the consumers whose
// refusals its users meet, the proxy's --for for it, and how its
// configuration writes a server entry.
type wrapClient struct {
	consumers []consumer.ID
	forClient string
	// format is "mcpServers" (a JSON map of command and args), "vscode"
	// (the same with "type": "stdio") or "toml" (Codex).
	format string
}

// wrapClients are keyed by clients.Location.Client.
var wrapClients = map[string]wrapClient{
	"Claude Desktop":   {[]consumer.ID{consumer.MCPSpec, consumer.TSSDK, consumer.Anthropic, consumer.ClaudeAI}, "claude", "mcpServers"},
	"Claude Code":      {[]consumer.ID{consumer.MCPSpec, consumer.TSSDK, consumer.Anthropic, consumer.ClaudeCode}, "claude", "mcpServers"},
	"Cursor":           {[]consumer.ID{consumer.MCPSpec, consumer.TSSDK, consumer.Cursor}, "cursor", "mcpServers"},
	"Gemini CLI":       {[]consumer.ID{consumer.MCPSpec, consumer.TSSDK, consumer.GeminiJSONSchema}, "gemini", "mcpServers"},
	"VS Code":          {[]consumer.ID{consumer.MCPSpec, consumer.VSCode}, "vscode", "vscode"},
	"VS Code Insiders": {[]consumer.ID{consumer.MCPSpec, consumer.VSCode}, "vscode", "vscode"},
	"Codex":            {[]consumer.ID{consumer.MCPSpec, consumer.OpenAIResponses}, "openai", "toml"},
}

// wrapUsage checks that --wrap is used where it can say something: with
// --discover --yes (which knows the client of each server), and with the
// report on standard output in text, which the entries follow.
func wrapUsage(cmd *cli.Command, outs []reportOutput) error {
	if !cmd.Bool("discover") || !cmd.Bool("yes") {
		return usagef("--wrap goes with --discover --yes: it names the client each server is configured in")
	}
	for _, o := range outs {
		if o.path == "" && o.format != "text" {
			return usagef("--wrap prints text after the report: write the %s report to a file (--format %s=FILE)", o.format, o.format)
		}
	}
	return nil
}

// writeWraps prints the wrapping entries for the servers of results that
// their client refuses: a finding at warning or above naming one of the
// client's consumers.
func (e *env) writeWraps(w io.Writer, results []checked) {
	// The configurations --discover read (e.discovered), not a second
	// reading of them: the entries are those of the servers checked.
	home := e.home()
	wrote := 0
	for _, r := range results {
		c, ok := e.discovered[r.name]
		if !ok || r.err != nil {
			continue
		}
		wc, ok := wrapClients[c.Client]
		if !ok {
			continue
		}
		i := slices.IndexFunc(c.Servers, func(s live.ConfiguredServer) bool { return c.Label()+": "+s.Name == r.name })
		if i < 0 {
			continue
		}
		refused := refusedBy(r.diags, consumer.Reached(wc.consumers...))
		if refused == 0 {
			continue
		}
		if wrote == 0 {
			fmt.Fprintln(w)
		}
		wrote++
		fmt.Fprintf(w, "%s: %d finding%s the client refuses; run it through mcplint proxy in %s:\n", r.name, refused, plural(refused), tilde(c.Path, home))
		for _, line := range strings.Split(wrapEntry(c.Servers[i], wc), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	if wrote == 0 {
		fmt.Fprintln(w, "\nno server is refused by the client it is configured in: nothing to wrap")
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// refusedBy counts the findings at warning or above that one of ids
// refuses (not only mangles).
func refusedBy(diags []lint.Diagnostic, ids []consumer.ID) int {
	n := 0
	for _, d := range diags {
		if d.Severity < lint.Warning {
			continue
		}
		if slices.ContainsFunc(d.Consumers, func(r consumer.Refusal) bool { return !r.Mangles && slices.Contains(ids, r.Consumer) }) {
			n++
		}
	}
	return n
}

// wrapEntry writes a server's entry running it through the proxy, in the
// client's configuration format. Environment and header values are never
// written: the entry keeps the server's "env" as it is, and header values
// are masked, to copy from the original entry.
func wrapEntry(s live.ConfiguredServer, wc wrapClient) string {
	args := []string{"proxy", "--for", wc.forClient}
	t := s.Target
	if len(t.Command) > 0 {
		if t.Dir != "" {
			args = append(args, "--cwd", t.Dir)
		}
		args = append(append(args, "--"), t.Command...)
	} else {
		args = append(args, "--url", shownURL(t.URL))
		for _, k := range sortedHeaderNames(t) {
			args = append(args, "--header", k+": ***")
		}
	}
	note := ""
	if len(t.Env) > 0 {
		note = " (keep its env)"
	}
	if wc.format == "toml" {
		q := make([]string, len(args))
		for i, a := range args {
			q[i] = tomlString(a)
		}
		return fmt.Sprintf("[mcp_servers.%s]%s\ncommand = \"mcplint\"\nargs = [%s]", tomlKey(s.Name), strings.ReplaceAll(note, " (", " # ("), strings.Join(q, ", "))
	}
	typ := ""
	if wc.format == "vscode" {
		typ = `"type": "stdio", `
	}
	return jsonText(s.Name) + ": {" + typ + `"command": "mcplint", "args": ` + jsonText(args) + "}" + note
}

// jsonText writes v as JSON on one line, with a space after each comma
// of a list, as people write configurations.
func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	out := strings.TrimSuffix(b.String(), "\n")
	if list, ok := v.([]string); ok {
		parts := make([]string, len(list))
		for i, s := range list {
			parts[i] = jsonText(s)
		}
		out = "[" + strings.Join(parts, ", ") + "]"
	}
	return out
}

func sortedHeaderNames(t live.Target) []string {
	var names []string
	for k := range t.Header {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// tomlString quotes a TOML basic string.
func tomlString(s string) string {
	b, _ := json.Marshal(s) // JSON's escapes are TOML's for a basic string
	return string(b)
}

// tomlKey writes a bare key when it can, a quoted one otherwise.
func tomlKey(k string) string {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return tomlString(k)
		}
	}
	return k
}
