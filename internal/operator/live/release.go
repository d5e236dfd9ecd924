package live

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"

	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/passes/inventory"
)

const releaseUsage = `usage: lockvet release -redis ADDR -key KEY -reason TEXT [-token VALUE]
       lockvet release -redis ADDR -pattern GLOB -reason TEXT [-yes]

Force-releases a lock by hand, and records who did it and why.

With -key alone it shows the key's value, TTL and idle time, and changes
nothing. With -token VALUE (the value just shown) it deletes the key only
if it still holds that value, in one step on the server (a Lua
compare-and-delete): a lock that its holder released and a new holder
took in between is never removed.

With -pattern it lists every key the glob matches (every master of a
cluster is scanned); with -yes as well it releases each one by the same
compare-and-delete, with the value it has just read.

Every release is recorded: time, operator (-operator, else the user behind
sudo, else the OS user), host, reason, key, the value removed, its TTL and
idle time. The record goes to a Redis stream (-audit-stream) and to
stdout, one JSON object a line; explanations go to stderr. On a single
server the stream entry and the delete happen in the same script: there
is never one without the other.

It sends PING, INFO cluster, CLUSTER NODES and CLUSTER SLOTS (in a
cluster), SCAN (with -pattern), OBJECT IDLETIME, TYPE, PTTL, GET, and
EVALSHA/EVAL of its script, which runs GET, PTTL, OBJECT IDLETIME, XADD
and DEL. docs/live.md shows an ACL user that can do this and nothing
else. The password is read from LOCKVET_REDIS_PASSWORD (or REDISCLI_AUTH).

Exit status: 0 when the key was shown, or released (with -pattern: every
lock key); 1 when a key was not released because it no longer holds the
value (a new holder, or it expired), or -key names no key; 2 on errors
(missing -reason, unreachable server, failed authentication, missing
permission, a key that is not a string, bad flags).

Flags:
`

// releaseOptions are release's flags.
type releaseOptions struct {
	conn     liveOptions // the connection flags, -timeout and -rate
	key      string
	pattern  string
	token    string
	reason   string
	operator string
	stream   string
	yes      bool
	maxKeys  int
}

