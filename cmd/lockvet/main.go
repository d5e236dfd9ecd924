// Command lockvet finds Redis distributed-lock bugs in Go code: a lock
// taken without a TTL and expired in a second command, SETNX and EXPIRE
// queued together in MULTI/EXEC, TTLs in the wrong unit, and the other
// checks listed by lockvet -h.
//
// Usage:
//
//	lockvet [flags] [packages]
//
// The packages are go command patterns; the default is ./... . Each
// finding is printed as
//
//	path/file.go:line:col: LV101: message
//	<TAB>path/file.go:line:col: related position
//
// with paths relative to the working directory, sorted by position.
//
// Flags:
//
//	-C dir              run as if started in dir
//	-checks IDs         run only these checks (IDs or names, comma-separated)
//	-disable IDs        do not run these checks
//	-redis-version V    oldest Redis server the code runs against (e.g. 8.4);
//	                    selects which fixes are offered
//	-include-generated  also report findings in generated files
//	-acquire-funcs, -expire-funcs, -release-funcs, -safe-release-funcs DECLS
//	                    declare in-house lock helpers (docs/wrappers.md)
//	-test=false         do not analyze test files
//	-format F           output: text (default), json (go vet -json's
//	                    shape), sarif (SARIF 2.1.0 for code scanning),
//	                    github (GitHub Actions annotations), codeclimate
//	                    (GitLab Code Quality), checkstyle (Checkstyle XML,
//	                    for Jenkins and reviewdog); see docs/ci.md
//	-json               same as -format json
//	-baseline FILE      report only findings not recorded in FILE
//	-write-baseline FILE
//	                    record the current findings in FILE; print nothing
//	-new-from-rev REV   report only findings in functions changed since
//	                    the git revision REV
//	-sarif-suppressed=false
//	                    leave findings suppressed in source out of SARIF
//	-fix                apply the first suggested fix of each finding (fixes
//	                    that overlap are skipped: run -fix again), gofmt the
//	                    files, then analyze again and print what is left
//	-diff               print the changes -fix would make as a unified diff
//	                    (git apply takes it); change nothing
//	-explain ID         print what a check finds and how to fix it
//	-v                  print on stderr how many packages were analyzed,
//	                    how many failed, and the time taken
//	-V, -version        print the version
//
// Exit status: 0 when there are no findings, 1 when there are, 2 on errors
// (a package that does not load or type-check, a pattern matching
// nothing, a bad flag). With -json the status is 0 or 2, as with go vet;
// sarif, github, codeclimate and checkstyle exit like text. Findings
// suppressed in source (//lockvet:ignore ID -- reason), or left out by
// -baseline or -new-from-rev, do not count.
// Packages that fail are named on stderr; the others are still analyzed.
//
// Three subcommands serve operators:
//
//	lockvet inventory [-format text|json|markdown] [packages]
//	    every lock site: key pattern, client, acquire form, TTL, release,
//	    renewal and findings (docs/inventory.md)
//	lockvet live -redis ADDR [-pattern GLOB]... [packages]
//	    a read-only scan of a running Redis for lock keys with no TTL;
//	    exit 1 when one is found; -format prometheus prints the lock
//	    figures as metrics, -listen ADDR serves them (docs/live.md)
//	lockvet release -redis ADDR -key KEY [-token VALUE] -reason TEXT
//	    show a lock, or delete it only while it holds VALUE, and record
//	    who did it and why in a Redis stream (docs/live.md)
//
// live and release run the lockvet-live binary (cmd/lockvet-live), next
// to lockvet or on PATH: go install github.com/lockvet/lockvet/cmd/...@latest
// installs both.
//
// The same binary is a vet tool:
//
//	go vet -vettool=$(which lockvet) ./...
//
// go vet forwards -checks, -disable, -redis-version, -include-generated
// and the wrapper declarations, and its -json works as usual; each check
// can also be turned off by name (-setnxexpire=false). go fix
// -fixtool=$(which lockvet) applies the fixes through the go command.
//
// This package only reads the command line; the work is done by
// internal/driver (loading and analysis), internal/vettool (go vet's
// protocol), internal/output (the formats), internal/gates (baseline and
// -new-from-rev), internal/applyfix (-fix and -diff) and
// internal/operator (the subcommands).
package main

import (
	"io"
	"os"

	"github.com/lockvet/lockvet/internal/operator"
	"github.com/lockvet/lockvet/internal/vettool"
)

// subcommands are the commands the first argument selects, in the order
// lockvet -h lists them.
var subcommands = []struct {
	name, usage, what string
	run               func(args []string, stdout, stderr io.Writer) int
}{
	{"inventory", "lockvet inventory [-format text|json|markdown] [packages]",
		"list every lock site: key pattern, client, TTL, release, renewal, findings",
		operator.Inventory},
	{"live", "lockvet live -redis ADDR [-pattern GLOB]... [packages]",
		"scan a running Redis, read-only, for lock keys with no TTL; -format prometheus\n\t    or -listen ADDR for Prometheus metrics",
		func(args []string, _, stderr io.Writer) int { return operator.Live("live", args, stderr) }},
	{"release", "lockvet release -redis ADDR -key KEY [-token VALUE] -reason TEXT",
		"show a lock, or delete it only while it holds VALUE, and record who and why",
		func(args []string, _, stderr io.Writer) int { return operator.Live("release", args, stderr) }},
}

func main() {
	args := os.Args[1:]
	if vettool.IsInvocation(args) {
		vettool.Main(args) // does not return
	}
	for _, c := range subcommands {
		if len(args) > 0 && args[0] == c.name {
			os.Exit(c.run(args[1:], os.Stdout, os.Stderr))
		}
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}
