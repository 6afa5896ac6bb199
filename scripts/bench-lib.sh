# Shared by the bench scripts: `best command...` prints the best of five wall times in seconds.
best() {
    local best="" start end seconds
    for run in 1 2 3 4 5; do
        start=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; end=$(date +%s.%N)
        seconds=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$seconds < $best" | bc)" = 1 ]; then best=$seconds; fi
    done
    echo "$best"
}
