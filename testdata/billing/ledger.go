package billing

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

var unlockLedger = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// ExportLedger writes one day's ledger to the archive; a lock keeps two
// exporters apart. The release is owner-checked, but the lock has no TTL:
// an exporter killed mid-run holds it forever.
func ExportLedger(ctx context.Context, rdb *redis.Client, day, token string, export func(context.Context) error) error {
	key := "lock:ledger:" + day
	ok, err := rdb.SetNX(ctx, key, token, 0).Result() // LV103: no TTL, and nothing ever expires it
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("billing: ledger export already running")
	}
	defer unlockLedger.Run(ctx, rdb, []string{key}, token)
	return export(ctx)
}
