// Package proof demonstrates lockvet's two claims against real servers:
// the code it reports is wrong, and the code its fixes write is right.
// It has no API; everything is in its tests (go test ./proof), and the
// results table they write is docs/proof.md.
//
// How the code under test is obtained:
//
//   - internal/buggy holds one package per check (and one per go-redis
//     version) with the bug written the way lockvet finds it in the wild.
//   - TestProofShapes runs lockvet's analyzers on those packages in
//     process (go/packages and the x/tools checker over analyzer.Analyzers,
//     the registry the CLI uses), asserts the exact set of findings, and
//     applies the suggested fixes as `lockvet -fix` does: the first fix of
//     each finding, overlapping fixes left for another round, rounds
//     repeated until nothing is left, imports the edits leave unused
//     dropped, gofmt. The result must be byte for byte the matching package
//     under internal/fixed (go test ./proof -run TestProofShapes -update
//     rewrites it). lockvet on internal/fixed must then find nothing it
//     can fix.
//   - The scenario tests compile both trees into the test binary and run
//     them: the fixed code the servers see is the code lockvet writes,
//     including the Lua it inserts (from internal/lua), never a copy.
//
// Checked-in fixed files, rather than generating and `go run`-ning a
// program per scenario, keep the suite fast (one compile, no per-test
// builds) and make every fix reviewable as a diff in the repository,
// while the byte-for-byte check keeps them honest.
//
// Servers: each scenario runs against a real redis-server started on a
// free loopback port with no persistence (internal/redistest; skipped with
// a message when the binary is missing, a failure when
// LOCKVET_REQUIRE_REDIS=1 as in CI) and against miniredis with its TTLs
// following the wall clock. The gomemcache templates run against a real
// memcached the same way.
//
// internal/clients holds the rewrite-table templates for redigo, rueidis
// and gomemcache (Lua from internal/lua). internal/adapters holds those
// clients' shapes as lockvet's adapters report and fix them, a second
// shape tree (buggy/ and fixed/) checked by TestProofShapes like the
// first; TestProofAdapters runs lockvet's fixed code, and the template's
// operation where lockvet reports one without a fix.
//
// go test ./proof -update rewrites internal/fixed and, after a complete
// run (every case on every backend), docs/proof.md; a plain complete run
// fails when docs/proof.md no longer matches what it found. With
// LOCKVET_REQUIRE_REDIS=1 a run that is not complete fails too, naming
// the cases and backends that did not record, so a case that stops
// recording cannot turn the check off in CI.
package proof
