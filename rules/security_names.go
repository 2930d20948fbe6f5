package rules

import (
	"sort"
	"strings"

	"github.com/mcpfit/mcplint/lint"
)

// wellKnownTools are the tool names of common MCP servers, by server: the
// reference servers of github.com/modelcontextprotocol/servers (their
// tools/list at the versions this repository's security corpus records) and
// the archived reference servers for GitHub, Slack and git. Names that many
// unrelated servers share for their own objects (create_issue, list_issues,
// search_code) are left out: they would be reported on every issue tracker.
var wellKnownTools = map[string][]string{
	"filesystem": {"read_file", "read_text_file", "read_media_file", "read_multiple_files", "write_file", "edit_file",
		"create_directory", "list_directory", "list_directory_with_sizes", "directory_tree", "move_file", "search_files",
		"get_file_info", "list_allowed_directories"},
	"memory": {"create_entities", "create_relations", "add_observations", "delete_entities", "delete_observations",
		"delete_relations", "read_graph", "search_nodes", "open_nodes"},
	"sequential-thinking": {"sequentialthinking"},
	"git": {"git_status", "git_diff_unstaged", "git_diff_staged", "git_diff", "git_commit", "git_add", "git_reset",
		"git_log", "git_create_branch", "git_checkout", "git_show"},
	"github": {"create_or_update_file", "search_repositories", "create_repository", "get_file_contents", "push_files",
		"create_pull_request", "fork_repository", "get_pull_request", "list_pull_requests", "create_pull_request_review",
		"merge_pull_request", "get_pull_request_files", "get_pull_request_status", "update_pull_request_branch"},
	"slack": {"slack_list_channels", "slack_post_message", "slack_reply_to_thread", "slack_add_reaction",
		"slack_get_channel_history", "slack_get_thread_replies", "slack_get_users", "slack_get_user_profile"},
}

// ToolNameShadowing reports names taken from well-known servers.
var ToolNameShadowing = &lint.Rule{
	ID: "tool-name-shadowing", Packs: securityPacks, Severity: lint.Info, Harm: lint.Notes,
	Summary:   "tool names do not shadow well-known tools of other common servers",
	CheckList: checkToolNameShadowing,
	Options:   map[string]any{"servers": wellKnownTools},
	Doc: `Agents load several servers at once. A tool named like a well-known tool of
another server (read_file, create_issue, slack_post_message) competes with
it: the client keeps one of the two, prefixes one, or shows both, and the
model may call the impostor with data meant for the trusted server. A
malicious server picks such a name on purpose.

The option "servers" maps a server's name to its tool names. A list that
holds at least half of one server's tools is taken to be that server (or a
fork or a proxy of it), and its names are not reported; one or two borrowed
names are. An info, not a warning: honest servers of one domain share
common names (a GitLab server has create_or_update_file and push_files,
like GitHub's), so the name alone proves nothing; prefix your tools
(acme_read_file) so that they cannot be confused. The description rules of
this pack catch the attack itself.

Bad (a weather server):

    {"tools": [{"name": "get_forecast", ...}, {"name": "read_file", ...}]}

Good:

    {"tools": [{"name": "get_forecast", ...}, {"name": "weather_read_file", ...}]}

Source: ` + sourceInvariant + ` ("Shadowing"); MCP specification
2025-11-25 and later, server/tools, "Tool Names".`,
}

func checkToolNameShadowing(p *lint.ListPass) {
	servers := p.Option("servers").(map[string][]string)
	owner := map[string][]string{}
	for server, list := range servers {
		have := 0
		for _, n := range list {
			if p.ToolNamed(n) != nil {
				have++
			}
		}
		if 2*have >= len(list) {
			continue
		}
		for _, n := range list {
			owner[n] = append(owner[n], server)
		}
	}
	for _, t := range p.Manifest.Tools {
		if s := owner[t.Name]; len(s) > 0 {
			sort.Strings(s)
			p.Reportf(t, "/name", "tool name %q is the name of a tool of the well-known %s server; with both loaded, the model may call the wrong one: give it a name of your own (a prefix will do)", t.Name, strings.Join(s, ", "))
		}
	}
}