// Release is lockvet release: it shows a lock, or deletes it only while
// it holds the value given, records who did it and why, and returns the
// exit status.
func Release(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o releaseOptions
	fs := flag.NewFlagSet("lockvet release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, releaseUsage)
		fs.PrintDefaults()
	}
	o.conn.registerConn(fs)
	fs.StringVar(&o.key, "key", "", "the lock `key` to show or release")
	fs.StringVar(&o.pattern, "pattern", "", "list the keys matching this Redis `glob` (all locks of a business key); release them with -yes")
	fs.StringVar(&o.token, "token", "", "with -key: release the key only while it holds this `value` (the value shown)")
	fs.BoolVar(&o.yes, "yes", false, "with -pattern: release every lock key listed, each only while it holds the value just read")
	fs.StringVar(&o.reason, "reason", "", "why, in a few words (`text`, required; it goes into the audit record)")
	fs.StringVar(&o.operator, "operator", "", "who releases, for the audit record (`name`; default: $SUDO_USER, else the OS user)")
	fs.StringVar(&o.stream, "audit-stream", "lockvet:audit", "Redis stream `key` the audit records are added to (\"\": stdout only)")
	fs.IntVar(&o.maxKeys, "max-keys", 1000, "with -pattern: refuse when more than `n` keys match")
	fs.Int64Var(&o.conn.count, "count", 100, "with -pattern: SCAN COUNT hint (`n`)")
	fs.IntVar(&o.conn.rate, "rate", 1000, "send at most `n` SCAN steps a second (0: no limit)")
	fs.DurationVar(&o.conn.timeout, "timeout", 30*time.Second, "give up after this `duration`")
	fail, code, ok := parse(fs, args, stderr)
	if !ok {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case fs.NArg() > 0:
		return fail("unexpected argument %q: release takes no packages", fs.Arg(0))
	case o.conn.addr == "":
		return fail("-redis ADDR is required (host:port)")
	case strings.TrimSpace(o.reason) == "":
		return fail("-reason TEXT is required: say why the lock is released (it goes into the audit record)")
	case (o.key == "") == (o.pattern == ""):
		return fail("give -key KEY (one lock) or -pattern GLOB (the locks of a business key)")
	case set["token"] && o.key == "":
		return fail("-token goes with -key; -pattern -yes compares each key with the value it reads")
	case set["token"] && o.token == "":
		return fail("-token \"\": give the value the key holds (run without -token to see it)")
	case o.yes && o.pattern == "":
		return fail("-yes goes with -pattern; with -key, pass -token VALUE")
	case o.pattern != "" && !inventory.Useful(o.pattern):
		return fail("-pattern %q matches every key: give a pattern with a literal part (lock:order:*)", o.pattern)
	case o.maxKeys <= 0 || o.conn.count <= 0 || o.conn.rate < 0 || o.conn.timeout <= 0:
		return fail("-max-keys, -count and -timeout must be positive, -rate at least 0")
	}
	operator, err := operatorName(o.operator)
	if err != nil {
		return fail("%v", err)
	}
	opts, err := o.conn.clientOptions()
	if err != nil {
		return fail("%v", err)
	}
	// A command is never sent twice: a compare-and-delete whose reply was
	// lost has run, and must be reported as unknown, not run again.
	opts.MaxRetries = -1

	redis.SetLogger(quietLogger{})
	ctx, cancel := context.WithTimeout(ctx, o.conn.timeout)
	defer cancel()
	r := &releaser{o: &o, operator: operator, stdout: stdout, stderr: stderr}
	r.redisTarget = redisTarget{o: &o.conn, opts: opts, limit: newLimiter(o.conn.rate), needs: "release", acl: "the release user's ACL"}
	r.progress = func() string { return "raise -timeout" }
	r.host, _ = os.Hostname()
	status, err := r.run(ctx)
	if err != nil {
		return fail("%v", err)
	}
	return status
}

// operatorName is -operator, else the user behind sudo, else the OS user.
func operatorName(flagValue string) (string, error) {
	if n := strings.TrimSpace(flagValue); n != "" {
		return n, nil
	}
	if n := os.Getenv("SUDO_USER"); n != "" {
		return n, nil
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username, nil
	}
	if n := os.Getenv("USER"); n != "" {
		return n, nil
	}
	return "", fmt.Errorf("cannot tell who is releasing: pass -operator NAME")
}

// releaseSrc deletes KEYS[1] only while it holds ARGV[1]. ARGV[2] is the
// key's idle time when the caller read it before its own GET reset it,
// or "" for the script to read it. With a second key, the audit stream,
// it first adds the record ARGV[3:] (field, value pairs) with the key's
// TTL and idle time to it, so that the delete and its record happen
// together: the permission checks come before either write (Redis does
// not undo a script's writes when it fails midway). It returns {1, pttl,
// idle, stream id} when it deleted the key, {0} when there was no key,
// {-1, value} when the key held another value, {-2, type} when the key is
// not a string (so that a WRONGTYPE error can only be the stream's).
const releaseSrc = `local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return {0} end
if t ~= 'string' then return {-2, t} end
local idle = tonumber(ARGV[2])
if idle == nil then
	idle = redis.pcall('OBJECT', 'IDLETIME', KEYS[1])
	if type(idle) ~= 'number' then idle = -1 end
end
local v = redis.call('GET', KEYS[1])
if v ~= ARGV[1] then return {-1, v} end
local ttl = redis.call('PTTL', KEYS[1])
if redis.acl_check_cmd then
	if not redis.acl_check_cmd('DEL', KEYS[1]) then
		return redis.error_reply('NOPERM this user has no permission to run the del command on ' .. KEYS[1])
	end
	if #KEYS > 1 and not redis.acl_check_cmd('XADD', KEYS[2], '*', 'f', 'v') then
		return redis.error_reply('NOPERM this user has no permission to run the xadd command on ' .. KEYS[2])
	end
end
local id = ''
if #KEYS > 1 then
	local rec = {}
	for i = 3, #ARGV do rec[#rec + 1] = ARGV[i] end
	rec[#rec + 1] = 'ttl_ms'
	rec[#rec + 1] = tostring(ttl)
	rec[#rec + 1] = 'idle_s'
	rec[#rec + 1] = tostring(idle)
	id = redis.call('XADD', KEYS[2], '*', unpack(rec))
end
redis.call('DEL', KEYS[1])
return {1, ttl, idle, id}`

