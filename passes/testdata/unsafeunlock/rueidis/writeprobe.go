package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

// A start-up probe: SET NX PX 1 of a literal key, deleted at once.
func probeWrite(ctx context.Context, client rueidis.Client) error {
	if err := client.Do(ctx, client.B().Set().Key("lock:probe").Value("1").Nx().PxMilliseconds(1).Build()).Error(); err != nil && !rueidis.IsRedisNil(err) {
		return err
	}
	return client.Do(ctx, client.B().Del().Key("lock:probe").Build()).Error()
}
