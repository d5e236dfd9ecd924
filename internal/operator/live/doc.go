// Package live holds the lockvet commands that talk to a running Redis,
// built into the lockvet-live binary (cmd/lockvet-live), which lockvet
// live and lockvet release run:
//
//   - live.go: lockvet live, a read-only scan (SCAN, then OBJECT IDLETIME,
//     TYPE and PTTL per key) for lock keys with no TTL or a TTL longer
//     than the code gives them, on a server or every master of a cluster;
//   - metrics.go: its figures as Prometheus metrics, through the client
//     library: one scan's exposition (-format prometheus) or an exporter
//     that scans every -interval and serves the last figures (-listen);
//   - release.go: lockvet release, which shows a lock, or deletes it in
//     one compare-and-delete script only while it holds the value shown,
//     and records who, why and what in a Redis stream.
//
// Why a binary of its own: go vet starts its vet tool once per package,
// the standard library's included (270 times on go-redis v9), and each
// start pays for every package the binary links. Measured on 2026-12-05
// on this project's 2-core machine, shared (load average 8-20): the
// lockvet binary with these commands in it (go-redis, net/http, os/user,
// so linked dynamically against libc; 20.8 MB) took a median 39.9 ms of
// CPU to answer go vet for a dependency, 26.2 ms without them (12.2 MB,
// linked statically), 44.3 ms with the Prometheus client library as well
// (23.7 MB) (300 alternating runs each). go vet -vettool=lockvet on
// go-redis v9, every package analysed (go run ./internal/bench -vettool
// -rounds 5 -compare): 15.1 s of CPU with them, 11.4 s without (0.76),
// 15.9 s with the client library too. So lockvet links none of it, and
// this package uses the client library (registry, Go and process
// collectors, promhttp) instead of writing the exposition format itself.
package live
