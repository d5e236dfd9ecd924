package main

import (
	"flag"
	"strings"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/lvconfig"
)

// wrapperFlags declare in-house functions that perform lock operations:
// -acquire-funcs, -expire-funcs, -release-funcs, -safe-release-funcs. Each
// takes declarations FUNC[:OPTION,...] (see analyzer.Config), repeated or
// separated by ';', as in
//
//	-acquire-funcs '(*example.com/cache.Store).TryLock:key=1,value=2,ttl=3'
//
// They are configuration flags: go vet forwards them too.
type wrapperFlags struct {
	acquire, expire, release, safeRelease specFlag
}

func (w *wrapperFlags) register(fs *flag.FlagSet) {
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

func (w *wrapperFlags) apply(c *analyzer.Config) {
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
