// Package fuzz holds lockvet's fuzz targets; it has no code of its own.
//
// FuzzAnalyzers feeds Go source text, mutated from the check tests'
// sources, through parsing, type-checking against the real client modules
// and every analyzer of analyzer.Analyzers. FuzzGenerated builds well-typed
// lock code from a byte string (go-redis v9 and redigo calls in pipelines,
// transactions, closures, loops, defers, methods and generic wrappers) and
// does the same. Both require that no analyzer panics, that the analysis
// of one input ends in bounded time, and that every suggested fix applies
// cleanly and leaves source that still parses.
//
// Without -fuzz, go test runs the seeds and the crashers kept under
// testdata/fuzz as regression tests. To fuzz (CI gives each target a
// number of executions; with Go 1.26 a duration such as -fuzztime 45s can
// end in a spurious "context deadline exceeded", golang/go#75804):
//
//	go test -run '^$' -fuzz '^FuzzAnalyzers$' -fuzztime 100000x ./internal/fuzz
//	go test -run '^$' -fuzz '^FuzzGenerated$' -fuzztime 2000x ./internal/fuzz
package fuzz
