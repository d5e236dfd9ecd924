package live

import (
	"bufio"
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/operator"
	"github.com/lockvet/lockvet/passes/inventory"
)

const liveUsage = `usage: lockvet live -redis ADDR [flags] [packages]

Scans a running Redis, read-only, for lock keys with no TTL: the signature
of a lock whose holder died between SETNX and EXPIRE, held until someone
deletes it by hand. The key patterns come from the inventory of the
packages (default ./...) or from -pattern. For each key SCAN finds, it
sends OBJECT IDLETIME, TYPE and PTTL; string keys with no TTL are stuck
locks. Keys whose remaining TTL is longer than any TTL the code gives
them are listed too.

It sends only AUTH/HELLO, PING, INFO, CLUSTER NODES (in a cluster, to
find every master, each of which is scanned), SCAN, OBJECT IDLETIME, TYPE
and PTTL: never a write. The password is read from LOCKVET_REDIS_PASSWORD
(or REDISCLI_AUTH), never from a flag. docs/live.md shows a read-only ACL
user and how to run this as a cron job or Kubernetes CronJob.

-format prometheus prints the figures of one scan as Prometheus metrics
(for node_exporter's textfile collector or a Pushgateway); -listen ADDR
serves them on /metrics, from a scan every -interval. docs/live.md lists
the metrics, with alert rules.

Exit status: 0 when no stuck lock is found, 1 when one is (with -strict,
also when a TTL is longer than the code sets), 2 on errors (unreachable
server, failed authentication, missing permission, timeout, bad flags).
With -listen: 0 after SIGINT or SIGTERM, 2 when it cannot listen.

Flags:
`

// liveOptions are live's flags.
type liveOptions struct {
	operator.Options
	addr       string
	user       string
	db         int
	patterns   multiFlag
	maxKeys    int
	count      int64
	rate       int
	timeout    time.Duration
	format     string
	strict     bool
	listen     string
	interval   time.Duration
	tls        bool
	tlsCA      string
	tlsCert    string
	tlsKey     string
	tlsName    string
	tlsNoCheck bool
}

// multiFlag is a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// passwordEnv are the environment variables the password is read from, in
// order.
var passwordEnv = []string{"LOCKVET_REDIS_PASSWORD", "REDISCLI_AUTH"}

