package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"

	"github.com/lockvet/lockvet/passes/inventory"
)

// The metrics of lockvet live (-format prometheus, -listen). Every series
// has the label redis, the server scanned (the -redis address); the lock
// figures also have pattern, the key pattern scanned. docs/live.md lists
// them with alert rules.
var (
	labelsRedis   = []string{"redis"}
	labelsPattern = []string{"redis", "pattern"}

	descLockKeys = prometheus.NewDesc("lockvet_lock_keys",
		"Lock keys (string keys) matching the pattern, at the last successful scan.", labelsPattern, nil)
	descNoTTL = prometheus.NewDesc("lockvet_lock_keys_without_ttl",
		"Lock keys with no TTL (stuck locks: nobody but a person deletes them), at the last successful scan.", labelsPattern, nil)
	descLongTTL = prometheus.NewDesc("lockvet_lock_keys_ttl_above_code",
		"Lock keys whose remaining TTL is longer than any TTL the code gives them, at the last successful scan.", labelsPattern, nil)
	descOlder = prometheus.NewDesc("lockvet_lock_keys_older_than_code_ttl",
		"Lock keys whose estimated age (see lockvet_lock_oldest_age_seconds) exceeds the TTL the code gives them, at the last successful scan.", labelsPattern, nil)
	descOldest = prometheus.NewDesc("lockvet_lock_oldest_age_seconds",
		"Estimated age of the pattern's oldest lock key, a lower bound: the larger of its idle time and, where the code's TTL is a constant, that TTL minus the remaining TTL. A renewal resets both; a read resets the idle time. Absent when no key had one.", labelsPattern, nil)
	descIdle = prometheus.NewDesc("lockvet_lock_longest_idle_seconds",
		"Longest OBJECT IDLETIME among the pattern's lock keys: how long nobody read or wrote the key. Absent when no key had one (no key, or an LFU maxmemory policy).", labelsPattern, nil)
	descCodeTTL = prometheus.NewDesc("lockvet_lock_code_ttl_seconds",
		"The longest TTL the code gives locks of this pattern, at acquire or renewal, when every such TTL is a constant. Absent otherwise.", labelsPattern, nil)

	descSuccess = prometheus.NewDesc("lockvet_live_scan_success",
		"1 when the last scan completed, 0 when it failed.", labelsRedis, nil)
	descDuration = prometheus.NewDesc("lockvet_live_scan_duration_seconds",
		"How long the last scan took.", labelsRedis, nil)
	descTruncated = prometheus.NewDesc("lockvet_live_scan_truncated",
		"1 when the last successful scan stopped at -max-keys: its figures are incomplete.", labelsRedis, nil)
	descInspected = prometheus.NewDesc("lockvet_live_keys_inspected",
		"Keys the last successful scan inspected, of any type.", labelsRedis, nil)
	descLastScan = prometheus.NewDesc("lockvet_live_last_scan_timestamp_seconds",
		"When the last scan ended, successful or not (Unix time).", labelsRedis, nil)
	descLastSuccess = prometheus.NewDesc("lockvet_live_last_success_timestamp_seconds",
		"When the last successful scan ended (Unix time); the lock figures are from that scan.", labelsRedis, nil)
	descScans = prometheus.NewDesc("lockvet_live_scans_total",
		"Scans run by this process.", labelsRedis, nil)
	descErrors = prometheus.NewDesc("lockvet_live_scan_errors_total",
		"Scans that failed, of lockvet_live_scans_total.", labelsRedis, nil)
)

// liveMetrics is the collector of lockvet live's metrics: the figures of
// the last scan, and for the locks those of the last successful one. A
// scrape reads them; it never starts a scan.
type liveMetrics struct {
	redis    string
	patterns []string
	codeTTL  map[string]int64 // per pattern, in milliseconds, when a constant

	mu          sync.Mutex
	good        *liveReport // the last successful scan
	ok          bool        // whether the last scan succeeded
	took        time.Duration
	lastScan    time.Time
	lastSuccess time.Time
	scans, errs int
}

func newLiveMetrics(redis string, patterns []string, sites []*inventory.Site) *liveMetrics {
	return &liveMetrics{redis: redis, patterns: patterns, codeTTL: codeTTLs(patterns, sites)}
}

// codeTTLs gives each pattern the longest TTL the code gives the sites
// that use exactly that pattern, when all of them are constants.
func codeTTLs(patterns []string, sites []*inventory.Site) map[string]int64 {
	out := map[string]int64{}
	for _, p := range patterns {
		ttl, known := int64(0), true
		for _, s := range sites {
			if !slices.Contains(s.Patterns, p) {
				continue
			}
			m := s.MaxTTL()
			known = known && m > 0
			ttl = max(ttl, m)
		}
		if known && ttl > 0 {
			out[p] = ttl
		}
	}
	return out
}

// record takes the outcome of a scan that ended at end.
func (m *liveMetrics) record(rep *liveReport, err error, took time.Duration, end time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.scans++
	m.took, m.lastScan = took, end
	m.ok = err == nil
	if err != nil {
		m.errs++
		return
	}
	m.good, m.lastSuccess = rep, end
}

