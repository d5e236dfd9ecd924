// Command lockvet-live holds the lockvet commands that talk to a running
// Redis server (internal/operator/live):
//
//	lockvet-live live -redis ADDR [-pattern GLOB]... [packages]
//	    a read-only scan for lock keys with no TTL, its Prometheus
//	    metrics (-format prometheus) and exporter (-listen ADDR)
//	lockvet-live release -redis ADDR -key KEY [-token VALUE] -reason TEXT
//	    show a lock, or delete it only while it holds VALUE, and record
//	    who did it and why
//
// lockvet live and lockvet release run it, so install both binaries (go
// install github.com/lockvet/lockvet/cmd/...@latest) and use those
// names; docs/live.md has the details. It is a binary of its own so that
// the lockvet binary, which go vet starts once per package, links
// neither a Redis client nor the Prometheus client library.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/operator/live"
)

func main() {
	cmd := ""
	if len(os.Args) > 1 {
		cmd = os.Args[1]
	}
	ctx := context.Background()
	switch cmd {
	case "live":
		os.Exit(live.Live(ctx, os.Args[2:], os.Stdout, os.Stderr))
	case "release":
		os.Exit(live.Release(ctx, os.Args[2:], os.Stdout, os.Stderr))
	}
	fmt.Fprint(os.Stderr, "usage: lockvet-live live [flags] [packages]\n       lockvet-live release [flags]\n(lockvet live -h and lockvet release -h describe them)\n")
	os.Exit(driver.ExitError)
}
