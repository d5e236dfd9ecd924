// Package lvconfig holds the configuration that lockvet's analyzers read.
//
// One Config value is built by the host (CLI flags, golangci-lint settings,
// or a Go caller of analyzer.Analyzers) and handed to every analyzer it
// creates; nothing here is global or mutated after construction.
package lvconfig

import (
	"fmt"
	"strconv"
	"strings"
)

// Config is what the analyzers may be told by their host.
type Config struct {
	// RedisVersion is the oldest Redis server the code runs against,
	// as "MAJOR.MINOR" (for example "7.2" or "8.4"). Empty means unknown:
	// fixes then use only commands every supported server has.
	RedisVersion string

	// IncludeGenerated reports findings in generated files
	// ("// Code generated ... DO NOT EDIT."), which are skipped by default.
	IncludeGenerated bool

	// Wrappers are the in-house functions declared to perform lock
	// operations (see ParseWrappers). Their calls take part in every
	// check as the client calls they stand for.
	Wrappers []Wrapper

	// Module, when not nil, is the whole module as the host loaded it
	// (see Module).
	Module *Module
}

// Validate reports a configuration error in words a user can act on.
func (c *Config) Validate() error {
	if c == nil {
		return nil
	}
	if c.RedisVersion != "" {
		if _, _, err := parseVersion(c.RedisVersion); err != nil {
			return err
		}
	}
	return c.validateWrappers()
}

// RedisAtLeast reports whether the configured server version is known to be
// at least major.minor. An unknown version is never "at least" anything.
func (c *Config) RedisAtLeast(major, minor int) bool {
	if c == nil || c.RedisVersion == "" {
		return false
	}
	ma, mi, err := parseVersion(c.RedisVersion)
	if err != nil {
		return false
	}
	return ma > major || (ma == major && mi >= minor)
}

func parseVersion(s string) (major, minor int, err error) {
	parts := strings.Split(s, ".")
	if len(parts) < 1 || len(parts) > 3 {
		return 0, 0, fmt.Errorf("redis version %q: want MAJOR.MINOR, e.g. 7.2 or 8.4", s)
	}
	major, err = strconv.Atoi(parts[0])
	if err != nil || major < 0 {
		return 0, 0, fmt.Errorf("redis version %q: want MAJOR.MINOR, e.g. 7.2 or 8.4", s)
	}
	if len(parts) > 1 {
		minor, err = strconv.Atoi(parts[1])
		if err != nil || minor < 0 {
			return 0, 0, fmt.Errorf("redis version %q: want MAJOR.MINOR, e.g. 7.2 or 8.4", s)
		}
	}
	return major, minor, nil
}
