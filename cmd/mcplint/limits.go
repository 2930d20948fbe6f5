package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
)

// The flags that raise or lower the limits, by the limit they set. An
// error for an exceeded limit names its flag.
var (
	fileLimitFlag = map[manifest.Limit]string{
		manifest.LimitSize:          "--max-file-size",
		manifest.LimitDepth:         "--max-depth",
		manifest.LimitYAMLSize:      "--max-yaml-size",
		manifest.LimitYAMLTokens:    "--max-yaml-tokens",
		manifest.LimitYAMLExpansion: "--max-yaml-expansion",
		manifest.LimitRefExpansion:  "--max-ref-expansion",
	}
	serverLimitFlag = map[live.Limit]string{
		live.LimitMessageSize: "--max-message-size",
		live.LimitListSize:    "--max-list-size",
		live.LimitTools:       "--max-tools",
		live.LimitPages:       "--max-pages",
		live.LimitTimeout:     "--timeout",
	}
)

// fileLimitFlags are the bounds on reading a manifest (lint, fix,
// convert, breaking).
func fileLimitFlags() []cli.Flag {
	d := manifest.DefaultLimits
	return []cli.Flag{
		&cli.GenericFlag{Name: "max-file-size", Value: &byteSize{d.Size}, Usage: "refuse a manifest larger than `SIZE` (a regular file is measured before it is read; a pipe is read no further)"},
		&cli.IntFlag{Name: "max-depth", Value: d.Depth, Usage: "refuse a tool nested deeper than `N` levels (at most " + strconv.Itoa(manifest.DepthCeiling) + ")"},
		&cli.GenericFlag{Name: "max-yaml-size", Value: &byteSize{d.YAMLSize}, Usage: "refuse a YAML manifest larger than `SIZE` (parsing YAML takes many times its size in memory)"},
		&cli.IntFlag{Name: "max-yaml-tokens", Value: d.YAMLTokens, Usage: "refuse a YAML manifest of more than `N` tokens (keys, values and punctuation)"},
		&cli.GenericFlag{Name: "max-yaml-expansion", Value: &byteSize{d.YAMLExpansion}, Usage: "refuse YAML whose aliases stand for more than `SIZE` of values"},
		&cli.GenericFlag{Name: "max-ref-expansion", Value: &byteSize{d.RefExpansion}, Usage: "refuse to inline \"$ref\"s (for Gemini parameters, OpenAI strict mode) that stand for more than `SIZE` of JSON, all tools together"},
	}
}

// serverLimitFlags are the bounds on what a server may send (check, and
// breaking with a live server).
func serverLimitFlags() []cli.Flag { return limitFlagsSaying(checkLimitUsage) }

// limitUsage is what passing each server limit does, in a flag's help: the
// same limits fail a server under check and are passed on by the proxy.
type limitUsage struct{ messageSize, listSize, tools, pages string }

var checkLimitUsage = limitUsage{
	messageSize: "fail a server that sends one message (a stdio line, an HTTP body or event) larger than `SIZE`; it is never read further",
	listSize:    "fail a server whose tool list, all pages together, is larger than `SIZE`",
	tools:       "fail a server that lists more than `N` tools",
	pages:       "fail a server whose tool list takes more than `N` pages",
}

// limitFlagsSaying declares the server limits that serverLimits reads, in
// one place for every command that takes them, with u as their help.
func limitFlagsSaying(u limitUsage) []cli.Flag {
	d := live.DefaultLimits
	return []cli.Flag{
		&cli.GenericFlag{Name: "max-message-size", Value: &byteSize{d.MessageSize}, Usage: u.messageSize},
		&cli.GenericFlag{Name: "max-list-size", Value: &byteSize{d.ListSize}, Usage: u.listSize},
		&cli.IntFlag{Name: "max-tools", Value: d.Tools, Usage: u.tools},
		&cli.IntFlag{Name: "max-pages", Value: d.Pages, Usage: u.pages},
	}
}

