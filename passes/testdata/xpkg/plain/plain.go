// Package plain reaches no Redis client: it carries no facts.
package plain

import "strings"

// Lock is named like a helper but locks nothing.
func Lock(key string) string { return strings.ToUpper(key) }
