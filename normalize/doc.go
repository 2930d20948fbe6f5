// Package normalize holds pure functions from schema to schema; rules' fixes
// and convert/ both call them, neither re-implements them.
//
// Every function takes decoded JSON values (map[string]any, []any, strings,
// json.Number, bools, nil), never modifies its input and returns a new value.
package normalize
