// Package silent holds GET-then-SET code that is not a lock: LV107 stays
// silent on all of it.
package silent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct {
	rdb *redis.Client
}

type User struct{ Name string }

func load(id string) (*User, error) { return &User{Name: id}, nil }

// A cache fill: the value is computed, nothing claims the key, the code
// after does not act as its holder.
func (s *Store) User(ctx context.Context, id string) (*User, error) {
	key := fmt.Sprintf("user:%s", id)
	raw, err := s.rdb.Get(ctx, key).Bytes()
	if err == nil {
		var u User
		return &u, json.Unmarshal(raw, &u)
	}
	if !errors.Is(err, redis.Nil) {
		return nil, err
	}
	u, err := load(id)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(u)
	s.rdb.Set(ctx, key, b, 10*time.Minute)
	return u, nil
}

// The cache's invalidation deletes a key of the same shape: no lock name,
// so no evidence.
func (s *Store) Invalidate(ctx context.Context, id string) {
	s.rdb.Del(ctx, fmt.Sprintf("user:%s", id))
}

// A cache fill of a string value, tested by its emptiness.
func (s *Store) Title(ctx context.Context, id string) string {
	v := s.rdb.Get(ctx, "title:"+id).Val()
	if v == "" {
		v = "untitled " + id
		s.rdb.Set(ctx, "title:"+id, v, time.Hour)
	}
	return v
}

// A session written when there is none yet.
func (s *Store) Session(ctx context.Context, sid string, data []byte) error {
	if err := s.rdb.Get(ctx, "session:"+sid).Err(); err == redis.Nil {
		return s.rdb.Set(ctx, "session:"+sid, data, 24*time.Hour).Err()
	}
	return nil
}

// A configuration default stored when missing, with no TTL.
func (s *Store) Defaults(ctx context.Context) error {
	_, err := s.rdb.Get(ctx, "config:max_workers").Result()
	if err == redis.Nil {
		return s.rdb.Set(ctx, "config:max_workers", 8, 0).Err()
	}
	return err
}

// A dedupe marker deleted only when the work failed, so that a retry can
// take it again: not a lock (lockid's marker role).
func (s *Store) Handle(ctx context.Context, msgID string, work func() error) error {
	key := "seen:" + msgID
	if err := s.rdb.Get(ctx, key).Err(); err != redis.Nil {
		return err
	}
	s.rdb.Set(ctx, key, "1", 24*time.Hour)
	if err := work(); err != nil {
		s.rdb.Del(ctx, key)
		return err
	}
	return nil
}

// A SET that runs whatever the GET found: an overwrite, not a claim.
func (s *Store) Touch(ctx context.Context, key, token string) {
	old := s.rdb.Get(ctx, key).Val()
	_ = old
	s.rdb.Set(ctx, key, token, time.Minute)
	defer s.rdb.Del(ctx, key)
}

// A value synced to what it should be: written when it differs, not when
// it equals; no lock.
func (s *Store) Sync(ctx context.Context, key, want string) error {
	v, err := s.rdb.Get(ctx, key).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return err
	}
	if v != want {
		return s.rdb.Set(ctx, key, want, time.Hour).Err()
	}
	return nil
}