// Live is lockvet live: it scans the Redis server -redis names for lock
// keys with no TTL, prints what it found or serves it as metrics, and
// returns the exit status. ctx ends an exporter (-listen) as SIGINT and
// SIGTERM do.
func Live(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o liveOptions
	fs := flag.NewFlagSet("lockvet live", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, liveUsage)
		fs.PrintDefaults()
	}
	o.registerConn(fs)
	fs.Var(&o.patterns, "pattern", "scan keys matching this Redis `glob` instead of the inventory's patterns (repeatable)")
	fs.IntVar(&o.maxKeys, "max-keys", 100000, "inspect at most `n` keys, then stop and say the scan is incomplete")
	fs.Int64Var(&o.count, "count", 100, "SCAN COUNT hint: keys the server looks at per SCAN step (`n`)")
	fs.IntVar(&o.rate, "rate", 1000, "send at most `n` commands per second (0: no limit)")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "give up after this `duration` (connection, and the whole scan)")
	fs.StringVar(&o.format, "format", "text", "output `format`: text, json, or prometheus (metrics in the text exposition format)")
	fs.StringVar(&o.listen, "listen", "", "serve Prometheus metrics on http://`addr`/metrics (host:port), scanning every -interval, until SIGINT or SIGTERM")
	fs.DurationVar(&o.interval, "interval", time.Minute, "with -listen: start a scan every `duration`, never more often (a scrape never starts one)")
	fs.BoolVar(&o.strict, "strict", false, "also exit 1 when a lock key's TTL is longer than any TTL the code sets")
	o.Register(fs)
	fail, code, ok := parse(fs, args, stderr)
	if !ok {
		return code
	}
	switch {
	case o.addr == "":
		return fail("-redis ADDR is required (host:port)")
	case o.format != "text" && o.format != "json" && o.format != "prometheus":
		return fail("unknown -format %q (text, json or prometheus)", o.format)
	case o.maxKeys <= 0 || o.count <= 0 || o.rate < 0 || o.timeout <= 0:
		return fail("-max-keys, -count and -timeout must be positive, -rate at least 0")
	case o.listen != "" && o.format != "text" && o.format != "prometheus":
		return fail("-listen serves metrics in the Prometheus format: drop -format %s", o.format)
	case o.listen != "" && o.interval < time.Second:
		return fail("-interval %s: scan at most once a second", o.interval)
	}
	for _, p := range o.patterns {
		if p == "" || !inventory.Useful(p) {
			return fail("-pattern %q matches every key: give a pattern with a literal part (lock:*)", p)
		}
	}
	opts, err := o.clientOptions()
	if err != nil {
		return fail("%v", err)
	}

	// The patterns and the TTLs the code sets.
	var sites []*inventory.Site
	if len(o.patterns) == 0 || fs.NArg() > 0 {
		run, status := load(o.Options, fs.Args(), stderr)
		if run == nil {
			return status
		}
		if status != driver.ExitClean {
			return fail("the packages must load to give the lock key patterns; fix the errors above or pass -pattern")
		}
		sites = run.Sites
		if len(o.patterns) == 0 {
			var unknown []string
			for _, s := range sites {
				if len(s.Patterns) == 0 {
					unknown = append(unknown, run.Pos(s.Pos))
				}
			}
			if len(unknown) > 0 {
				fmt.Fprintf(stderr, "lockvet live: %d lock site(s) have a key whose pattern is unknown and are not scanned (%s); pass -pattern for them\n",
					len(unknown), strings.Join(unknown, ", "))
			}
		}
		for _, s := range sites {
			s.Pos.Filename = run.Rel(s.Pos.Filename)
		}
	}
	patterns := o.patterns
	if len(patterns) == 0 {
		for _, s := range sites {
			patterns = append(patterns, s.Patterns...)
		}
		if len(patterns) == 0 {
			return fail("no lock key patterns found in the code; pass -pattern")
		}
	}
	patterns = minimalPatterns(patterns)

	redis.SetLogger(quietLogger{}) // errors are reported below, once
	sc := newLiveScan(&o, opts, sites, patterns)
	switch {
	case o.listen != "":
		return serveMetrics(ctx, sc, stderr)
	case o.format == "prometheus":
		return printMetrics(ctx, sc, stdout, stderr)
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	rep, err := sc.run(ctx)
	if err != nil {
		// What was found before the error is still worth seeing.
		if rep != nil && len(rep.Stuck)+len(rep.Long) > 0 && o.format == "text" {
			rep.printKeys(stdout)
		}
		if rep != nil && rep.Keys > 0 {
			return fail("%v (the scan is incomplete)", err)
		}
		return fail("%v", err)
	}
	if err := rep.print(stdout, o.format); err != nil {
		return fail("%v", err)
	}
	if rep.Truncated {
		fmt.Fprintf(stderr, "lockvet live: stopped after -max-keys %d keys: the scan is incomplete\n", o.maxKeys)
	}
	if len(rep.Stuck) > 0 || o.strict && len(rep.Long) > 0 {
		return driver.ExitFindings
	}
	return driver.ExitClean
}

// parse parses the command line of fs's command (lockvet live or
// lockvet release). When the command is to end there, ok is false and
// status is its exit status (0 after -h). fail prints a message under
// the command's name and returns driver.ExitError.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) (fail func(format string, args ...any) int, status int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, driver.ExitClean, false
		}
		return nil, driver.ExitError, false
	}
	return func(format string, args ...any) int {
		fmt.Fprintf(stderr, fs.Name()+": "+format+"\n", args...)
		return driver.ExitError
	}, 0, true
}

// load is operator.Load. The tests run the command many times on the
// same module and load it once (loadOnce in live_test.go).
var load = operator.Load

