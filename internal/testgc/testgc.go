// Package testgc makes the garbage collector of a test binary that
// imports it run less often, for the tests that load the standard library
// and the client modules from source (analysistest, lvtest.Load, the
// golangci plugin tests).
//
// Such a load keeps most of what it allocates live until it is done, and
// with Go's default GOGC=100 the collector takes about a third of the
// test's CPU time. Warm, on the 2-core project machine (load average 8 to
// 12 from other work), the tests of passes/unsafeunlock took 73 s of user
// CPU with GOGC=100 and 49 s with GOGC=400, at a peak RSS of 1.6 GB and
// 3.3 GB. The memory limit keeps a test binary's heap near 3 GiB when two
// loads run at once; the tests assert nothing about memory. A GOGC or
// GOMEMLIMIT set in the environment is left alone.
//
// Import it for its effect, from a _test.go file or a test-only helper:
//
//	import _ "github.com/lockvet/lockvet/internal/testgc"
package testgc

import (
	"os"
	"runtime/debug"
)

// Percent is the GOGC value set.
const Percent = 400

// MemoryLimit is the soft memory limit set (runtime/debug.SetMemoryLimit).
const MemoryLimit = 3 << 30

func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}