// canAddSrc says whether the user may XADD to KEYS[1] (1) or not (0); on
// a server without ACL checks in scripts (before Redis 7) it says 1.
const canAddSrc = `if redis.acl_check_cmd and not redis.acl_check_cmd('XADD', KEYS[1], '*', 'f', 'v') then return 0 end
return 1`

var (
	releaseScript = redis.NewScript(releaseSrc)
	canAddScript  = redis.NewScript(canAddSrc)
)

// releaser is one run of lockvet release.
type releaser struct {
	redisTarget
	o        *releaseOptions
	operator string
	host     string
	stdout   io.Writer
	stderr   io.Writer

	c       redis.UniversalClient // per-key commands: the server, or the cluster
	seed    *redis.Client
	masters []string
	cluster bool
}

// keyState is a key as read before a release.
type keyState struct {
	Key    string
	Exists bool
	Type   string
	Value  string // when a string
	PTTL   int64  // milliseconds; -1 none
	Idle   int64  // seconds; -1 unknown
}

// auditRecord is what a release records (stdout JSON and the stream
// entry's fields, in this order; docs/live.md).
type auditRecord struct {
	Time      string `json:"time"`
	Operator  string `json:"operator"`
	Host      string `json:"host"`
	Reason    string `json:"reason"`
	Redis     string `json:"redis"`
	Key       string `json:"key"`
	Value     string `json:"value"`
	ValueHex  string `json:"value_hex,omitempty"` // when the value is not UTF-8
	TTLMillis int64  `json:"ttl_ms"`              // -1: it had no TTL
	Idle      int64  `json:"idle_s"`              // -1: unknown
	Stream    string `json:"stream,omitempty"`
	StreamID  string `json:"stream_id,omitempty"`
}

func (r *releaser) run(ctx context.Context) (int, error) {
	r.seed = redis.NewClient(r.opts)
	defer r.seed.Close()
	if err := r.seed.Ping(ctx).Err(); err != nil {
		return driver.ExitError, r.wrap(err, "connect")
	}
	var err error
	r.masters, r.cluster, err = r.nodes(ctx, r.seed)
	if err != nil {
		return driver.ExitError, err
	}
	r.c = r.seed
	if r.cluster {
		cc := redis.NewClusterClient(r.clusterOptions())
		defer cc.Close()
		r.c = cc
	}
	if r.o.key != "" {
		return r.one(ctx)
	}
	return r.all(ctx)
}

// clusterOptions are the options of a cluster client like the seed's.
func (r *releaser) clusterOptions() *redis.ClusterOptions {
	o := r.opts
	co := &redis.ClusterOptions{
		Addrs: []string{o.Addr}, Username: o.Username, Password: o.Password,
		Protocol: o.Protocol, DisableIdentity: true, MaxRetries: -1,
		DialTimeout: o.DialTimeout, ReadTimeout: o.ReadTimeout, WriteTimeout: o.WriteTimeout,
		ContextTimeoutEnabled: true, PoolSize: 1, DialerRetries: o.DialerRetries,
	}
	if o.TLSConfig != nil {
		co.TLSConfig = o.TLSConfig.Clone()
		co.TLSConfig.ServerName = r.o.conn.tlsName // each node's own host otherwise
	}
	return co
}