// registerConn registers the connection flags, which release shares.
func (o *liveOptions) registerConn(fs *flag.FlagSet) {
	fs.StringVar(&o.addr, "redis", "", "Redis server `address`: host:port, or a redis:// or rediss:// URL without a password")
	fs.StringVar(&o.user, "user", os.Getenv("LOCKVET_REDIS_USER"), "ACL `user` name (default $LOCKVET_REDIS_USER); the password comes from $LOCKVET_REDIS_PASSWORD or $REDISCLI_AUTH")
	fs.IntVar(&o.db, "db", 0, "database `number` (not in a cluster)")
	fs.BoolVar(&o.tls, "tls", false, "connect with TLS (implied by a rediss:// address)")
	fs.StringVar(&o.tlsCA, "tls-ca", "", "PEM `file` of the CA certificates that sign the server's certificate (default: the system's)")
	fs.StringVar(&o.tlsCert, "tls-cert", "", "PEM `file` of a client certificate, for servers that require one")
	fs.StringVar(&o.tlsKey, "tls-key", "", "PEM `file` of the client certificate's key")
	fs.StringVar(&o.tlsName, "tls-server-name", "", "`name` to verify the server's certificate against (default: the host of -redis)")
	fs.BoolVar(&o.tlsNoCheck, "tls-insecure", false, "do not verify the server's certificate (testing only)")
}

// clientOptions builds the connection options. The password comes only
// from the environment.
func (o *liveOptions) clientOptions() (*redis.Options, error) {
	addr, useTLS := o.addr, o.tls
	db := o.db
	user := o.user
	if strings.Contains(addr, "://") {
		u, err := url.Parse(addr)
		if err != nil {
			return nil, fmt.Errorf("-redis %q: %v", addr, err)
		}
		switch u.Scheme {
		case "redis":
		case "rediss":
			useTLS = true
		default:
			return nil, fmt.Errorf("-redis %q: the scheme must be redis or rediss", addr)
		}
		if _, has := u.User.Password(); has {
			return nil, fmt.Errorf("-redis: do not put the password in the address (it shows in process lists and shell history); set LOCKVET_REDIS_PASSWORD")
		}
		if u.User != nil && u.User.Username() != "" {
			user = u.User.Username()
		}
		if p := strings.Trim(u.Path, "/"); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil {
				return nil, fmt.Errorf("-redis %q: the path must be a database number", addr)
			}
			db = n
		}
		addr = u.Host
		if u.Port() == "" {
			addr = net.JoinHostPort(u.Hostname(), "6379")
		}
	} else if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(addr, "6379")
	}
	var password string
	for _, env := range passwordEnv {
		if password = os.Getenv(env); password != "" {
			break
		}
	}
	opts := &redis.Options{
		Addr:                     addr,
		Username:                 user,
		Password:                 password,
		DB:                       db,
		Protocol:                 2,
		DisableIdentity:          true,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
		DialTimeout:              min(o.timeout, 10*time.Second),
		ReadTimeout:              min(o.timeout, 30*time.Second),
		WriteTimeout:             min(o.timeout, 30*time.Second),
		ContextTimeoutEnabled:    true,
		PoolSize:                 1,
		MaxRetries:               1,
		DialerRetries:            2,
	}
	if useTLS || o.tlsCA != "" || o.tlsCert != "" {
		host, _, _ := net.SplitHostPort(addr)
		cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: cmp.Or(o.tlsName, host), InsecureSkipVerify: o.tlsNoCheck}
		if o.tlsCA != "" {
			pem, err := os.ReadFile(o.tlsCA)
			if err != nil {
				return nil, fmt.Errorf("-tls-ca: %v", err)
			}
			cfg.RootCAs = x509.NewCertPool()
			if !cfg.RootCAs.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("-tls-ca %s: no PEM certificate in it", o.tlsCA)
			}
		}
		if (o.tlsCert == "") != (o.tlsKey == "") {
			return nil, fmt.Errorf("-tls-cert and -tls-key go together")
		}
		if o.tlsCert != "" {
			cert, err := tls.LoadX509KeyPair(o.tlsCert, o.tlsKey)
			if err != nil {
				return nil, fmt.Errorf("-tls-cert/-tls-key: %v", err)
			}
			cfg.Certificates = []tls.Certificate{cert}
		}
		opts.TLSConfig = cfg
	}
	return opts, nil
}

// minimalPatterns sorts and deduplicates patterns and drops a pattern
// without wildcards when another pattern matches it (lock:job:report
// beside lock:job:*): its keys are scanned anyway.
func minimalPatterns(ps []string) []string {
	ps = slices.Clone(ps)
	slices.Sort(ps)
	ps = slices.Compact(ps)
	return slices.DeleteFunc(ps, func(p string) bool {
		lit, ok := literal(p)
		if !ok {
			return false
		}
		for _, q := range ps {
			if q != p && inventory.Match(q, lit) {
				return true
			}
		}
		return false
	})
}

