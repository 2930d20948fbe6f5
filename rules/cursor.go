package rules

import (
	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
)

var cursorRules = []*lint.Rule{CursorNameLength, CursorToolCount}

// cursorCombinedMax is where Cursor starts dropping tools: it filters out a
// tool when server name plus tool name reach 60 characters.
const cursorCombinedMax = 60

// CursorNameLength checks the combined server and tool name Cursor limits.
var CursorNameLength = &lint.Rule{
	ID:       "cursor-name-length",
	Packs:    []string{"cursor"},
	Subject:  "tool-name",
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.Cursor, Mangles: true, Line: "combined-name", Source: "ComposioHQ/composio#2788"},
	},
	Summary: "server name plus tool name stays under Cursor's 60 characters",
	Fix:     lint.NoFix,
	Options: map[string]any{"server-name": ""},
	Check:   checkCursorNameLength,
	Doc: `Cursor filters out a tool when the name the user gave the server and the
tool's name together are too long, and says so in its MCP settings:

    Some tools have naming issues and may be filtered out
    g: GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER - Combined server and tool name length (60) exceeds 60 characters

The model never sees such a tool. As that report shows, a combined length of
60 is already filtered, so server name plus tool name must stay at 59
characters or fewer.

Option "server-name" is the server name to count with. Without it the rule
assumes the shortest, a single character, and reports only tool names that
cannot fit under any server name (59 characters or more).

There is no fix: renaming a tool breaks its callers.

Bad (server "aashari/mcp-server-atlassian-confluence"):

    confluence_list_spaces

Good (server "confluence"):

    list_spaces

Source: Cursor's warning, quoted in ComposioHQ/composio#2788 (length 60
reported as exceeding 60), idosal/git-mcp#31 and
aashari/mcp-server-atlassian-confluence#16.`,
}

func checkCursorNameLength(p *lint.Pass) {
	name := p.Tool.Name
	if name == "" {
		return
	}
	server, _ := p.Option("server-name").(string)
	n := len([]rune(name))
	if server == "" {
		if 1+n >= cursorCombinedMax {
			p.Reportf("/name", "tool name is %d characters long; Cursor filters out a tool whose server and tool names together reach %d, which this one does under any server name: shorten it to at most %d", n, cursorCombinedMax, cursorCombinedMax-2)
		}
		return
	}
	s := len([]rune(server))
	if s+n >= cursorCombinedMax {
		p.Reportf("/name", "server name %q and tool name %q together are %d characters; Cursor filters out the tool at %d or more: shorten the tool name to at most %d characters (or the server name)", server, name, s+n, cursorCombinedMax, max(cursorCombinedMax-1-s, 0))
	}
}

// CursorToolCount checks the number of tools against Cursor's limit.
var CursorToolCount = &lint.Rule{
	ID:       "cursor-tool-count",
	Packs:    []string{"cursor"},
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.Cursor, Mangles: true, Line: "tools", Source: "Cursor documentation, \"Model Context Protocol\", \"Tool quantity\""},
	},
	Summary:     "the server offers no more tools than Cursor takes from all servers together",
	Fix:         lint.NoFix,
	Options:     map[string]any{"max-tools": toolLimit(consumer.Cursor).Max},
	CheckOption: nonNegative,
	CheckList:   checkCursorToolCount,
	Doc: `Cursor caps the number of MCP tools it gives the agent, counted over all
enabled servers together. Its documentation first said "Cursor will only send
the first 40 tools to the Agent"; later versions raised the cap to 80 and warn
when the enabled tools exceed it. A server that alone offers more tools than
the cap leaves some of them unused, and every other server's tools with them.

Option "max-tools" (default 80) is the cap; set it to 40 for older versions,
or lower to leave room for other servers.

There is no fix: split the server, or let users enable groups of tools.

Source: Cursor documentation, "Model Context Protocol", "Tool quantity" (the
40-tool cap, quoted in bun913/mcp-testrail#6 and anyproto/anytype-mcp#5);
Snowflake-Labs/mcp#77 (the cap raised to 80, with Cursor's warning).`,
}

func checkCursorToolCount(p *lint.ListPass) {
	checkToolCount(p, p.Option("max-tools").(int), "Cursor gives the agent at most %d tools from all servers together (option max-tools); this server alone offers %d, so some are never seen: offer fewer tools or let users enable groups of them")
}

// toolLimit is the "tools" Limit line of consumer id's profile, which the
// tool-count rules take their default max-tools from: the profile, which
// the matrix and README print, is the one place the number is written.
func toolLimit(id consumer.ID) *consumer.Line {
	return consumer.ProfileOf(id).LimitOf("tools")
}

// checkToolCount reports, at the first tool over the limit, a list longer
// than max tools; format takes the limit and the count.
func checkToolCount(p *lint.ListPass, max int, format string) {
	tools := p.Manifest.Tools
	if max <= 0 || len(tools) <= max {
		return
	}
	p.Reportf(tools[max], "", format, max, len(tools))
}
