// Command gen writes rules.md, the rules reference page, and consumers.md,
// the consumer matrix, from the rule catalogue; `go generate ./docs` runs it
// in the docs directory.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/report"
	"github.com/mcpfit/mcplint/rules"
)

func main() {
	for _, page := range []struct {
		name  string
		write func(io.Writer, []*lint.Rule) error
	}{{"rules.md", report.WriteRulesMarkdown}, {"consumers.md", report.WriteConsumersMarkdown}} {
		var buf bytes.Buffer
		if err := page.write(&buf, rules.All); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(page.name, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
