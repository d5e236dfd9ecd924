package unsafeunlock_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
)

// TestReleasesAgainstServer runs what the fixes write against a server
// (miniredis): the compare-and-delete script, as declared in a golden file,
// by Run and by Eval (pipelines), and DelExArgs IFEQ. Each must delete the
// lock only while it holds the caller's token.
func TestReleasesAgainstServer(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile(filepath.Join(lvtest.TestData(t), "unsafeunlock", "v9", "v9.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("var unlockScript = redis.NewScript\\(`([^`]*)`\\)").FindSubmatch(golden)
	if m == nil {
		t.Fatal("no unlockScript declaration in the golden file")
	}
	src := string(m[1])
	if src != lua.UnlockSrc {
		t.Errorf("declared script differs from lua.UnlockSrc:\n%s", src)
	}
	unlockScript := redis.NewScript(src)

	s := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: s.Addr()})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()

	releases := map[string]func(key, token string) (int64, error){
		"script Run": func(key, token string) (int64, error) {
			return unlockScript.Run(ctx, rdb, []string{key}, token).Int64()
		},
		"script Eval in a pipeline": func(key, token string) (int64, error) {
			var cmd *redis.Cmd
			_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
				cmd = unlockScript.Eval(ctx, pipe, []string{key}, token)
				return nil
			})
			if err != nil {
				return 0, err
			}
			return cmd.Int64()
		},
		"DelExArgs IFEQ": func(key, token string) (int64, error) {
			return rdb.DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ", MatchValue: token}).Result()
		},
	}
	for name, release := range releases {
		t.Run(name, func(t *testing.T) {
			const key = "lock:report"
			if !rdb.SetNX(ctx, key, "token-b", 0).Val() {
				t.Fatal("acquire failed")
			}
			// Another holder's token: the lock stays.
			if n, err := release(key, "token-a"); err != nil || n != 0 {
				t.Errorf("release with another token = %d, %v; want 0, nil", n, err)
			}
			if v, _ := rdb.Get(ctx, key).Result(); v != "token-b" {
				t.Fatalf("lock after release with another token = %q; want it kept", v)
			}
			// Its own token: the lock goes.
			if n, err := release(key, "token-b"); err != nil || n != 1 {
				t.Errorf("release with its own token = %d, %v; want 1, nil", n, err)
			}
			if s.Exists(key) {
				t.Fatal("lock still there after release with its own token")
			}
			// No lock at all: nothing to delete, no error.
			if n, err := release(key, "token-b"); err != nil || n != 0 {
				t.Errorf("release of a missing lock = %d, %v; want 0, nil", n, err)
			}
		})
	}
}