// literal unescapes a pattern with no wildcard.
func literal(p string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '*', '?', '[':
			return "", false
		case '\\':
			if i+1 < len(p) {
				i++
			}
		}
		b.WriteByte(p[i])
	}
	return b.String(), true
}

// limiter spaces commands to at most rate per second.
type limiter struct {
	every time.Duration
	next  time.Time
}

func newLimiter(rate int) *limiter {
	if rate <= 0 {
		return &limiter{}
	}
	return &limiter{every: time.Second / time.Duration(rate)}
}

// wait blocks until n more commands may be sent.
func (l *limiter) wait(ctx context.Context, n int) error {
	if l.every == 0 {
		return ctx.Err()
	}
	now := time.Now()
	if l.next.Before(now) {
		l.next = now
	}
	at := l.next
	l.next = l.next.Add(time.Duration(n) * l.every)
	if d := time.Until(at); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return ctx.Err()
}

// redisTarget is what live and release share about the server they talk
// to: the connection options, the rate limit, and how a client error is
// explained.
type redisTarget struct {
	o     *liveOptions // the connection flags
	opts  *redis.Options
	limit *limiter
	// needs names who lacks a permission, and where the ACL it needs is
	// documented ("the live check", "the read-only ACL").
	needs, acl string
	// progress says, in a timeout message, what was done and what to do.
	progress func() string
}

// liveScan is one run of the live check.
type liveScan struct {
	redisTarget
	sites    []*inventory.Site
	patterns []string
	rep      *liveReport
}

func newLiveScan(o *liveOptions, opts *redis.Options, sites []*inventory.Site, patterns []string) *liveScan {
	sc := &liveScan{sites: sites, patterns: patterns}
	sc.redisTarget = redisTarget{o: o, opts: opts, limit: newLimiter(o.rate), needs: "the live check", acl: "the read-only ACL"}
	sc.progress = func() string {
		return fmt.Sprintf("%d keys inspected; raise -timeout, or narrow the scan with -pattern", sc.rep.Keys)
	}
	return sc
}

// liveReport is what a scan found (the JSON output, schema in
// docs/live.md).
type liveReport struct {
	Nodes     []string  `json:"nodes"`
	Cluster   bool      `json:"cluster"`
	Patterns  []string  `json:"patterns"`
	Keys      int       `json:"keys_inspected"`
	LockKeys  int       `json:"lock_keys"`
	Other     int       `json:"other_type_keys"`
	Truncated bool      `json:"truncated"`
	Stuck     []liveKey `json:"stuck"`
	Long      []liveKey `json:"long_ttl"`

	// byPattern are the lock keys' figures per pattern scanned, for the
	// metrics (a key two patterns match counts under the first scanned).
	byPattern map[string]*patternStats
}

// patternStats are what a scan saw of one pattern's lock keys.
type patternStats struct {
	keys, noTTL, longTTL, older int
	// oldest is the largest lower bound of a key's age, in milliseconds
	// (-1: no key had one); see keyAge.
	oldest int64
	// idle is the longest idle time in seconds (-1: none known).
	idle int64
}

// liveKey is one reported key.
type liveKey struct {
	Node      string   `json:"node"`
	Key       string   `json:"key"`
	Type      string   `json:"type"`
	TTLMillis int64    `json:"ttl_ms"` // -1: no TTL
	CodeTTL   int64    `json:"code_ttl_ms,omitempty"`
	Idle      int64    `json:"idle_s"`  // -1: unknown (an LFU maxmemory policy)
	Pattern   string   `json:"pattern"` // the pattern scanned
	Sites     []string `json:"sites"`   // lock sites whose pattern matches the key
}

func (sc *liveScan) run(ctx context.Context) (*liveReport, error) {
	sc.rep = &liveReport{Patterns: sc.patterns, Stuck: []liveKey{}, Long: []liveKey{}, byPattern: map[string]*patternStats{}}
	for _, p := range sc.patterns {
		sc.rep.byPattern[p] = &patternStats{oldest: -1, idle: -1}
	}
	seed := redis.NewClient(sc.opts)
	defer seed.Close()
	if err := sc.limit.wait(ctx, 1); err != nil {
		return nil, sc.wrap(err, "connect")
	}
	if err := seed.Ping(ctx).Err(); err != nil {
		return nil, sc.wrap(err, "connect")
	}
	nodes, cluster, err := sc.nodes(ctx, seed)
	if err != nil {
		return nil, err
	}
	sc.rep.Cluster = cluster
	for _, addr := range nodes {
		sc.rep.Nodes = append(sc.rep.Nodes, addr)
		c := seed
		if addr != sc.opts.Addr {
			c = redis.NewClient(sc.nodeOptions(addr))
			defer c.Close()
		}
		if err := sc.scanNode(ctx, addr, c); err != nil {
			return sc.rep, err
		}
		if sc.rep.Truncated {
			break
		}
	}
	return sc.rep, nil
}

