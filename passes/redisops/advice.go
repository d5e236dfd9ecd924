package redisops

// Advice is a one-step form a finding recommends. Checks put the text in
// their messages; the wording comes from the adapter of the op's client,
// so that checks never name client APIs and each client's users read
// their own idiom (redigo's SETNX takes no TTL; memcached has no Lua).
type Advice uint8

const (
	// AdviseTTL: take the lock and set its TTL in one command. For an
	// acquire (LV101–LV103).
	AdviseTTL Advice = iota + 1
	// AdviseRelease: delete the lock only while it holds this holder's
	// token, in one step. For a delete (LV201, LV202).
	AdviseRelease
	// AdviseRenew: extend the lock only while it holds this holder's
	// token, in one step. For an expire (LV203).
	AdviseRenew
	// AdviseInTx: an op queued in a pipeline inside an optimistic
	// transaction (Scope.InWatch, Kind Pipeline) goes out outside
	// MULTI/EXEC, unguarded by the WATCH: how to queue it in the
	// transaction instead. "" when the client has no such pipeline.
	AdviseInTx
)

// Advice is the client's wording of a for o: an imperative clause such as
// "pass the TTL to SetNX". For AdviseTTL there is always one; for the
// others it is "" when the client's form is the Redis one the check
// describes itself (a Lua script, DELEX).
func (o *Op) Advice(a Advice) string {
	if ad, ok := o.adapter.(adviser); ok {
		if s := ad.advice(o, a); s != "" {
			return s
		}
	}
	if a != AdviseTTL {
		return ""
	}
	if o.TTLUnit == NoUnit {
		// No TTL parameter: INCR, a declared wrapper without one.
		return "use SET key value NX PX ttl"
	}
	return "pass the TTL to " + o.Method
}
