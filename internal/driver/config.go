package driver

import (
	"flag"
	"strings"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/lvconfig"
)

// ConfigFlags are the flags that configure the analyzers: -checks,
// -disable, -redis-version, -include-generated and the wrapper
// declarations. The lockvet command and go vet's tool (which go vet
// forwards them to) declare the same ones.
type ConfigFlags struct {
	Checks           ListFlag
	Disable          ListFlag
	RedisVersion     string
	IncludeGenerated bool
	Wrappers         WrapperFlags
}

// Register declares the flags on fs.
func (c *ConfigFlags) Register(fs *flag.FlagSet) {
	fs.Var(&c.Checks, "checks", "run only these checks: comma-separated `IDs` or names (LV101,setnxexpire)")
	fs.Var(&c.Disable, "disable", "do not run these checks: comma-separated `IDs` or names")
	fs.StringVar(&c.RedisVersion, "redis-version", "", "oldest Redis server the code runs against, as MAJOR.MINOR (`version`, e.g. 7.2 or 8.4); selects which fixes are offered")
	fs.BoolVar(&c.IncludeGenerated, "include-generated", false, "also report findings in generated files")
	c.Wrappers.register(fs)
}

// Config is the analyzers' configuration the flags give.
func (c *ConfigFlags) Config() *analyzer.Config {
	cfg := &analyzer.Config{
		Checks:           c.Checks,
		Disable:          c.Disable,
		RedisVersion:     c.RedisVersion,
		IncludeGenerated: c.IncludeGenerated,
	}
	c.Wrappers.apply(cfg)
	return cfg
}

// ListFlag is a comma-separated list; repeating the flag adds to it.
type ListFlag []string

func (l *ListFlag) String() string { return strings.Join(*l, ",") }

// Set adds the items of s.
func (l *ListFlag) Set(s string) error {
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			*l = append(*l, item)
		}
	}
	return nil
}

// WrapperFlags declare in-house functions that perform lock operations:
// -acquire-funcs, -expire-funcs, -release-funcs, -safe-release-funcs. Each
// takes declarations FUNC[:OPTION,...] (see analyzer.Config), repeated or
// separated by ';', as in
//
//	-acquire-funcs '(*example.com/cache.Store).TryLock:key=1,value=2,ttl=3'
type WrapperFlags struct {
	acquire, expire, release, safeRelease specFlag
}

func (w *WrapperFlags) register(fs *flag.FlagSet) {
	w.acquire.kind = lvconfig.AcquireFunc
	w.expire.kind = lvconfig.ExpireFunc
	w.release.kind = lvconfig.ReleaseFunc
	w.safeRelease.kind = lvconfig.SafeReleaseFunc
	fs.Var(&w.acquire, "acquire-funcs", "declare in-house functions that take a lock (SET NX); `decls` are FUNC[:key=P,value=P,ttl=P|none,unit=duration|seconds|millis] "+
		"with FUNC pkg/path.Func or (*pkg/path.Type).Method and P a parameter's 0-based position (receiver not counted) or name, separated by ';' or given by repeating the flag")
	fs.Var(&w.expire, "expire-funcs", "declare in-house functions that set a lock's TTL (EXPIRE); `decls` are FUNC:key=P[,ttl=P,unit=…], as for -acquire-funcs")
	fs.Var(&w.release, "release-funcs", "declare in-house functions that delete a lock without an owner check (DEL); `decls` are FUNC:key=P, as for -acquire-funcs")
	fs.Var(&w.safeRelease, "safe-release-funcs", "declare in-house functions that delete a lock only while it holds a token (compare-and-delete); `decls` are FUNC:key=P[,value=P], as for -acquire-funcs")
}

func (w *WrapperFlags) apply(c *analyzer.Config) {
	c.AcquireFuncs = w.acquire.specs
	c.ExpireFuncs = w.expire.specs
	c.ReleaseFuncs = w.release.specs
	c.SafeReleaseFuncs = w.safeRelease.specs
}

// specFlag collects wrapper declarations of one kind; each use of the flag
// adds one value, checked when the flag is parsed.
type specFlag struct {
	kind  lvconfig.WrapperKind
	specs []string
}

func (s *specFlag) String() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.specs, ";")
}

func (s *specFlag) Set(v string) error {
	if _, err := lvconfig.ParseWrappers(s.kind, v); err != nil {
		return err
	}
	s.specs = append(s.specs, v)
	return nil
}