// nodes returns the addresses that hold the keys: the server itself, or
// every master of its cluster (cluster is then true).
func (t *redisTarget) nodes(ctx context.Context, c *redis.Client) (addrs []string, cluster bool, err error) {
	if err := t.limit.wait(ctx, 1); err != nil {
		return nil, false, t.wrap(err, "INFO cluster")
	}
	info, err := c.Info(ctx, "cluster").Result()
	switch {
	case err != nil && isRedisErr(err) && !strings.Contains(err.Error(), "NOPERM") && !strings.Contains(err.Error(), "NOAUTH"):
		// A server with no cluster section (miniredis) is no cluster.
	case err != nil:
		return nil, false, t.wrap(err, "INFO cluster (to tell a cluster from a single server)")
	}
	if !strings.Contains(info, "cluster_enabled:1") {
		return []string{t.opts.Addr}, false, nil
	}
	if t.opts.DB != 0 {
		return nil, true, fmt.Errorf("%s is a cluster node: a cluster has only database 0, drop -db", t.opts.Addr)
	}
	if err := t.limit.wait(ctx, 1); err != nil {
		return nil, true, t.wrap(err, "CLUSTER NODES")
	}
	text, err := c.ClusterNodes(ctx).Result()
	if err != nil {
		return nil, true, t.wrap(err, "CLUSTER NODES (to find the cluster's masters)")
	}
	masters, err := clusterMasters(text, t.opts.Addr)
	if err != nil {
		return nil, true, fmt.Errorf("%s is a cluster node: %v", t.opts.Addr, err)
	}
	return masters, true, nil
}

// nodeOptions are the connection options for another node of the cluster.
func (t *redisTarget) nodeOptions(addr string) *redis.Options {
	o := *t.opts
	o.Addr = addr
	if o.TLSConfig != nil {
		o.TLSConfig = o.TLSConfig.Clone()
		if t.o.tlsName == "" {
			o.TLSConfig.ServerName, _, _ = net.SplitHostPort(addr)
		}
	}
	return &o
}

// clusterMasters parses CLUSTER NODES and returns the addresses of the
// masters that serve slots, sorted. A master marked failed is an error:
// its keys cannot be scanned.
func clusterMasters(text, seed string) ([]string, error) {
	var out []string
	s := bufio.NewScanner(strings.NewReader(text))
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) < 8 {
			continue
		}
		flags := strings.Split(f[2], ",")
		if !slices.Contains(flags, "master") || len(f) == 8 {
			continue // replicas, and masters without slots
		}
		// ip:port@cport[,hostname]
		addr := f[1]
		if i := strings.IndexByte(addr, '@'); i >= 0 {
			addr = addr[:i]
		}
		if strings.HasPrefix(addr, ":") && slices.Contains(flags, "myself") {
			// A node that has not learned its own IP yet.
			host, _, _ := net.SplitHostPort(seed)
			addr = host + addr
		}
		if slices.Contains(flags, "fail") || slices.Contains(flags, "fail?") {
			return nil, fmt.Errorf("master %s is marked failed: its keys cannot be scanned now", addr)
		}
		out = append(out, addr)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("CLUSTER NODES lists no master serving slots")
	}
	slices.Sort(out)
	return out, nil
}