func (m *liveMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descLockKeys, descNoTTL, descLongTTL, descOlder, descOldest, descIdle, descCodeTTL,
		descSuccess, descDuration, descTruncated, descInspected, descLastScan, descLastSuccess, descScans, descErrors} {
		ch <- d
	}
}

func (m *liveMetrics) Collect(ch chan<- prometheus.Metric) {
	m.mu.Lock()
	defer m.mu.Unlock()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, append([]string{m.redis}, labels...)...)
	}
	for _, p := range m.patterns {
		if ttl, ok := m.codeTTL[p]; ok {
			gauge(descCodeTTL, float64(ttl)/1000, p)
		}
	}
	if m.scans == 0 {
		return // nothing to say before the first scan ends
	}
	ch <- prometheus.MustNewConstMetric(descScans, prometheus.CounterValue, float64(m.scans), m.redis)
	ch <- prometheus.MustNewConstMetric(descErrors, prometheus.CounterValue, float64(m.errs), m.redis)
	gauge(descSuccess, boolFloat(m.ok))
	gauge(descDuration, m.took.Seconds())
	gauge(descLastScan, unixSeconds(m.lastScan))
	if m.good == nil {
		return
	}
	gauge(descLastSuccess, unixSeconds(m.lastSuccess))
	gauge(descTruncated, boolFloat(m.good.Truncated))
	gauge(descInspected, float64(m.good.Keys))
	for _, p := range m.patterns {
		ps := m.good.byPattern[p]
		gauge(descLockKeys, float64(ps.keys), p)
		gauge(descNoTTL, float64(ps.noTTL), p)
		gauge(descLongTTL, float64(ps.longTTL), p)
		gauge(descOlder, float64(ps.older), p)
		if ps.oldest >= 0 {
			gauge(descOldest, float64(ps.oldest)/1000, p)
		}
		if ps.idle >= 0 {
			gauge(descIdle, float64(ps.idle), p)
		}
	}
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func unixSeconds(t time.Time) float64 { return float64(t.UnixMilli()) / 1000 }

// writeMetrics writes the registry in the Prometheus text format.
func writeMetrics(w io.Writer, g prometheus.Gatherer) error {
	mfs, err := g.Gather()
	if err != nil {
		return err
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			return err
		}
	}
	return nil
}

// scanOnce runs one scan with the -timeout deadline and records it.
func scanOnce(ctx context.Context, sc *liveScan, m *liveMetrics) (*liveReport, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, sc.o.timeout)
	defer cancel()
	rep, err := sc.run(ctx)
	end := time.Now()
	m.record(rep, err, end.Sub(start), end)
	return rep, err
}

// printMetrics is -format prometheus: one scan, its metrics on stdout
// (also when it failed: lockvet_live_scan_success says so), and the exit
// status of the text format.
func printMetrics(sc *liveScan, stdout, stderr io.Writer) int {
	m := newLiveMetrics(sc.opts.Addr, sc.patterns, sc.sites)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)
	rep, scanErr := scanOnce(context.Background(), sc, m)
	if err := writeMetrics(stdout, reg); err != nil {
		fmt.Fprintf(stderr, "lockvet live: %v\n", err)
		return exitError
	}
	if scanErr != nil {
		fmt.Fprintf(stderr, "lockvet live: %v\n", scanErr)
		return exitError
	}
	if rep.Truncated {
		fmt.Fprintf(stderr, "lockvet live: stopped after -max-keys %d keys: the scan is incomplete\n", sc.o.maxKeys)
	}
	if len(rep.Stuck) > 0 || sc.o.strict && len(rep.Long) > 0 {
		return exitFindings
	}
	return exitClean
}

// serveMetrics is -listen: scan now and then every -interval (the next
// scan starts -interval after the previous one started, or when it ends
// if it took longer), and serve the last figures on /metrics until
// SIGINT or SIGTERM.
func serveMetrics(sc *liveScan, stderr io.Writer) int {
	ln, err := net.Listen("tcp", sc.o.listen)
	if err != nil {
		fmt.Fprintf(stderr, "lockvet live: -listen: %v\n", err)
		return exitError
	}
	m := newLiveMetrics(sc.opts.Addr, sc.patterns, sc.sites)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "lockvet live: lock metrics of %s on /metrics, from a scan every %s\n", sc.opts.Addr, sc.o.interval)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stderr, "lockvet live: serving http://%s/metrics; scanning %s for %d pattern(s) every %s\n",
		ln.Addr(), sc.opts.Addr, len(sc.patterns), sc.o.interval)

	scans := make(chan struct{})
	go func() {
		defer close(scans)
		t := time.NewTimer(0)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			start := time.Now()
			if _, err := scanOnce(ctx, sc, m); err != nil && ctx.Err() == nil {
				fmt.Fprintf(stderr, "lockvet live: scan failed: %v\n", err)
			}
			t.Reset(time.Until(start.Add(sc.o.interval)))
		}
	}()

	status := exitClean
	select {
	case <-ctx.Done():
	case err := <-served:
		fmt.Fprintf(stderr, "lockvet live: -listen: %v\n", err)
		status = exitError
	}
	stop()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "lockvet live: %v\n", err)
	}
	<-scans
	return status
}
