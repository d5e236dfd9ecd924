package unsaferenew_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
)

// fixedScript returns the script source and the TTL argument that the
// suggested fix wrote into a golden file.
func fixedScript(t *testing.T) (src, ttlArg string) {
	t.Helper()
	golden, err := os.ReadFile(filepath.Join(lvtest.TestData(t), "unsaferenew", "multi", "a.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile("var renewScript = redis.NewScript\\(`([^`]*)`\\)").FindSubmatch(golden)
	run := regexp.MustCompile(`renewScript\.Run\(ctx, rdb, \[\]string\{key\}, token, ([^)]*\))\)`).FindSubmatch(golden)
	if decl == nil || run == nil {
		t.Fatalf("no renewal script declaration or run in the golden file")
	}
	return string(decl[1]), string(run[1])
}

// TestFixedScriptOnRedis runs the script the fix declares, with the
// arguments the fix passes, against miniredis: it extends the lock only
// while the key holds the caller's token, and the TTL must be passed as
// ttl.Milliseconds(): a time.Duration goes over the wire in nanoseconds,
// which PEXPIRE reads as milliseconds.
func TestFixedScriptOnRedis(t *testing.T) {
	t.Parallel()
	src, ttlArg := fixedScript(t)
	if src != lua.RenewSrc {
		t.Fatalf("fix declares %q, want lua.RenewSrc", src)
	}
	if ttlArg != "ttl.Milliseconds()" {
		t.Fatalf("fix passes the TTL as %s, want ttl.Milliseconds()", ttlArg)
	}

	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer rdb.Close()
	ctx := context.Background()
	renew := redis.NewScript(src)
	const key = "lock:job"
	const ttl = 10 * time.Minute

	set := func(value string) {
		t.Helper()
		if err := rdb.Set(ctx, key, value, time.Second).Err(); err != nil {
			t.Fatal(err)
		}
	}
	run := func(token string, ttlArg any) int64 {
		t.Helper()
		n, err := renew.Run(ctx, rdb, []string{key}, token, ttlArg).Int64()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	// Our lock: extended to the TTL asked for.
	set("ours")
	if n := run("ours", ttl.Milliseconds()); n != 1 {
		t.Errorf("renewing our own lock: got %d, want 1", n)
	}
	if got := mr.TTL(key); got != ttl {
		t.Errorf("TTL after renewing our lock = %v, want %v", got, ttl)
	}

	// Another process's lock (ours expired, they acquired): left alone.
	set("theirs")
	if n := run("ours", ttl.Milliseconds()); n != 0 {
		t.Errorf("renewing another owner's lock: got %d, want 0", n)
	}
	if got := mr.TTL(key); got != time.Second {
		t.Errorf("TTL of another owner's lock = %v, want it untouched (1s)", got)
	}
	if v, _ := mr.Get(key); v != "theirs" {
		t.Errorf("value of another owner's lock = %q, want %q", v, "theirs")
	}

	// The bare EXPIRE this check reports extends their lock.
	if !rdb.Expire(ctx, key, ttl).Val() {
		t.Fatal("EXPIRE of an existing key returned false")
	}
	if got := mr.TTL(key); got != ttl {
		t.Errorf("TTL after a bare EXPIRE = %v, want %v (the other owner's lock extended)", got, ttl)
	}

	// No lock at all: nothing to extend.
	mr.Del(key)
	if n := run("ours", ttl.Milliseconds()); n != 0 {
		t.Errorf("renewing a missing lock: got %d, want 0", n)
	}
	if mr.Exists(key) {
		t.Error("renewing a missing lock created the key")
	}

	// A raw time.Duration as the TTL argument: sent in nanoseconds, read
	// as milliseconds by PEXPIRE, a TTL of years.
	set("ours")
	if n := run("ours", ttl); n != 1 {
		t.Fatalf("renewing with a raw Duration: got %d, want 1", n)
	}
	got := mr.TTL(key)
	if want := time.Duration(ttl.Nanoseconds()) * time.Millisecond; got != want {
		t.Errorf("TTL after passing a raw Duration = %v, want %v", got, want)
	}
	if got < 365*24*time.Hour {
		t.Errorf("TTL after passing a raw Duration = %v, want years", got)
	}
}
