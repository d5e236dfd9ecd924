package v9

import (
	"context"
	"fmt"
	"time"
)

// Keys built in local variables have the template of the inline key.

func LockLocal(ctx context.Context, id string) (bool, error) { // want `summary LockLocal: acquire key=1 \("lock:"\+\$\) value="1" ttl=time.Minute returns lock paired at v9/locals.go:13`
	key := "lock:" + id
	return rdb.SetNX(ctx, key, "1", time.Minute).Result() // want `go-redis/v9 acquire SetNX`
}

func UnlockLocal(ctx context.Context, id string) error { // want `summary UnlockLocal: release bare key=1 \("lock:"\+\$\) paired at v9/locals.go:18`
	key := "lock:" + id
	return rdb.Del(ctx, key).Err() // want `go-redis/v9 delete Del`
}

// A local of a local of a Sprintf: three deep.
func RefreshLocal(ctx context.Context, id string, ttl time.Duration) { // want `summary RefreshLocal: expire bare key=1 fmt.Sprintf\("lease:%s",\$\) ttl=2/duration at v9/locals.go:26`
	name := fmt.Sprintf("lease:%s", id)
	k := name
	key := k
	rdb.Expire(ctx, key, ttl) // want `go-redis/v9 expire Expire`
}

// --- no summary ---

// Four locals deep: past the bound.
func RefreshDeep(ctx context.Context, id string, ttl time.Duration) {
	a := "lease:" + id
	b := a
	c := b
	d := c
	rdb.Expire(ctx, d, ttl) // want `go-redis/v9 expire Expire`
}

// Written twice.
func LockEither(ctx context.Context, id string, urgent bool) bool {
	key := "lock:" + id
	if urgent {
		key = "urgent:" + id
	}
	return rdb.SetNX(ctx, key, "1", time.Minute).Val() // want `go-redis/v9 acquire SetNX`
}

// Built from two parameters.
func LockBoth(ctx context.Context, a, b string) bool {
	key := a + ":" + b
	return rdb.SetNX(ctx, key, "1", time.Minute).Val() // want `go-redis/v9 acquire SetNX`
}

// From a key function of the package's own: a summary (more at the end).
func LockUpper(ctx context.Context, id string) bool { // want `summary LockUpper: acquire key=1 func:lockvet.test/summaries/v9.lookup\(\$\) value="1" ttl=time.Minute returns lock paired at v9/locals.go:58`
	key := lookup(id)
	return rdb.SetNX(ctx, key, "1", time.Minute).Val() // want `go-redis/v9 acquire SetNX`
}

func lookup(id string) string { return id }

func useLocals(ctx context.Context, id string) {
	LockLocal(ctx, id)                 // want `inferred acquire LockLocal key=id`
	defer UnlockLocal(ctx, id)         // want `inferred delete UnlockLocal key=id`
	RefreshLocal(ctx, id, time.Second) // want `inferred expire RefreshLocal key=id ttl=time.Second/duration`
}

// A receiver's field around the parameter: the field is in the template.
type Prefixed struct {
	prefix string
}

func (p *Prefixed) LockName(ctx context.Context, name string) bool { // want `summary LockName: acquire key=1 \(recv.prefix\+\$\) value="1" ttl=time.Minute returns lock paired at v9/locals.go:75`
	return rdb.SetNX(ctx, p.prefix+name, "1", time.Minute).Val() // want `go-redis/v9 acquire SetNX`
}

// LockName through a package-level locker: the prefix is that variable's.
var jobs = &Prefixed{prefix: "job:"}

func LockJobName(ctx context.Context, name string) bool { // want `summary LockJobName: acquire key=1 \(var:lockvet.test/summaries/v9.jobs.prefix\+\$\) value="1" ttl=time.Minute returns lock paired via LockName depth=1 at v9/locals.go:75`
	return jobs.LockName(ctx, name) // want `inferred acquire LockName key=name`
}

// Through a field of its own receiver: the field joins the template.
type Service struct {
	locks *Prefixed
}

func (s *Service) LockTask(ctx context.Context, name string) bool { // want `summary LockTask: acquire key=1 \(recv.locks.prefix\+\$\) value="1" ttl=time.Minute returns lock paired via LockName depth=1 at v9/locals.go:75`
	return s.locks.LockName(ctx, name) // want `inferred acquire LockName key=name`
}

// Through a locker it is handed: whose prefix is not known here, no summary.
func LockWith(ctx context.Context, p *Prefixed, name string) bool {
	return p.LockName(ctx, name) // want `inferred acquire LockName key=name`
}

// --- key functions and normalised parameters ---

// The parameter normalised once at the top (key = fullKey(key)): the
// key is its right-hand side.
func LockNormalised(ctx context.Context, key string) bool { // want `summary LockNormalised: acquire key=1 func:lockvet.test/summaries/v9.lookup\(\("app:"\+\$\)\) value="1" ttl=time.Minute returns lock paired at v9/locals.go:\d+`
	key = lookup("app:" + key)
	return rdb.SetNX(ctx, key, "1", time.Minute).Val() // want `go-redis/v9 acquire SetNX`
}

func UnlockNormalised(ctx context.Context, key string) { // want `summary UnlockNormalised: release bare key=1 func:lockvet.test/summaries/v9.lookup\(\("app:"\+\$\)\) paired at v9/locals.go:\d+`
	key = lookup("app:" + key)
	rdb.Del(ctx, key) // want `go-redis/v9 delete Del`
}

// No summary: a method that builds the key (its receiver is a second
// input).
func LockByStore(ctx context.Context, st *keyStore, id string) bool {
	key := st.key(id)
	return rdb.SetNX(ctx, key, "1", time.Minute).Val() // want `go-redis/v9 acquire SetNX`
}

type keyStore struct{ prefix string }

func (s *keyStore) key(id string) string { return s.prefix + id }

// No summary: the parameter normalised inside a branch, so not every use
// sees it.
func LockMaybeScoped(ctx context.Context, id string, scoped bool) bool {
	if scoped {
		id = lookup(id)
	}
	return rdb.SetNX(ctx, id, "1", time.Minute).Val() // want `go-redis/v9 acquire SetNX`
}

// No summary: normalised twice.
func LockTwice(ctx context.Context, id string) bool {
	id = lookup(id)
	id = "lock:" + id
	return rdb.SetNX(ctx, id, "1", time.Minute).Val() // want `go-redis/v9 acquire SetNX`
}
