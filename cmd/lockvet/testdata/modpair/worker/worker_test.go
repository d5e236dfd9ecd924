package worker

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/modpair/pairpkg"
)

func TestLock(t *testing.T) {
	s := &pairpkg.Store{RDB: redis.NewClient(&redis.Options{Addr: "127.0.0.1:0"})}
	ctx := context.Background()
	if ok, err := s.Lock(ctx, Name, time.Second); err != nil || !ok {
		t.Skip("no redis")
	}
	if err := s.Unlock(ctx, Name); err != nil {
		t.Fatal(err)
	}
}
