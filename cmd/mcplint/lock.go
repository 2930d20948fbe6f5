package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pin"
	"github.com/mcpfit/mcplint/report"
)

const lockDescription = `Lists the servers named as for ` + "`mcplint check`" + ` (a command after --, --url,
--client-config, --discover --yes, or with none of them the servers of
.mcplint.yaml) and writes, for each, the digest of every
tool, prompt, resource and resource template it publishes, and of its
instructions, to the lock file (mcplint.lock, or --lockfile FILE).
` + "`mcplint check --locked`" + ` then fails (exit status 1) when a server publishes
anything else, and says what changed: for tools, as ` + "`mcplint breaking`" + ` classifies
it; for the rest, added, removed or changed. Commit the lock file with the
project, so that a server that rewrites its tools after review (a "rug
pull") fails CI.

  mcplint lock -- npx -y @modelcontextprotocol/server-everything
  mcplint check --locked -- npx -y @modelcontextprotocol/server-everything
  mcplint lock --client-config .mcp.json

An existing lock file keeps the servers not listed now; the ones listed
replace their entries. Nothing is written when a server cannot be listed
(exit status 3). Digests are SHA-256 of the RFC 8785 canonical form of each
definition as the server sent it (with the run's secrets masked), so they
do not depend on mcplint's version. A lock file is read only when each
tool's digest is that of the definition stored beside it, and up to
--max-lock-size; docs/check.md ("Pinning") documents the format.`

func (e *env) lockCommand() *cli.Command {
	return &cli.Command{
		Name:         "lock",
		Usage:        "pin what MCP servers publish in mcplint.lock, for check --locked",
		ArgsUsage:    "[-- COMMAND [ARGS...]]",
		Description:  lockDescription,
		OnUsageError: onUsageError,
		Flags:        append(append(append(serverTargetFlags("lock"), lockfileFlag(), maxLockSizeFlag()), serverLimitFlags()...), projectFlags()...),
		Action:       e.lock,
	}
}

func lockfileFlag() cli.Flag {
	return &cli.StringFlag{Name: "lockfile", Value: pin.FileName, Usage: "the lock `FILE` that lock writes and check --locked reads"}
}

// maxLockSizeFlag bounds the lock file read and written (pin.Read).
func maxLockSizeFlag() cli.Flag {
	return &cli.GenericFlag{Name: "max-lock-size", Value: &byteSize{pin.DefaultMaxSize}, Usage: "refuse a lock file larger than `SIZE`, read or written"}
}

func (e *env) lock(ctx context.Context, cmd *cli.Command) error {
	path := cmd.String("lockfile")
	if err := generatedPath("--lockfile", path); err != nil {
		return err
	}
	f := pin.New()
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		if f, err = readLock(cmd, path); err != nil {
			return err
		}
	}
	project, err := e.projectConfig(cmd)
	if err != nil {
		return err
	}
	ctx, stop := stoppable(ctx)
	defer stop()
	// Nothing is linted: a lock pins what is published, good or bad.
	results, single, err := e.runServers(ctx, cmd, "text", "", "", project, func(*live.Listing) (*lint.Linter, error) {
		return lint.New(nil, lint.Config{})
	})
	if err != nil || results == nil {
		return err
	}
	var failed []string
	for _, r := range results {
		if r.err != nil {
			failed = append(failed, guard.Text(r.name)+": "+failureLines(r.err))
			continue
		}
		s, err := pin.Masked(r.listing.Manifest, e.secrets.JSON)
		if err != nil {
			failed = append(failed, guard.Text(r.name+": "+err.Error()))
			continue
		}
		key := string(e.secrets.Bytes([]byte(lockKey(r, single))))
		f.Servers[key] = s
		fmt.Fprintf(e.stdout, "locked %s: %s%s\n", guard.Text(key), report.Counts(r.listing.Manifest), map[bool]string{true: ", instructions", false: ""}[s.Instructions != ""])
	}
	if len(failed) > 0 {
		return &serverFailures{msgs: append(failed, "nothing was written to "+path)}
	}
	b, err := f.Marshal()
	if err != nil {
		return err
	}
	b = e.secrets.JSON(b)
	if max := sizeOf(cmd, "max-lock-size"); int64(len(b)) > max {
		return &inputErrors{errs: []error{fmt.Errorf("%s: the lock would be %s, larger than the limit of %s for a lock file (raise the limit with --max-lock-size); nothing was written", path, manifest.SizeText(int64(len(b))), manifest.SizeText(max))}}
	}
	if err := e.writeFile(ctx, path, b); err != nil {
		return &inputErrors{errs: []error{fmt.Errorf("--lockfile: %w", err)}}
	}
	fmt.Fprintf(e.stdout, "wrote %s (%d server%s)\n", guard.Text(path), len(f.Servers), english.Plural(len(f.Servers), "", "s"))
	return nil
}