// one handles -key: show it, or release it with -token.
func (r *releaser) one(ctx context.Context) (int, error) {
	// Before a release, the value is not read: GET would reset the idle
	// time the script records.
	st, err := r.read(ctx, []string{r.o.key}, r.o.token == "")
	if err != nil {
		return driver.ExitError, err
	}
	s := st[0]
	if r.o.token == "" {
		if !s.Exists {
			fmt.Fprintf(r.stderr, "lockvet release: %s does not exist (released, expired, or never taken): nothing to release\n", quoteKey(s.Key))
			return driver.ExitFindings, nil
		}
		r.show(s)
		if s.Type != "string" {
			return driver.ExitError, fmt.Errorf("%s is a %s, not a string: not a lock that release deletes", quoteKey(s.Key), s.Type)
		}
		r.hint(s)
		return driver.ExitClean, nil
	}
	if s.Exists && s.Type != "string" {
		return driver.ExitError, fmt.Errorf("%s is a %s, not a string: not a lock that release deletes", quoteKey(s.Key), s.Type)
	}
	released, err := r.release(ctx, r.o.key, r.o.token, -1)
	if err != nil {
		return driver.ExitError, err
	}
	if !released {
		return driver.ExitFindings, nil
	}
	return driver.ExitClean, nil
}

// all handles -pattern: list the keys, and release them with -yes.
func (r *releaser) all(ctx context.Context) (int, error) {
	keys, err := r.scan(ctx)
	if err != nil {
		return driver.ExitError, err
	}
	if len(keys) == 0 {
		fmt.Fprintf(r.stderr, "lockvet release: no key matches %s: nothing to release\n", r.o.pattern)
		return driver.ExitClean, nil
	}
	states, err := r.read(ctx, keys, true)
	if err != nil {
		return driver.ExitError, err
	}
	var locks []keyState
	for _, s := range states {
		if !s.Exists {
			continue // gone since SCAN
		}
		if s.Type != "string" {
			fmt.Fprintf(r.stderr, "lockvet release: %s is a %s, not a lock: left alone\n", quoteKey(s.Key), s.Type)
			continue
		}
		locks = append(locks, s)
	}
	if !r.o.yes {
		for _, s := range locks {
			r.show(s)
		}
		fmt.Fprintf(r.stderr, "lockvet release: %d lock key(s) match %s; nothing released: add -yes to release each one while it holds the value it holds then\n",
			len(locks), r.o.pattern)
		return driver.ExitClean, nil
	}
	status, n := driver.ExitClean, 0
	for _, s := range locks {
		released, err := r.release(ctx, s.Key, s.Value, s.Idle)
		if err != nil {
			fmt.Fprintf(r.stderr, "lockvet release: released %d of %d lock key(s) before an error\n", n, len(locks))
			return driver.ExitError, err
		}
		if released {
			n++
		} else {
			status = driver.ExitFindings
		}
	}
	fmt.Fprintf(r.stderr, "lockvet release: released %d of %d lock key(s) matching %s\n", n, len(locks), r.o.pattern)
	return status, nil
}

