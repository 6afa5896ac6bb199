#!/usr/bin/env bash
# The test suite (after `swift build --build-tests`) as two processes at once: the command
# line's end-to-end tests (DetourCLITests) and every other module's, the latter followed by the
# Swift Testing tests (the generator tests). Most of either is spent waiting on real servers,
# Chromium and their timeouts, so the two take little more than the longer alone. SwiftPM lets
# one `swift test` use .build at a time, so the test binary is run as `swift test --skip-build`
# runs it: with a list of XCTest classes each, and once with `--testing-library swift-testing`.
# Each half takes its test servers' ports from its own slice (DETOUR_TEST_PORT_SLICE), so neither
# starts a server on a port the other has just found free. Each test's result is printed as it
# comes, then each half's count; the exit status is non-zero when either failed.
#
#     scripts/test-suite.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tests="$root/.build/debug/detourPackageTests.xctest"
[ -x "$tests" ] || { echo "test-suite: $tests is missing; run 'swift build --build-tests' first" >&2; exit 1; }
logs=$(mktemp -d "${TMPDIR:-/tmp}/detour-test-suite.XXXXXX")
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM

"$tests" --list-tests | sed -n 's|^\(Detour[A-Za-z]*Tests\.[A-Za-z0-9_]*\)/.*|\1|p' | sort -u > "$logs/classes"
cli=$(grep '^DetourCLITests\.' "$logs/classes" | paste -sd, -)
rest=$(grep -v '^DetourCLITests\.' "$logs/classes" | paste -sd, -)
[ -n "$cli" ] && [ -n "$rest" ] || { echo "test-suite: no test classes listed by $tests" >&2; exit 1; }

cd "$root"
{
    export DETOUR_TEST_PORT_SLICE=1/2
    "$tests" "$rest"
    xctest=$?
    "$tests" --testing-library swift-testing
    testing=$?
    [ "$xctest" = 0 ] && [ "$testing" = 0 ]
} > "$logs/rest.log" 2>&1 &
pids+=($!)
DETOUR_TEST_PORT_SLICE=2/2 "$tests" "$cli" > "$logs/cli.log" 2>&1 &
pids+=($!)
# Each test case's result and each failure's line as they come, from either half, until
# `running` is stopped.
sleep infinity &
running=$!
pids+=("$running")
tail -q -n +1 --pid="$running" -F "$logs/rest.log" "$logs/cli.log" 2>/dev/null | grep --line-buffered -E "^Test Case .* (passed|failed|skipped)|: error: |^(✔|✘) Test " &
wait "${pids[0]}"
rest_status=$?
wait "${pids[1]}"
cli_status=$?
sleep 1
kill "$running" 2>/dev/null
wait
pids=()
for half in rest cli; do
    # A half that ended without XCTest's count (a crash) shows how it ended.
    grep -q "^Test Suite 'Selected tests' \(passed\|failed\)" "$logs/$half.log" || tail -40 "$logs/$half.log"
    grep -A1 "^Test Suite 'Selected tests' \(passed\|failed\)" "$logs/$half.log" | tail -1
done
# Swift Testing's count, after the other modules' XCTest count.
grep -E "Test run with [0-9]+ tests?" "$logs/rest.log" | tail -1
echo "test-suite: every module but DetourCLITests: exit $rest_status; DetourCLITests: exit $cli_status"
[ "$rest_status" = 0 ] && [ "$cli_status" = 0 ]