// lockKey names a server in the lock file: as its check reports it, the
// server's own name for a server named on the command line, the
// configuration's name for one of --client-config, .mcplint.yaml or
// --discover.
func lockKey(r checked, single bool) string {
	if single && r.listing != nil && r.listing.Server.Name != "" {
		return r.listing.Server.Name
	}
	return r.name
}

// readLock reads and verifies a lock file (pin.Read), bounded by
// --max-lock-size; a missing, oversized or bad one is an input error.
func readLock(cmd *cli.Command, path string) (*pin.File, error) {
	max := sizeOf(cmd, "max-lock-size")
	if max <= 0 {
		return nil, usagef("--max-lock-size must be positive")
	}
	f, err := pin.Read(path, max)
	var tl *pin.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &inputErrors{errs: []error{fmt.Errorf("%s: no lock file (write one with mcplint lock)", path)}}
	case errors.As(err, &tl):
		return nil, &inputErrors{errs: []error{fmt.Errorf("%w (raise the limit with --max-lock-size)", err)}}
	case err != nil:
		return nil, &inputErrors{errs: []error{err}}
	}
	return f, nil
}

// compareLock records how what r listed differs from its entry in f;
// mask is the run's redaction, which the lock's digests were taken after.
func (r *checked) compareLock(f *pin.File, path string, single bool, mask func([]byte) []byte) error {
	r.lock = path
	if r.err != nil {
		return nil
	}
	key := string(mask([]byte(lockKey(*r, single))))
	now, err := pin.Masked(r.listing.Manifest, mask)
	if err != nil {
		return &inputErrors{errs: []error{err}}
	}
	locked, ok := f.Servers[key]
	if !ok {
		r.changes = []pin.Change{{Kind: "server", Key: key, What: "added", Message: fmt.Sprintf("server %q is not in %s; lock it with mcplint lock", key, path)}}
		return nil
	}
	r.changes, err = pin.Compare(locked, now, r.listing.Manifest)
	if err != nil {
		return &inputErrors{errs: []error{fmt.Errorf("%s: server %q: %v", path, key, err)}}
	}
	return nil
}

// writeChanges prints the lock section of a server's text report.
func writeChanges(w io.Writer, r checked) {
	if r.lock == "" || r.err != nil {
		return
	}
	if len(r.changes) == 0 {
		fmt.Fprintf(w, "%s: no change since it was locked\n", guard.Text(r.lock))
		return
	}
	fmt.Fprintf(w, "%s: %d change%s since it was locked:\n", guard.Text(r.lock), len(r.changes), english.Plural(len(r.changes), "", "s"))
	for _, c := range r.changes {
		class := c.What
		if c.Rule != "" {
			class = c.Rule + ", " + c.Severity.String()
		}
		fmt.Fprintf(w, "  %s (%s): %s\n", guard.Text(changeSubject(c)), guard.Text(class), guard.Text(c.Message))
	}
}

func changeSubject(c pin.Change) string {
	if c.Key == "" {
		return c.Kind
	}
	return c.Kind + " " + fmt.Sprintf("%q", c.Key)
}

// lockJSON is the lock section of a server's JSON report.
type lockJSON struct {
	File    string       `json:"file"`
	Changes []pin.Change `json:"changes"`
}

func lockOf(r checked) *lockJSON {
	if r.lock == "" || r.err != nil {
		return nil
	}
	changes := r.changes
	if changes == nil {
		changes = []pin.Change{}
	}
	return &lockJSON{File: r.lock, Changes: changes}
}

// lockOutcome turns changes into exit status 1 when the findings did not.
func lockOutcome(results []checked, err error) error {
	if err != nil {
		return err
	}
	for _, r := range results {
		if len(r.changes) > 0 {
			return errFindings
		}
	}
	return nil
}
