// Package breaking compares two tool lists of one MCP server, an old and a
// new one, and reports every change that can break a client or an agent
// already using the server, in the manner of `buf breaking` and oasdiff.
//
// Each kind of change is a rule (Rules): a lint.Rule with an ID, packs, a
// default severity and a doc, but no Check, so that rule selection
// (--select, --ignore), severity overrides and the report formatters work on
// its findings exactly as on lint's. All rules are in the pack "breaking";
// the changes that break nothing (a tool or an optional property added, a
// bound relaxed, a description edited) are also in "non-breaking" and
// report at severity info.
//
// Directions: an input schema may accept more than it did, never less (a
// client's old call must still be valid); an output schema may promise more,
// never less (a client's old reading of a result must still hold).
//
// Schemas are compared by meaning, not by text: key order does not matter,
// local $refs are followed (a definition moved to $defs is no change), and
// the rewrite of a numeric parameter into oneOf/anyOf [the number, its
// decimal string] (normalize.IntegerTolerant) counts as the number itself.
//
// Positions: a finding about something that exists in the new list (a
// property that became required, a narrowed type) points into the new
// manifest; one about something that is gone (a removed tool or property)
// points into the old one. Report.New and Report.Old hold them apart.
package breaking
