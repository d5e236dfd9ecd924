package rueidis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"

	"github.com/redis/rueidis"
)

var unlockScript = rueidis.NewLuaScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// A constant value, released by DEL.
func constant(ctx context.Context, client rueidis.Client, key string) {
	if client.Do(ctx, client.B().Set().Key(key).Value("1").Nx().ExSeconds(30).Build()).Error() != nil { // want `lock key is acquired with the constant "1" and released, so no owner check can tell holders apart; use a random token`
		return
	}
	client.Do(ctx, client.B().Del().Key(key).Build())
}

// The process ID, renewed by EXPIRE.
func pid(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Set().Key(key).Value(strconv.Itoa(os.Getpid())).Nx().ExSeconds(30).Build()) // want `acquired with the process ID`
	for range 3 {
		client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build())
	}
}

// A random token acquired, a constant compared by the release script.
type Lock struct {
	client rueidis.Client
	name   string
	token  string
}

func (l *Lock) Lock(ctx context.Context) error {
	l.token = newToken()
	return l.client.Do(ctx, l.client.B().Set().Key(l.name).Value(l.token).Nx().ExSeconds(30).Build()).Error()
}

func (l *Lock) Unlock(ctx context.Context) {
	unlockScript.Exec(ctx, l.client, []string{l.name}, []string{"1"}) // want `the owner check of lock l.name compares it with "1", a value every caller passes`
}

// --- silent ---

func random(ctx context.Context, client rueidis.Client, key string) {
	token := newToken()
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error() != nil {
		return
	}
	unlockScript.Exec(ctx, client, []string{key}, []string{token})
}

// A set-once marker: nothing needs its owner.
func marker(ctx context.Context, client rueidis.Client, id string) {
	client.Do(ctx, client.B().Set().Key("done:"+id).Value("1").Nx().ExSeconds(3600).Build())
}