// scanNode scans one server for every pattern.
func (sc *liveScan) scanNode(ctx context.Context, addr string, c *redis.Client) error {
	seen := map[string]bool{}
	for _, pattern := range sc.patterns {
		var cursor uint64
		for {
			if err := sc.limit.wait(ctx, 1); err != nil {
				return sc.wrap(err, "SCAN")
			}
			keys, next, err := c.Scan(ctx, cursor, pattern, sc.o.count).Result()
			if err != nil {
				return sc.wrap(err, "SCAN")
			}
			var batch []string
			for _, k := range keys {
				if !seen[k] {
					seen[k] = true
					batch = append(batch, k)
				}
			}
			if room := sc.o.maxKeys - sc.rep.Keys; len(batch) > room {
				batch = batch[:room]
				sc.rep.Truncated = true
			}
			if err := sc.inspect(ctx, addr, c, pattern, batch); err != nil {
				return err
			}
			if sc.rep.Truncated || next == 0 {
				break
			}
			cursor = next
		}
		if sc.rep.Truncated {
			return nil
		}
	}
	return nil
}

// inspect sends OBJECT IDLETIME, TYPE and PTTL for each key, in that order
// (none of them changes a key's idle time), and records what it finds.
func (sc *liveScan) inspect(ctx context.Context, addr string, c *redis.Client, pattern string, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	if err := sc.limit.wait(ctx, 3*len(keys)); err != nil {
		return sc.wrap(err, "PTTL")
	}
	type cmds struct{ idle, typ, pttl *redis.Cmd }
	cs := make([]cmds, len(keys))
	_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, k := range keys {
			cs[i] = cmds{p.Do(ctx, "OBJECT", "IDLETIME", k), p.Do(ctx, "TYPE", k), p.Do(ctx, "PTTL", k)}
		}
		return nil
	})
	if err != nil && !isRedisErr(err) {
		// An error reply is handled per key below; a connection error
		// fails the scan.
		return sc.wrap(err, "PTTL")
	}
	for i, k := range keys {
		pttl, err := cs[i].pttl.Int64()
		if err != nil {
			return sc.wrap(err, "PTTL")
		}
		typ, err := cs[i].typ.Text()
		if err != nil {
			return sc.wrap(err, "TYPE")
		}
		idle, err := cs[i].idle.Int64()
		switch {
		case err == nil:
		case errors.Is(err, redis.Nil):
			continue // the key is gone
		case isIdleUnavailable(err):
			idle = -1
		default:
			return sc.wrap(err, "OBJECT IDLETIME")
		}
		if pttl == -2 || typ == "none" {
			continue // expired or deleted since SCAN returned it
		}
		sc.rep.Keys++
		if typ != "string" {
			sc.rep.Other++ // locks are strings
			continue
		}
		sc.rep.LockKeys++
		lk := liveKey{Node: addr, Key: k, Type: typ, TTLMillis: pttl, Idle: idle, Pattern: pattern, Sites: []string{}}
		codeTTL := int64(0)
		known := true
		for _, s := range sc.sites {
			if !slices.ContainsFunc(s.Patterns, func(p string) bool { return inventory.Match(p, k) }) {
				continue
			}
			lk.Sites = append(lk.Sites, fmt.Sprintf("%s:%d:%d", s.Pos.Filename, s.Pos.Line, s.Pos.Column))
			if m := s.MaxTTL(); m > 0 {
				codeTTL = max(codeTTL, m)
			} else {
				known = false
			}
		}
		if !known {
			codeTTL = 0
		}
		ps := sc.rep.byPattern[pattern]
		ps.keys++
		switch {
		case pttl == -1:
			sc.rep.Stuck = append(sc.rep.Stuck, lk)
			ps.noTTL++
		case codeTTL > 0 && pttl > codeTTL:
			lk.CodeTTL = codeTTL
			sc.rep.Long = append(sc.rep.Long, lk)
			ps.longTTL++
		}
		age := keyAge(pttl, idle, codeTTL)
		ps.oldest = max(ps.oldest, age)
		ps.idle = max(ps.idle, idle)
		if codeTTL > 0 && age > codeTTL {
			ps.older++
		}
	}
	return nil
}

// keyAge is a lower bound of a lock key's age in milliseconds, -1 when
// there is none: the larger of its idle time (the key was written when it
// was created, so it has existed at least as long as it has been idle) and,
// when the code gives the key a constant TTL and its remaining TTL is no
// longer, that TTL minus the remaining TTL (the time since the acquire, or
// since the last renewal). Both are estimates of how long the lock has
// been held: a renewal or a read resets them.
func keyAge(pttl, idle, codeTTL int64) int64 {
	age := int64(-1)
	if idle >= 0 {
		age = idle * 1000
	}
	if codeTTL > 0 && pttl >= 0 && pttl <= codeTTL {
		age = max(age, codeTTL-pttl)
	}
	return age
}

