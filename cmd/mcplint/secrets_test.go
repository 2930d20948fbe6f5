package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spellings are the ways a server may spell secret inside a JSON string
// (secret holds "/" and "&" and no character JSON must escape): escaped
// as JSON allows (\/, \u0026, \u00XX of any character), percent-encoded
// in either case, and one escaping inside another.
func spellings(secret string) []string {
	u := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, `\\u%04x`, c)
		}
		return b.String()
	}
	pct := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, "%%%02x", c)
		}
		return b.String()
	}
	return []string{
		strings.NewReplacer("/", `\/`, "&", `\u0026`).Replace(secret),
		u(secret[:3]) + secret[3:],
		secret[:5] + u(secret[5:9]) + secret[9:],
		strings.NewReplacer("/", "%2F", "&", "%26").Replace(secret),
		pct(secret[:4]) + secret[4:],
		strings.NewReplacer("/", `\\\/`, "&", `\\u0026`).Replace(secret),
	}
}

// TestSecretsEverySpelling: a server that echoes a secret of the run in
// every spelling gets none of them into any output: the report in every
// format (the text format's code frame shows the raw line), a report
// written to a file, and the saved listing.
func TestSecretsEverySpelling(t *testing.T) {
	const secret = "sk/a&b-Zebra42x-Quail77y"
	// Pieces each spelling leaves as they are, one at least.
	pieces := []string{"Zebra42x", "Quail77y", "ebra4", "ail77"}
	dir := t.TempDir()
	server := []string{"--env=MCPLINT_CHECK_TEST_SECRET=" + secret, serverEnvFlag("leakspelled"), "--", os.Args[0]}
	var seen strings.Builder
	for _, f := range reportFormats {
		save := filepath.Join(dir, "saved-"+f+".jsonl")
		path := filepath.Join(dir, "report."+f)
		r := mcplint(t, runOpts{}, append([]string{"check", "--fail-on=never", "--format=" + f, "--format=" + f + "=" + path, "--save", save}, server...)...)
		r.want(t, 0)
		seen.WriteString(r.stdout + r.stderr)
		for _, p := range []string{save, path} {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			seen.Write(b)
		}
	}
	out := seen.String()
	if !strings.Contains(out, "bad name 5") {
		t.Fatalf("the server's tools are not in the output:\n%s", out)
	}
	for _, p := range pieces {
		if i := strings.Index(out, p); i >= 0 {
			t.Errorf("%s is shown: …%s…", p, out[max(0, i-120):min(len(out), i+40)])
		}
	}
}

// TestSecretNumberSaved: a secret of digits that the server sends as a
// number leaves the saved listing and the lock JSON (the number becomes
// the masked string), and the lock then pins the server as it is listed.
func TestSecretNumberSaved(t *testing.T) {
	const secret = "73190465"
	dir := t.TempDir()
	save, lock := filepath.Join(dir, "saved.json"), filepath.Join(dir, "mcp.lock")
	server := []string{"--env=MCPLINT_CHECK_TEST_SECRET=" + secret, serverEnvFlag("leaknumber"), "--", os.Args[0]}
	mcplint(t, runOpts{}, append([]string{"check", "--fail-on=never", "--save", save}, server...)...).want(t, 0)
	mcplint(t, runOpts{}, append([]string{"lock", "--lockfile", lock}, server...)...).want(t, 0)
	for _, p := range []string{save, lock} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		valid := true
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			valid = valid && json.Valid([]byte(line))
		}
		if p == lock {
			valid = json.Valid(b)
		}
		if strings.Contains(string(b), secret) || !valid || !strings.Contains(string(b), `"***"`) {
			t.Errorf("%s: want JSON (Lines, for the listing) with the number masked as a string:\n%s", filepath.Base(p), b)
		}
	}
	if r := mcplint(t, runOpts{}, "lint", "--fail-on=never", save); r.code != 0 {
		t.Errorf("lint of the saved listing: exit %d\n%s", r.code, r.stderr)
	}
	mcplint(t, runOpts{}, append([]string{"check", "--fail-on=never", "--locked", "--lockfile", lock}, server...)...).want(t, 0)
}
