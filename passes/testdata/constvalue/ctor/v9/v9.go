// Package v9 makes locks through the constructors of xpkg/v9/ctor.
package v9

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"lockvet.test/xpkg/v9/ctor"
)

var rdb = redis.NewClient(&redis.Options{})

const lockValue = "lockValue"

func work() {}

// A package constant: every caller holds the lock at once.
func constant(ctx context.Context) {
	l := ctor.NewLocker("admin", lockValue, 2*time.Second, rdb) // want `the lock value passed to NewLocker is the constant lockValue \("lockValue"\): NewLocker keeps it in Locker.Value, which Lock writes with SetNX \(ctor/ctor.go:29\) and compares with what the key holds to decide it holds the lock \(ctor/ctor.go:32\), so every caller with this value holds the lock at once; pass a random token per lock`
	if ok, _ := l.Lock(ctx); ok {
		work()
		l.UnLock(ctx)
	}
}

// A literal, with a compare-and-delete release.
func literal(ctx context.Context, name string) {
	m := ctor.NewMutex(rdb, name, "1") // want `the lock value passed to NewMutex is the constant "1": NewMutex keeps it in Mutex.token, which Lock writes with SetNX \(ctor/ctor.go:64\) and Unlock's owner check compares with what the key holds \(ctor/ctor.go:69\), so it matches other holders' locks; pass a random token per lock`
	if ok, _ := m.Lock(ctx); ok {
		defer m.Unlock(ctx)
		work()
	}
}

// The host name, through a constructor that is a method; the lock is
// used at once. No fix: h would be left unused.
func hostname(ctx context.Context, f *ctor.Factory) {
	h, _ := os.Hostname()
	if f.New("job", h).Acquire(ctx) { // want `the lock value passed to New is the host name h \(shared by its processes\): New keeps it in DistLock.owner, which Acquire writes with SetNX \(ctor/ctor.go:92\) and Release releases, so no owner check can tell holders apart; pass a random token per lock \(no fix: the argument is the last use of a variable\)`
		work()
	}
}

// The process ID, formatted.
func pid(ctx context.Context, f *ctor.Factory) {
	d := f.New("job", fmt.Sprintf("worker-%d", os.Getpid())) // want `the process ID \(fmt.Sprintf\("worker-%d", os.Getpid\(\)\)\), which repeats across hosts`
	if d.Acquire(ctx) {
		defer d.Release(ctx)
		work()
	}
}

// The key as the value.
func ownKey(ctx context.Context, f *ctor.Factory, key string) {
	d := f.New(key, key) // want `the lock value passed to New is the lock's own key \(key\)`
	if d.Acquire(ctx) {
		defer d.Release(ctx)
		work()
	}
}

// A local variable only ever holding a constant, used nowhere else: no
// fix (the variable would be left unused).
func local(ctx context.Context) {
	v := "held"
	l := ctor.NewLocker("k", v, time.Second, rdb) // want `v \("held"\), a variable only ever holding a constant.*\(no fix: the argument is the last use of a variable\)`
	if ok, _ := l.Lock(ctx); ok {
		l.UnLock(ctx)
	}
}

// Made once at package level: no fix.
var shared = ctor.NewLocker("k", "v", time.Second, rdb) // want `the constant "v".*\(no fix: the lock is made once, at package level\)`

type service struct {
	locker *ctor.Locker
}

// Kept in a field: every user of the service shares one value; no fix.
func newService() *service {
	s := &service{}
	s.locker = ctor.NewLocker("k", "v", time.Second, rdb) // want `\(no fix: the lock is kept in s.locker, which its users share\)`
	return s
}

// Kept in a composite literal: no fix.
func newService2() *service {
	return &service{locker: ctor.NewLocker("k", "v", time.Second, rdb)} // want `\(no fix: the lock is kept in a composite literal, which its users share\)`
}

// Random tokens: silent.
func random(ctx context.Context, f *ctor.Factory, name string) {
	ctor.NewMutex(rdb, name, uuid.NewString()).Lock(ctx)
	ctor.NewMutex(rdb, name, rand.Text()).Lock(ctx)
	tok := uuid.NewString()
	l := ctor.NewLocker("k", tok, time.Second, rdb)
	l.Lock(ctx)
	f.New("job", fmt.Sprintf("%s-%d", name, time.Now().UnixNano())).Acquire(ctx)
}

// The value field changed after construction: silent.
func changed(ctx context.Context) {
	l := ctor.NewLocker("k", "v", time.Second, rdb)
	l.Value = uuid.NewString()
	l.Lock(ctx)
}

// Constructors whose parameter is no lock's value: silent.
func others(ctx context.Context) {
	ctor.NewFresh(rdb, "job").Lock(ctx)
	ctor.NewFreshToken(rdb, "job", "1").Lock(ctx)
	ctor.NewNamed(rdb, "job").Lock(ctx)
	ctor.NewEntry(rdb, "page", "1").Fill(ctx)
	ctor.NewMarker(rdb, "once", "1").Lock(ctx)
}