// scan returns the keys matching -pattern on every master, refusing more
// than -max-keys.
func (r *releaser) scan(ctx context.Context) ([]string, error) {
	seen := map[string]bool{}
	var keys []string
	for _, addr := range r.masters {
		c := r.seed
		if addr != r.opts.Addr {
			c = redis.NewClient(r.nodeOptions(addr))
			defer c.Close()
		}
		var cursor uint64
		for {
			if err := r.limit.wait(ctx, 1); err != nil {
				return nil, r.wrap(err, "SCAN")
			}
			batch, next, err := c.Scan(ctx, cursor, r.o.pattern, r.o.conn.count).Result()
			if err != nil {
				return nil, r.wrap(err, "SCAN at "+addr)
			}
			for _, k := range batch {
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
			if len(keys) > r.o.maxKeys {
				return nil, fmt.Errorf("more than -max-keys %d keys match %s: nothing released; narrow the pattern, or raise -max-keys", r.o.maxKeys, r.o.pattern)
			}
			if next == 0 {
				break
			}
			cursor = next
		}
	}
	slices.Sort(keys)
	return keys, nil
}

// read sends OBJECT IDLETIME, TYPE, PTTL and, with value, GET for each
// key, in that order, so that the idle time is read before GET resets it.
func (r *releaser) read(ctx context.Context, keys []string, value bool) ([]keyState, error) {
	out := make([]keyState, 0, len(keys))
	for chunk := range slices.Chunk(keys, 100) {
		type cmds struct{ idle, typ, pttl, get *redis.Cmd }
		cs := make([]cmds, len(chunk))
		_, err := r.c.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, k := range chunk {
				cs[i] = cmds{idle: p.Do(ctx, "OBJECT", "IDLETIME", k), typ: p.Do(ctx, "TYPE", k), pttl: p.Do(ctx, "PTTL", k)}
				if value {
					cs[i].get = p.Do(ctx, "GET", k)
				}
			}
			return nil
		})
		if err != nil && !isRedisErr(err) {
			return nil, r.wrap(err, "reading "+quoteKey(chunk[0]))
		}
		for i, k := range chunk {
			s := keyState{Key: k}
			typ, err := cs[i].typ.Text()
			if err != nil {
				return nil, r.wrap(err, "TYPE "+quoteKey(k))
			}
			if typ == "none" {
				out = append(out, s)
				continue
			}
			s.Exists, s.Type = true, typ
			if s.PTTL, err = cs[i].pttl.Int64(); err != nil {
				return nil, r.wrap(err, "PTTL "+quoteKey(k))
			}
			switch s.Idle, err = cs[i].idle.Int64(); {
			case err == nil:
			case isIdleUnavailable(err), errors.Is(err, redis.Nil):
				s.Idle = -1
			default:
				return nil, r.wrap(err, "OBJECT IDLETIME "+quoteKey(k))
			}
			if typ == "string" && value {
				switch s.Value, err = cs[i].get.Text(); {
				case err == nil:
				case errors.Is(err, redis.Nil):
					s.Exists = false // expired between TYPE and GET
				default:
					return nil, r.wrap(err, "GET "+quoteKey(k))
				}
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// show prints a key as read.
func (r *releaser) show(s keyState) {
	var b strings.Builder
	b.WriteString(quoteKey(s.Key))
	if s.Type == "string" {
		fmt.Fprintf(&b, "  value %q", s.Value)
	} else {
		fmt.Fprintf(&b, "  a %s", s.Type)
	}
	if s.PTTL < 0 {
		b.WriteString("  TTL none (never expires)")
	} else {
		fmt.Fprintf(&b, "  TTL %s", millis(s.PTTL))
	}
	if s.Idle >= 0 {
		fmt.Fprintf(&b, "  idle %s", time.Duration(s.Idle)*time.Second)
	}
	fmt.Fprintln(r.stdout, b.String())
}

// hint prints the command that releases the key just shown.
func (r *releaser) hint(s keyState) {
	if !utf8.ValidString(s.Value) || strings.ContainsFunc(s.Value, func(c rune) bool { return c < ' ' || c == 0x7f }) {
		fmt.Fprintf(r.stdout, "The value has bytes a command line cannot pass to -token; to release it while it holds this value:\n  lockvet release -redis %s -pattern %s -yes -reason %s\n",
			shellQuote(r.o.conn.addr), shellQuote(globEscape(s.Key)), shellQuote(r.o.reason))
		return
	}
	fmt.Fprintf(r.stdout, "To release it only while it holds this value:\n  lockvet release -redis %s -key %s -token %s -reason %s\n",
		shellQuote(r.o.conn.addr), shellQuote(s.Key), shellQuote(s.Value), shellQuote(r.o.reason))
}

// release deletes key if it holds token, records it, and says whether it
// did. idle is the key's idle time as read before the value was, or -1
// for the script to read it. A key that holds another value, or none, is
// explained on stderr.
func (r *releaser) release(ctx context.Context, key, token string, idle int64) (bool, error) {
	rec := auditRecord{
		Time:     time.Now().UTC().Format(time.RFC3339Nano),
		Operator: r.operator, Host: r.host, Reason: r.o.reason,
		Redis: r.opts.Addr, Key: key, Value: token,
	}
	if !utf8.ValidString(token) {
		rec.ValueHex = hex.EncodeToString([]byte(token))
	}
	keys := []string{key}
	args := []any{token, ""}
	if idle >= 0 {
		args[1] = idle
	}
	// In a cluster the stream is usually on another master than the key:
	// a script cannot write both, so the record is added after the delete,
	// once the user is known to be allowed to.
	inScript := r.o.stream != "" && !r.cluster
	if inScript {
		keys = append(keys, r.o.stream)
		args = append(args, "time", rec.Time, "operator", rec.Operator, "host", rec.Host, "reason", rec.Reason,
			"redis", rec.Redis, "key", key, "value", token)
	}
	if r.o.stream != "" && r.cluster {
		ok, err := canAddScript.Run(ctx, r.c, []string{r.o.stream}).Int()
		if err != nil {
			return false, r.releaseErr(err, key, "checking that the audit stream "+quoteKey(r.o.stream)+" can be written", false)
		}
		if ok != 1 {
			return false, fmt.Errorf("the user may not add to the audit stream %s (XADD): nothing released; docs/live.md lists %s", quoteKey(r.o.stream), r.acl)
		}
	}
	res, err := releaseScript.Run(ctx, r.c, keys, args...).Slice()
	if err != nil {
		return false, r.releaseErr(err, key, "releasing "+quoteKey(key), true)
	}
	switch code, _ := res[0].(int64); code {
	case 0:
		fmt.Fprintf(r.stderr, "lockvet release: %s no longer exists (released or expired since it was read): nothing deleted\n", quoteKey(key))
		return false, nil
	case -2:
		typ, _ := res[1].(string)
		return false, fmt.Errorf("%s is a %s, not a string: not a lock that release deletes", quoteKey(key), typ)
	case -1:
		now, _ := res[1].(string)
		fmt.Fprintf(r.stderr, "lockvet release: %s now holds %q, not %q: not the lock that was shown (a new holder has taken it, or the token is mistyped); nothing deleted\n", quoteKey(key), now, token)
		return false, nil
	}
	rec.TTLMillis, _ = res[1].(int64)
	rec.Idle, _ = res[2].(int64)
	if r.o.stream != "" {
		rec.Stream = r.o.stream
		rec.StreamID, _ = res[3].(string)
	}
	var addErr error
	if r.o.stream != "" && r.cluster {
		rec.StreamID, addErr = r.c.XAdd(ctx, &redis.XAddArgs{Stream: r.o.stream, Values: []any{
			"time", rec.Time, "operator", rec.Operator, "host", rec.Host, "reason", rec.Reason, "redis", rec.Redis,
			"key", key, "value", token, "ttl_ms", strconv.FormatInt(rec.TTLMillis, 10), "idle_s", strconv.FormatInt(rec.Idle, 10),
		}}).Result()
		if addErr != nil {
			rec.StreamID = ""
		}
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return true, err
	}
	fmt.Fprintf(r.stdout, "%s\n", line)
	if addErr != nil {
		return true, fmt.Errorf("%s was released, but its audit record could not be added to %s: %v; the record is on stdout", quoteKey(key), quoteKey(r.o.stream), addErr)
	}
	return true, nil
}

// releaseErr explains a failed script. sent says the script is the
// compare-and-delete: when no reply came back, it may have run.
func (r *releaser) releaseErr(err error, key, what string, sent bool) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "WRONGTYPE"):
		// The script checks the key's type: this is the stream's.
		return fmt.Errorf("the audit stream %s is not a stream (%s): nothing released; remove that key or choose another -audit-stream", quoteKey(r.o.stream), msg)
	case strings.Contains(msg, "READONLY"):
		return fmt.Errorf("%s is a replica, which cannot delete: point -redis at the master", r.opts.Addr)
	case sent && !isRedisErr(err):
		return fmt.Errorf("%v; no reply came back, so the release may have happened: check the key and the audit stream", r.wrap(err, what))
	}
	return r.wrap(err, what)
}

// shellQuote quotes s for a POSIX shell, when it needs it.
func shellQuote(s string) string {
	if s != "" && safeShell().MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

var safeShell = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_./:@%+=,-]+$`) })

// globEscape escapes the glob characters of a literal key.
func globEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}
