// Package keyspace builds the Redis keys of the test packages that keep
// their key templates to themselves: a namespace in front of a template
// filled with ids. Checks see a call of Key, not the format it applies.
package keyspace

import "fmt"

var namespace = "net:"

// Key fills tmpl with args and puts the namespace in front.
func Key(tmpl string, args ...any) string { return namespace + fmt.Sprintf(tmpl, args...) }
