package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/clients"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/redact"
	"github.com/mcpfit/mcplint/report"
)

// discoverTargets finds the client configurations of this user and project
// (package clients). The servers are returned named "Client (scope): name".
func (e *env) discoverTargets(cmd *cli.Command) ([]live.ConfiguredServer, []clients.Config, error) {
	if cmd.Args().Len() > 0 || cmd.String("url") != "" || cmd.String("client-config") != "" {
		return nil, nil, usagef("--discover finds the servers to check, and a command, --url or --client-config was given too; give one of them")
	}
	home := e.home()
	if home == "" {
		return nil, nil, usagef("--discover: cannot find the home folder (HOME is not set); set HOME")
	}
	project, err := os.Getwd()
	if err != nil {
		project = ""
	}
	configs := clients.Discover(clients.Places{Home: home, Project: project, OS: runtime.GOOS, Getenv: e.lookupEnv})
	var servers []live.ConfiguredServer
	e.discovered = map[string]clients.Config{}
	for _, c := range configs {
		for _, s := range c.Servers {
			// Masked in everything printed: the list, the reports.
			e.addSecrets(s.Target)
			s.Name = c.Label() + ": " + s.Name
			servers = append(servers, s)
			e.discovered[s.Name] = c
		}
	}
	return servers, configs, nil
}

// home is the user's home folder, from the environment.
func (e *env) home() string {
	home := e.getenv("HOME")
	if home == "" && runtime.GOOS == "windows" {
		home = e.getenv("USERPROFILE")
	}
	return home
}

// discover runs --discover: without --yes it lists what it found and
// stops (exit 0 with --dry-run, a usage error otherwise); with --yes it
// returns the servers to check, a configuration that cannot be read being
// one that fails.
func (e *env) discover(cmd *cli.Command, fmtName string) ([]live.ConfiguredServer, error) {
	servers, configs, err := e.discoverTargets(cmd)
	if err != nil {
		return nil, err
	}
	var unreadable []error
	for _, c := range configs {
		if c.Err != nil {
			unreadable = append(unreadable, c.Err)
			servers = append(servers, live.ConfiguredServer{Name: c.Label(), Err: c.Err})
		}
	}
	if cmd.Bool("yes") && !cmd.Bool("dry-run") {
		if len(servers) == 0 {
			return nil, &inputErrors{errs: []error{fmt.Errorf("--discover found no MCP client configuration (see mcplint check --help for where it looks)")}}
		}
		return servers, nil
	}
	if err := e.listServers(configs, fmtName, e.home()); err != nil {
		return nil, err
	}
	if !cmd.Bool("dry-run") {
		return nil, usagef("--discover starts the servers it lists, programs named in other people's configuration files: review the list, then run again with --yes to check them (--dry-run only lists)")
	}
	if len(unreadable) > 0 {
		return nil, &inputErrors{errs: unreadable}
	}
	return nil, errListed
}

