package live

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

	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/passes/inventory"
)

// The metrics of lockvet live (-format prometheus, -listen), gathered by
// a registry of the Prometheus client library and written in its text
// exposition format. Every series has the label redis, the server
// scanned (the -redis address); the lock figures also have pattern, the
// key pattern scanned. docs/live.md lists them with alert rules. Under
// -listen the registry also holds the library's Go and process
// collectors, and promhttp serves it.
//
// The library is linked into lockvet-live only: the lockvet binary, which
// go vet starts once per package, links neither it nor a Redis client
// (the package comment of internal/operator says why, with numbers).
type metricDesc struct {
	name, help string
	counter    bool // a counter; a gauge otherwise
	pattern    bool // the series has the label pattern
}

var (
	descLockKeys = &metricDesc{name: "lockvet_lock_keys", pattern: true,
		help: "Lock keys (string keys) matching the pattern, at the last successful scan."}
	descNoTTL = &metricDesc{name: "lockvet_lock_keys_without_ttl", pattern: true,
		help: "Lock keys with no TTL (stuck locks: nobody but a person deletes them), at the last successful scan."}
	descLongTTL = &metricDesc{name: "lockvet_lock_keys_ttl_above_code", pattern: true,
		help: "Lock keys whose remaining TTL is longer than any TTL the code gives them, at the last successful scan."}
	descOlder = &metricDesc{name: "lockvet_lock_keys_older_than_code_ttl", pattern: true,
		help: "Lock keys whose estimated age (see lockvet_lock_oldest_age_seconds) exceeds the TTL the code gives them, at the last successful scan."}
	descOldest = &metricDesc{name: "lockvet_lock_oldest_age_seconds", pattern: true,
		help: "Estimated age of the pattern's oldest lock key, a lower bound: the larger of its idle time and, where the code's TTL is a constant, that TTL minus the remaining TTL. A renewal resets both; a read resets the idle time. Absent when no key had one."}
	descIdle = &metricDesc{name: "lockvet_lock_longest_idle_seconds", pattern: true,
		help: "Longest OBJECT IDLETIME among the pattern's lock keys: how long nobody read or wrote the key. Absent when no key had one (no key, or an LFU maxmemory policy)."}
	descCodeTTL = &metricDesc{name: "lockvet_lock_code_ttl_seconds", pattern: true,
		help: "The longest TTL the code gives locks of this pattern, at acquire or renewal, when every such TTL is a constant. Absent otherwise."}

	descSuccess = &metricDesc{name: "lockvet_live_scan_success",
		help: "1 when the last scan completed, 0 when it failed."}
	descDuration = &metricDesc{name: "lockvet_live_scan_duration_seconds",
		help: "How long the last scan took."}
	descTruncated = &metricDesc{name: "lockvet_live_scan_truncated",
		help: "1 when the last successful scan stopped at -max-keys: its figures are incomplete."}
	descInspected = &metricDesc{name: "lockvet_live_keys_inspected",
		help: "Keys the last successful scan inspected, of any type."}
	descLastScan = &metricDesc{name: "lockvet_live_last_scan_timestamp_seconds",
		help: "When the last scan ended, successful or not (Unix time)."}
	descLastSuccess = &metricDesc{name: "lockvet_live_last_success_timestamp_seconds",
		help: "When the last successful scan ended (Unix time); the lock figures are from that scan."}
	descScans = &metricDesc{name: "lockvet_live_scans_total", counter: true,
		help: "Scans run by this process."}
	descErrors = &metricDesc{name: "lockvet_live_scan_errors_total", counter: true,
		help: "Scans that failed, of lockvet_live_scans_total."}

	liveDescs = []*metricDesc{descLockKeys, descNoTTL, descLongTTL, descOlder, descOldest, descIdle, descCodeTTL,
		descSuccess, descDuration, descTruncated, descInspected, descLastScan, descLastSuccess, descScans, descErrors}
)

// A sample is one series and its value; labels are name, value pairs,
// sorted by name.
type sample struct {
	desc   *metricDesc
	labels []string
	value  float64
}

// liveMetrics are lockvet live's figures: those of the last scan, and
// for the locks those of the last successful one. A scrape reads them;
// it never starts a scan.
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

	descsOnce sync.Once
	descs     map[*metricDesc]*prometheus.Desc
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

