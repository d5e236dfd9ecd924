// Command worker runs the scheduled jobs and the order service's HTTP API.
package main

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"time"

	redisv8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"

	"example.com/lockvet-example/internal/cache"
	"example.com/lockvet-example/internal/ratelimit"
	"example.com/lockvet-example/orders"
	"example.com/lockvet-example/scheduler"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	addr := os.Getenv("REDIS_ADDR")
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	legacy := redisv8.NewClient(&redisv8.Options{Addr: addr})

	svc := orders.NewService(legacy, cache.New(rdb))
	limit := ratelimit.New(rdb, 100, time.Minute)
	http.HandleFunc("POST /orders/{id}/address", func(w http.ResponseWriter, r *http.Request) {
		if ok, err := limit.Allow(r.Context(), r.Header.Get("X-Customer")); err != nil || !ok {
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		if err := svc.UpdateAddress(r.Context(), r.PathValue("id"), r.FormValue("address")); err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
		}
	})
	go func() { log.Error("http", "err", http.ListenAndServe(":8080", nil)) }()

	s := scheduler.New(rdb, time.Minute, log)
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			err := s.RunOnce(ctx, scheduler.Job{Name: "nightly-report", Run: func(context.Context) error { return nil }})
			if err != nil {
				log.Error("run job", "err", err)
			}
		}
	}
}
