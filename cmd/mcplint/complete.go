package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/breaking"
	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/proxy"
)

// Shell completion is urfave/cli's: a script calls mcplint with the words
// before the cursor and --generate-shell-completion, and the command's
// ShellComplete prints the candidates, one "TOKEN:DESCRIPTION" a line.
// mcplint's ShellComplete completes flag values (--format, --to, --select
// and the other lists of names) and rule IDs as well as flags and
// commands, and its scripts (completion_scripts.go) need nothing but the
// shell. The scripts also set completionWordVar to "w:" and the word under
// the cursor: the library's protocol passes that word only when it starts
// with "-", so without it "--format" could be either a flag being typed or
// one whose value is wanted. Printing nothing lets the shell complete file
// names.

// completionWordVar names the environment variable the scripts set.
const completionWordVar = "MCPLINT_COMPLETION_WORD"

// completion sets e.complete as the ShellComplete of c and its commands.
func (e *env) completion(c *cli.Command) {
	c.ShellComplete = e.complete
	for _, sub := range c.Commands {
		e.completion(sub)
	}
}

func (e *env) complete(_ context.Context, cmd *cli.Command) {
	w := cmd.Root().Writer
	args := cmd.Args().Slice()
	last := ""
	if len(args) > 0 {
		last = args[len(args)-1]
	}
	word, scripted := strings.CutPrefix(e.getenv(completionWordVar), "w:")
	prev := last // the word before the one under the cursor
	switch {
	case !scripted && strings.HasPrefix(last, "-"):
		word = last
		prev = ""
	case scripted && strings.HasPrefix(word, "-"):
		prev = ""
		if len(args) > 1 {
			prev = args[len(args)-2]
		}
	}
	if name, part, ok := strings.Cut(strings.TrimLeft(word, "-"), "="); ok && strings.HasPrefix(word, "-") {
		// --flag=VALUE: the value, after the last comma of a list.
		if f := findFlag(cmd, name); f != nil {
			done := part[:strings.LastIndex(part, ",")+1]
			for _, v := range e.flagValues(cmd, f) {
				fmt.Fprintf(w, "%s=%s%s\n", word[:strings.Index(word, "=")], done, v)
			}
		}
		return
	}
	if strings.HasPrefix(word, "-") {
		printFlags(w, cmd, word)
		return
	}
	if strings.HasPrefix(prev, "-") {
		if f := findFlag(cmd, strings.TrimLeft(prev, "-")); f != nil && !isBool(f) {
			for _, v := range e.flagValues(cmd, f) {
				fmt.Fprintln(w, v)
			}
			return
		}
	}
	for _, c := range cmd.VisibleCommands() {
		if c.Name != "help" {
			fmt.Fprintf(w, "%s:%s\n", c.Name, describe(c.Usage))
		}
	}
	for _, v := range e.argValues(cmd) {
		fmt.Fprintln(w, v)
	}
}

// printFlags prints the flags of cmd that start with prefix.
func printFlags(w io.Writer, cmd *cli.Command, prefix string) {
	for _, f := range cmd.VisibleFlags() {
		_, usage := flagParts(f)
		for _, n := range f.Names() {
			if d := dashed(n); strings.HasPrefix(d, prefix) && (len(n) > 1 || prefix == d) {
				fmt.Fprintf(w, "%s:%s\n", d, describe(usage))
			}
		}
	}
}

func isBool(f cli.Flag) bool {
	_, ok := f.(*cli.BoolFlag)
	return ok
}

// describe is a one-line description of at most 60 characters.
func describe(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > 60 {
		s = string([]rune(s)[:59]) + "…"
	}
	return s
}

// flagValues are the values a flag of cmd takes, with descriptions where
// they help; none for a flag that takes a file or free text.
func (e *env) flagValues(cmd *cli.Command, f cli.Flag) []string {
	switch name := f.Names()[0]; name {
	case "format":
		if cmd.Name == "rules" {
			return []string{"text", "json"}
		}
		return reportFormats
	case "to":
		return convert.Targets
	case "fail-on":
		if cmd.Name == "convert" {
			return []string{"warning", "never"}
		}
		return []string{"error", "warning", "info", "never"}
	case "color":
		return []string{"auto", "always", "never"}
	case "protocol":
		return lint.Protocols
	case "transport":
		return live.Transports
	case "api":
		return []string{"chat", "responses"}
	case "zod":
		return []string{"3", "4"}
	case "for":
		return append(slices.Clone(convert.Clients), proxy.Auto)
	case "select", "extend-select", "ignore":
		rules := e.catalogue
		if cmd.Name == "breaking" {
			rules = breaking.Rules
		}
		return ruleNames(rules, name == "select")
	case "option":
		var out []string
		for _, r := range e.catalogue {
			for _, o := range slices.Sorted(maps.Keys(r.Options)) {
				out = append(out, r.ID+"."+o+"=")
			}
		}
		return out
	}
	return nil
}

// argValues are the arguments cmd takes that can be listed: the rules,
// packs and consumers `mcplint rules` explains.
func (e *env) argValues(cmd *cli.Command) []string {
	if cmd.Name != "rules" || cmd.Root() == cmd {
		return nil
	}
	out := ruleNames(e.catalogue, false)
	seen := map[consumer.ID]bool{}
	for _, c := range consumer.All {
		if !seen[c.ID] {
			seen[c.ID] = true
			out = append(out, string(c.ID)+":"+describe(c.Name))
		}
	}
	return out
}

// ruleNames lists the rule IDs (with their summaries) and the packs, and
// "all" for a selection.
func ruleNames(rules []*lint.Rule, all bool) []string {
	var out []string
	if all {
		out = append(out, "all:every rule")
	}
	for _, p := range lint.Packs(rules) {
		out = append(out, p+":pack")
	}
	for _, r := range rules {
		out = append(out, r.ID+":"+describe(r.Summary))
	}
	return slices.Compact(out)
}
