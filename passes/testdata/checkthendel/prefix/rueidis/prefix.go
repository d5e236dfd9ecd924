package rueidis

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/redis/rueidis"
)

// The owner is the process: the lock's value starts with the host name and
// the process id, then the time of the acquire; the release checks the
// prefix only.
var (
	hostname, _ = os.Hostname()
	pid         = os.Getpid()
)

func lockerValue() string {
	return fmt.Sprintf("owner:%s<%d>(%s)", hostname, pid, time.Now().Format(time.RFC3339Nano))
}

func mine(v string) bool {
	return strings.HasPrefix(v, fmt.Sprintf("owner:%s<%d>(", hostname, pid))
}

func lock(ctx context.Context, client rueidis.Client, key string) bool {
	return client.Do(ctx, client.B().Set().Key(key).Value(lockerValue()).Nx().ExSeconds(10).Build()).Error() == nil
}

// GET, the prefix check in a predicate of the package, DEL: two round
// trips. The DEL becomes a script that checks the prefix itself.
func unlock(ctx context.Context, client rueidis.Client, key string) bool {
	v, err := client.Do(ctx, client.B().Get().Key(key).Build()).ToString()
	if err != nil {
		return false
	}
	if !mine(v) {
		return false
	}
	n, err := client.Do(ctx, client.B().Del().Key(key).Build()).AsInt64() // want `DEL of key after a separate GET and prefix compare can delete another holder's lock; compare and delete in one step`
	return err == nil && n == 1
}

// --- silent ---

// A constant prefix is every holder's: no owner check to make atomic.
func unlockConstPrefix(ctx context.Context, client rueidis.Client, key string) {
	lock(ctx, client, key)
	if v, _ := client.Do(ctx, client.B().Get().Key(key).Build()).ToString(); strings.HasPrefix(v, "owner:") {
		client.Do(ctx, client.B().Del().Key(key).Build())
	}
}