// readFileLimits reads the file limit flags into e.fileLimits.
func (e *env) readFileLimits(cmd *cli.Command) error {
	l := manifest.Limits{
		Size:          sizeOf(cmd, "max-file-size"),
		Depth:         int(cmd.Int("max-depth")),
		YAMLSize:      sizeOf(cmd, "max-yaml-size"),
		YAMLTokens:    int(cmd.Int("max-yaml-tokens")),
		YAMLExpansion: sizeOf(cmd, "max-yaml-expansion"),
		RefExpansion:  sizeOf(cmd, "max-ref-expansion"),
	}
	switch {
	case l.Size <= 0 || l.YAMLSize <= 0 || l.YAMLExpansion <= 0 || l.RefExpansion <= 0:
		return usagef("--max-file-size, --max-yaml-size, --max-yaml-expansion and --max-ref-expansion must be positive; give a size such as 16MiB")
	case l.Depth < 1 || l.Depth > manifest.DepthCeiling:
		return usagef("--max-depth: %d is not between 1 and %d; give a depth in that range", l.Depth, manifest.DepthCeiling)
	case l.YAMLTokens < 1:
		return usagef("--max-yaml-tokens: %d is not a positive number; give 1 or more", l.YAMLTokens)
	}
	e.fileLimits = l
	return nil
}

// serverLimits reads the server limit flags.
func serverLimits(cmd *cli.Command) (live.Limits, error) {
	l := live.Limits{
		MessageSize: sizeOf(cmd, "max-message-size"),
		ListSize:    sizeOf(cmd, "max-list-size"),
		Tools:       int(cmd.Int("max-tools")),
		Pages:       int(cmd.Int("max-pages")),
	}
	if l.MessageSize <= 0 || l.ListSize <= 0 || l.Tools < 1 || l.Pages < 1 {
		return l, usagef("--max-message-size, --max-list-size, --max-tools and --max-pages must be positive; give 1 or more")
	}
	return l, nil
}

func sizeOf(cmd *cli.Command, name string) int64 {
	if b, ok := cmd.Value(name).(int64); ok {
		return b
	}
	return 0
}

// withLimitHint adds to the message of an exceeded limit the flag that
// raises it; other errors are returned as they are.
func withLimitHint(err error) error {
	if flag := limitFlag(err); flag != "" {
		if !strings.Contains(err.Error(), "; ") {
			return fmt.Errorf("%w; raise the limit with %s", err, flag)
		}
		return fmt.Errorf("%w (raise the limit with %s)", err, flag)
	}
	return err
}

// limitFlag is the flag that raises the limit err exceeded, or "".
func limitFlag(err error) string {
	var me *manifest.Error
	if errors.As(err, &me) && me.Limit != "" {
		return fileLimitFlag[me.Limit]
	}
	var be *normalize.BudgetError
	if errors.As(err, &be) {
		return fileLimitFlag[manifest.LimitRefExpansion]
	}
	var fe *lint.FindingsError
	if errors.As(err, &fe) {
		return "--max-findings"
	}
	if le, ok := live.AsError(err); ok && le.Limit != "" {
		return serverLimitFlag[le.Limit]
	}
	return ""
}

// byteSize is a flag value in bytes, written as a number with an optional
// unit: 1048576, 512KiB, 16MiB, 1GiB, or the decimal KB, MB and GB.
type byteSize struct{ n int64 }

var sizeUnits = []struct {
	suffix string
	factor int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1},
}

func (b *byteSize) Set(s string) error {
	n, err := parseByteSize(s)
	if err != nil {
		return err
	}
	b.n = n
	return nil
}

func (b *byteSize) String() string { return manifest.SizeText(b.n) }
func (b *byteSize) Get() any       { return b.n }

func parseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	factor := int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, factor = strings.TrimSpace(rest), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/factor {
		return 0, fmt.Errorf("%q is not a size (a positive number of bytes, with an optional unit: KiB, MiB, GiB, KB, MB, GB)", s)
	}
	return n * factor, nil
}
