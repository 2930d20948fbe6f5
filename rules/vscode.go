package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

var vscodeRules = []*lint.Rule{VSCodeToolCount, VSCodeToolName}

// VSCodeToolCount checks the number of tools against the 128 a chat
// request may carry.
var VSCodeToolCount = &lint.Rule{
	ID:       "vscode-tool-count",
	Packs:    []string{"vscode"},
	Subject:  "tool-count",
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.VSCode, Line: "tools", Error: "You may not include more than 128 tools in your request.", Source: "microsoft/vscode-copilot-release#9375"},
	},
	Summary:     "the server offers at most 128 tools, the most a VS Code chat request may carry",
	Fix:         lint.NoFix,
	Options:     map[string]any{"max-tools": toolLimit(consumer.VSCode).Max},
	CheckOption: nonNegative,
	CheckList:   checkVSCodeToolCount,
	Doc: `GitHub Copilot Chat in VS Code sends the enabled tools with every request and
refuses more than 128 of them, counting built-in tools, extension tools and
every MCP server's tools together. Past that every request fails:

    Reason: You may not include more than 128 tools in your request.
    Cannot have more than 128 tools per request.

A server that alone offers more than 128 tools cannot be used with all its
tools enabled; the user has to pick tools by hand (newer versions group
tools into "virtual tools" behind a setting, which postpones the limit).

Option "max-tools" (default 128) is the limit; lower it to leave room for the
built-in tools and other servers.

There is no fix: split the server, or let users enable groups of tools.

Source: microsoft/vscode-copilot-release#9375 and #11653 (the errors, and the
check in Copilot Chat's code); microsoft/vscode#337428 (VS Code 1.138,
2026).`,
}

func checkVSCodeToolCount(p *lint.ListPass) {
	checkToolCount(p, p.Option("max-tools").(int), "a VS Code chat request carries at most %d tools from all sources together (option max-tools) and fails with more; this server alone offers %d: offer fewer tools or let users enable groups of them")
}

// vscodeName is VS Code's rule for tool names (its profile's Name line).
var vscodeName = consumer.ProfileOf(consumer.VSCode).NameLine()

func vscodeNameChar(r rune) bool { return vscodeName.NameChar(r) }

// VSCodeToolName reports tool names VS Code rewrites.
var VSCodeToolName = &lint.Rule{
	ID:       "vscode-tool-name",
	Packs:    []string{"vscode"},
	Subject:  "tool-name",
	Severity: lint.Info,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.VSCode, Mangles: true, Line: "name", Source: "microsoft/vscode#308463"},
	},
	Summary:   "tool names use only A-Z a-z 0-9 _ -, which VS Code keeps as they are",
	Fix:       lint.NoFix,
	CheckList: checkVSCodeToolName,
	Doc: `VS Code accepts only letters, digits, "_" and "-" in an MCP tool name. It
logs a warning and replaces every other character by "_" before the model
sees the tool:

    [warning] Tool "auth.who-am-i" is invalid. Tools names may only contain [a-z0-9_-]

The tool keeps working under the new name, so this is reported as
information. It is a warning when the rewritten name is the name of another
tool of the server ("a.b" and "a_b"): the model then sees two tools with
one name.

There is no fix: dots are valid MCP tool names, and renaming a tool breaks
its callers. Rename it in the server if you want VS Code to show the name
you chose.

Bad:

    {"name": "catalog.get-entity", ...}

Good:

    {"name": "catalog_get-entity", ...}

Source: VS Code's MCP server support (toolInvalidCharRe, /[^a-z0-9_-]/gi,
replaced by "_"), whose warning is quoted in microsoft/vscode#308463.`,
}

func checkVSCodeToolName(p *lint.ListPass) {
	rewrittenTo := map[string]*manifest.Tool{}
	for _, t := range p.Manifest.Tools {
		to, refused, _ := refusedChars(t.Name, vscodeNameChar)
		if !refused {
			continue
		}
		o := p.ToolNamed(to)
		ok := o != nil
		if !ok {
			// Two names may be rewritten alike ("a.b" and "a/b").
			o, ok = rewrittenTo[to]
			rewrittenTo[to] = t
		}
		other := -1 // the tool the model sees under the same name
		if ok {
			other = o.Index
		}
		// The finding is made when the tool's turn comes (ReportFunc), its
		// message only if kept: the OpenAI rule's finding usually is.
		p.ReportFunc(t, func() lint.Diagnostic {
			d := lint.Diagnostic{RelPointer: "/name", Complete: func() (string, *lint.Fix) { return vscodeNameMessage(t.Name, other), nil }}
			if other >= 0 {
				d.Severity = lint.Warning
			}
			return d
		})
	}
}

// vscodeNameMessage is the message of the finding about a tool name VS
// Code rewrites; other is the index of the tool the model then sees under
// the same name, or -1.
func vscodeNameMessage(name string, other int) string {
	to, bad, _ := replaceOutside(name, vscodeNameChar)
	// Concatenated rather than formatted: one finding per tool.
	msg := "tool name " + strconv.Quote(name) + " contains " + strings.Join(bad, ", ") + ", which VS Code replaces: the model sees the tool as " + strconv.Quote(to) + "; use only A-Z a-z 0-9 _ - to keep the name you chose"
	if other >= 0 {
		return fmt.Sprintf("%s; tool %d also reaches the model as %q, so it sees two tools with one name", msg, other, to)
	}
	return msg
}
