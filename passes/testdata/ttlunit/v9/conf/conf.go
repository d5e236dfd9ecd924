// Package conf holds settings another package uses as TTLs.
package conf

import "time"

// LockTTL is untyped: whatever its spelling, it has no time unit.
const LockTTL = 30

// Grace is typed: its spelling is not visible from another package, so it
// might be 500 * time.Microsecond on purpose.
const Grace time.Duration = 500