// samples are the series of the figures now.
func (m *liveMetrics) samples() []sample {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []sample
	add := func(d *metricDesc, v float64, pattern ...string) {
		labels := []string{"redis", m.redis}
		if d.pattern {
			labels = []string{"pattern", pattern[0], "redis", m.redis}
		}
		out = append(out, sample{d, labels, v})
	}
	for _, p := range m.patterns {
		if ttl, ok := m.codeTTL[p]; ok {
			add(descCodeTTL, float64(ttl)/1000, p)
		}
	}
	if m.scans == 0 {
		return out // nothing to say before the first scan ends
	}
	add(descScans, float64(m.scans))
	add(descErrors, float64(m.errs))
	add(descSuccess, boolFloat(m.ok))
	add(descDuration, m.took.Seconds())
	add(descLastScan, unixSeconds(m.lastScan))
	if m.good == nil {
		return out
	}
	add(descLastSuccess, unixSeconds(m.lastSuccess))
	add(descTruncated, boolFloat(m.good.Truncated))
	add(descInspected, float64(m.good.Keys))
	for _, p := range m.patterns {
		ps := m.good.byPattern[p]
		add(descLockKeys, float64(ps.keys), p)
		add(descNoTTL, float64(ps.noTTL), p)
		add(descLongTTL, float64(ps.longTTL), p)
		add(descOlder, float64(ps.older), p)
		if ps.oldest >= 0 {
			add(descOldest, float64(ps.oldest)/1000, p)
		}
		if ps.idle >= 0 {
			add(descIdle, float64(ps.idle), p)
		}
	}
	return out
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func unixSeconds(t time.Time) float64 { return float64(t.UnixMilli()) / 1000 }

// Describe and Collect make the figures a prometheus.Collector: one
// constant metric per sample, at the time of the scrape.
func (m *liveMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range liveDescs {
		ch <- m.promDesc(d)
	}
}

func (m *liveMetrics) Collect(ch chan<- prometheus.Metric) {
	for _, s := range m.samples() {
		var values []string
		for i := 1; i < len(s.labels); i += 2 {
			values = append(values, s.labels[i])
		}
		kind := prometheus.GaugeValue
		if s.desc.counter {
			kind = prometheus.CounterValue
		}
		ch <- prometheus.MustNewConstMetric(m.promDesc(s.desc), kind, s.value, values...)
	}
}

// promDesc is d as the library describes it, made once.
func (m *liveMetrics) promDesc(d *metricDesc) *prometheus.Desc {
	m.descsOnce.Do(func() {
		m.descs = map[*metricDesc]*prometheus.Desc{}
		for _, d := range liveDescs {
			labels := []string{"redis"}
			if d.pattern {
				labels = []string{"pattern", "redis"}
			}
			m.descs[d] = prometheus.NewDesc(d.name, d.help, labels, nil)
		}
	})
	return m.descs[d]
}

// registry is a registry that gathers m, and with process the Go and
// process collectors too.
func (m *liveMetrics) registry(process bool) *prometheus.Registry {
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)
	if process {
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	return reg
}

// writeMetrics writes what reg gathers in the text exposition format:
// the metrics sorted by name, each with its HELP and TYPE lines and its
// series sorted by their labels' values; a metric with no series is left
// out.
func writeMetrics(w io.Writer, reg prometheus.Gatherer) error {
	fams, err := reg.Gather()
	if err != nil {
		return err
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, f := range fams {
		if err := enc.Encode(f); err != nil {
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
func printMetrics(ctx context.Context, sc *liveScan, stdout, stderr io.Writer) int {
	m := newLiveMetrics(sc.opts.Addr, sc.patterns, sc.sites)
	rep, scanErr := scanOnce(ctx, sc, m)
	if err := writeMetrics(stdout, m.registry(false)); err != nil {
		fmt.Fprintf(stderr, "lockvet live: %v\n", err)
		return driver.ExitError
	}
	if scanErr != nil {
		fmt.Fprintf(stderr, "lockvet live: %v\n", scanErr)
		return driver.ExitError
	}
	if rep.Truncated {
		fmt.Fprintf(stderr, "lockvet live: stopped after -max-keys %d keys: the scan is incomplete\n", sc.o.maxKeys)
	}
	if len(rep.Stuck) > 0 || sc.o.strict && len(rep.Long) > 0 {
		return driver.ExitFindings
	}
	return driver.ExitClean
}

// serveMetrics is -listen: scan now and then every -interval (the next
// scan starts -interval after the previous one started, or when it ends
// if it took longer), and serve the last figures on /metrics until
// SIGINT or SIGTERM.
func serveMetrics(ctx context.Context, sc *liveScan, stderr io.Writer) int {
	ln, err := net.Listen("tcp", sc.o.listen)
	if err != nil {
		fmt.Fprintf(stderr, "lockvet live: -listen: %v\n", err)
		return driver.ExitError
	}
	m := newLiveMetrics(sc.opts.Addr, sc.patterns, sc.sites)
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.registry(true), promhttp.HandlerOpts{ErrorLog: errorLog{stderr}}))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "lockvet live: lock metrics of %s on /metrics, from a scan every %s\n", sc.opts.Addr, sc.o.interval)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
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

	status := driver.ExitClean
	select {
	case <-ctx.Done():
	case err := <-served:
		fmt.Fprintf(stderr, "lockvet live: -listen: %v\n", err)
		status = driver.ExitError
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

// errorLog prints promhttp's errors as lockvet live's.
type errorLog struct{ w io.Writer }

func (l errorLog) Println(v ...any) {
	fmt.Fprintf(l.w, "lockvet live: /metrics: %s", fmt.Sprintln(v...))
}
