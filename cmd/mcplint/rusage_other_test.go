//go:build !unix

package main

import "os"

// maxRSS is 0 where rusage does not exist; the benchmark then reports
// only what GNU time measured.
func maxRSS(*os.ProcessState) int64 { return 0 }
