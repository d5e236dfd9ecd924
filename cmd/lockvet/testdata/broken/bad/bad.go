// Package bad does not type-check: lockvet must name it and go on with
// the other packages.
package bad

import "time"

// TTL is assigned a string.
var TTL time.Duration = "30s"
