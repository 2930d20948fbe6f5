// Command libstart does nothing, so that its run time is start-up alone:
// BenchmarkProcess (cmd/mcplint) runs it beside mcplint as the least that
// fifty tools end to end can take. Built as it is, it links the JSON Schema
// library mcplint validates with (lib.go), whose package initialisation
// compiles the metaschemas of five drafts before main runs; built with
// -tags bare, it is a Go program and nothing more.
package main

func main() {}