// listServers prints what a check would start or reach: each
// configuration and its servers, with the command or URL. It is the review
// before --yes, of files a cloned repository may have written: every part
// is shown through guard.Text (the command's words quoted for a shell), so
// no carriage return or escape sequence can show one command in the place
// of another.
func (e *env) listServers(configs []clients.Config, fmtName, home string) error {
	if fmtName == "json" {
		doc := discoveryJSON{Version: report.JSONVersion, Configurations: []configurationJSON{}}
		for _, c := range configs {
			cj := configurationJSON{Client: c.Client, Scope: c.Scope, Path: c.Path, Servers: []listedServerJSON{}}
			if c.Err != nil {
				cj.Error = c.Err.Error()
			}
			for _, s := range c.Servers {
				sj := listedServerJSON{Name: s.Name, Transport: transportOf(s.Target), Command: s.Target.Command, URL: shownURL(s.Target.URL)}
				if s.Err != nil {
					sj.Error = s.Err.Error()
				}
				cj.Servers = append(cj.Servers, sj)
			}
			doc.Configurations = append(doc.Configurations, cj)
		}
		return writeIndentedJSON(e.stdout, doc)
	}
	servers := 0
	for _, c := range configs {
		fmt.Fprintf(e.stdout, "%s: %s\n", guard.Text(c.Label()), guard.Text(tilde(c.Path, home)))
		if c.Err != nil {
			fmt.Fprintf(e.stdout, "  error: %s\n", guard.Text(tilde(c.Err.Error(), home)))
		}
		width := 0
		for _, s := range c.Servers {
			width = max(width, len(guard.Text(s.Name)))
		}
		for _, s := range c.Servers {
			servers++
			fmt.Fprintf(e.stdout, "  %-*s  %s\n", width, guard.Text(s.Name), serverUse(s))
		}
	}
	fmt.Fprintf(e.stdout, "%d configuration%s, %d server%s\n", len(configs), english.Plural(len(configs), "", "s"), servers, english.Plural(servers, "", "s"))
	return nil
}

// serverUse is how a server would be reached, on one line. Environment
// values and headers are not shown: they hold credentials.
func serverUse(s live.ConfiguredServer) string {
	if s.Err != nil {
		return "error: " + guard.Text(s.Err.Error())
	}
	t := s.Target
	if len(t.Command) > 0 {
		words := make([]string, len(t.Command))
		for i, w := range t.Command {
			words[i] = shellWord(w)
		}
		return "stdio  " + strings.Join(words, " ")
	}
	return guard.Text(transportOf(t)) + "  " + guard.Text(shownURL(t.URL))
}

// transportOf names the transport a target uses; "http" for a URL that
// may fall back to SSE.
func transportOf(t live.Target) string {
	switch {
	case t.Transport != "":
		return t.Transport
	case len(t.Command) > 0:
		return "stdio"
	}
	return "http"
}

// shownURL is a URL as it may be printed (redact.URL): user information
// and query values (API keys travel there) masked.
func shownURL(raw string) string {
	if raw == "" {
		return ""
	}
	return redact.URL(raw)
}

// shellWord quotes a word that a POSIX shell would split or expand, so
// that the line can be read as a command line. A word holding a character
// guard.Text escapes is written in ANSI-C quoting ($'...', which bash, zsh
// and ksh read), whose escapes are guard.Text's: the line stays a faithful
// command line, and shows every character.
func shellWord(w string) string {
	if guard.Text(w) != w {
		return "$'" + ansiC(w) + "'"
	}
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// ansiC is the body of w in ANSI-C quoting: guard.Text's escapes for what
// it escapes, the backslash and the quote escaped, the rest as it is.
func ansiC(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); {
		r, size := utf8.DecodeRuneInString(w[i:])
		switch {
		case r == utf8.RuneError && size <= 1, guard.Unsafe(r):
			b.WriteString(guard.Text(w[i : i+size]))
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\'':
			b.WriteString(`\'`)
		default:
			b.WriteString(w[i : i+size])
		}
		i += size
	}
	return b.String()
}

func tilde(s, home string) string {
	if home == "" {
		return s
	}
	return strings.ReplaceAll(s, home+string(filepath.Separator), "~"+string(filepath.Separator))
}

// discoveryJSON is --dry-run's JSON report.
type discoveryJSON struct {
	Version        int                 `json:"version"`
	Configurations []configurationJSON `json:"configurations"`
}

type configurationJSON struct {
	Client  string             `json:"client"`
	Scope   string             `json:"scope"`
	Path    string             `json:"path"`
	Servers []listedServerJSON `json:"servers"`
	// Error is why the file could not be read, "" when it was.
	Error string `json:"error"`
}

type listedServerJSON struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"`
	Command   []string `json:"command,omitempty"`
	URL       string   `json:"url,omitempty"`
	Error     string   `json:"error"`
}
