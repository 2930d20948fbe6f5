// Command gen writes rules.md, the rules reference page, from the rule
// catalogue; `go generate ./docs` runs it in the docs directory.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/mcplint/mcplint/report"
	"github.com/mcplint/mcplint/rules"
)

func main() {
	var buf bytes.Buffer
	if err := report.WriteRulesMarkdown(&buf, rules.All); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile("rules.md", buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