func isRedisErr(err error) bool {
	var re redis.Error
	return errors.As(err, &re)
}

// isIdleUnavailable: OBJECT IDLETIME fails under an LFU maxmemory policy.
func isIdleUnavailable(err error) bool {
	return err != nil && strings.Contains(err.Error(), "LFU")
}

// wrap turns a client error into a message that says what to do.
func (t *redisTarget) wrap(err error, what string) error {
	addr := t.opts.Addr
	msg := err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s at %s: timed out after -timeout %s (%s)", what, addr, t.o.timeout, t.progress())
	case strings.Contains(msg, "WRONGPASS"), strings.Contains(msg, "NOAUTH"), strings.Contains(msg, "invalid password"),
		strings.Contains(msg, "invalid username-password"), strings.Contains(msg, "failed to authenticate"):
		who := "the default user"
		if t.opts.Username != "" {
			who = "user " + strconv.Quote(t.opts.Username)
		}
		src := "no password set: set LOCKVET_REDIS_PASSWORD"
		if t.opts.Password != "" {
			src = "password from " + passwordSource()
		}
		return fmt.Errorf("authentication to %s failed for %s (%s): %s", addr, who, src, msg)
	case strings.Contains(msg, "NOPERM"):
		return fmt.Errorf("%s at %s: the user lacks a permission %s needs: %s; docs/live.md lists %s", what, addr, t.needs, msg, t.acl)
	case !isRedisErr(err):
		var ne net.Error
		var oe *net.OpError
		if errors.As(err, &oe) || errors.As(err, &ne) || errors.Is(err, io.EOF) || strings.Contains(msg, "connection refused") {
			return fmt.Errorf("cannot reach Redis at %s: %v", addr, err)
		}
	}
	return fmt.Errorf("%s at %s: %v", what, addr, err)
}

func passwordSource() string {
	for _, env := range passwordEnv {
		if os.Getenv(env) != "" {
			return env
		}
	}
	return "the environment"
}

// print writes the report.
func (r *liveReport) print(w io.Writer, format string) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(r)
	}
	r.printKeys(w)
	nodes := "1 server"
	if r.Cluster {
		nodes = fmt.Sprintf("%d cluster masters", len(r.Nodes))
	}
	fmt.Fprintf(w, "%d stuck lock key(s), %d with a TTL longer than the code sets; %d lock key(s) (%d keys) matching %d pattern(s) inspected on %s\n",
		len(r.Stuck), len(r.Long), r.LockKeys, r.Keys, len(r.Patterns), nodes)
	return nil
}

// printKeys writes one line per reported key.
func (r *liveReport) printKeys(w io.Writer) {
	node := func(k liveKey) string {
		if r.Cluster {
			return k.Node + " "
		}
		return ""
	}
	for _, k := range r.Stuck {
		fmt.Fprintf(w, "%s%s: no TTL: this lock never expires and blocks every other holder until it is deleted%s%s\n",
			node(k), quoteKey(k.Key), idleText(k.Idle), sitesText(k.Sites))
	}
	for _, k := range r.Long {
		fmt.Fprintf(w, "%s%s: TTL %s left, longer than the %s the code sets%s%s\n",
			node(k), quoteKey(k.Key), millis(k.TTLMillis), millis(k.CodeTTL), idleText(k.Idle), sitesText(k.Sites))
	}
}

// millis renders a TTL, to the second when it is long.
func millis(ms int64) time.Duration {
	d := time.Duration(ms) * time.Millisecond
	if d >= 10*time.Second {
		d = d.Round(time.Second)
	}
	return d
}

// quietLogger drops go-redis's log lines.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func idleText(idle int64) string {
	if idle < 0 {
		return ""
	}
	return fmt.Sprintf(" (idle %s)", time.Duration(idle)*time.Second)
}

func sitesText(sites []string) string {
	if len(sites) == 0 {
		return ""
	}
	return "; taken at " + strings.Join(sites, ", ")
}

// quoteKey prints a key as is when it is printable text, quoted otherwise.
func quoteKey(k string) string {
	if !utf8.ValidString(k) || strings.ContainsFunc(k, func(r rune) bool { return r < ' ' || r == 0x7f || r == ' ' }) {
		return strconv.Quote(k)
	}
	return k
}
