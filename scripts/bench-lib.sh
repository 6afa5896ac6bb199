# Shared by the bench scripts: `best command...` prints the best of five wall times in seconds,
# read from bash's own clock: starting `date` for each reading would add milliseconds.
best() {
    local best="" start end seconds
    for run in 1 2 3 4 5; do
        start=$EPOCHREALTIME; "$@" > /dev/null 2>&1 || true; end=$EPOCHREALTIME
        seconds=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$seconds < $best" | bc)" = 1 ]; then best=$seconds; fi
    done
    echo "$best"
}

# `beside_server "<what was checked>" TARGET_RATIO CONFIG -- detour-check-args... -- server-check-command...`:
# times detour's check and the server's own on the same file, best of five each, and prints
# them with their ratio. The server's check must accept the file.
beside_server() {
    local what=$1 target=$2 config=$3
    shift 3
    local detour_command=() server_command=()
    [ "$1" = "--" ] && shift
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do detour_command+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    server_command=("$@")
    local findings size detour own
    findings=$("${detour_command[@]}" 2>&1 | tail -1)
    size=$(du -h --apparent-size "$config" | cut -f1)
    detour=$(best "${detour_command[@]}")
    printf 'detour %s %s, %s (%s): best of 5 wall %.3f s, findings: %s\n' "${detour_command[1]}" "${detour_command[2]}" "$what" "$size" "$detour" "${findings:-none}"
    command -v "${server_command[0]}" > /dev/null || return 0
    "${server_command[@]}" > /dev/null 2>&1 || { echo "${server_command[*]} refuses the generated configuration:" >&2; "${server_command[@]}" 2>&1 | tail -5 >&2; return 1; }
    own=$(best "${server_command[@]}")
    printf '%s, same file: best of 5 wall %.3f s; detour / %s = %.2f (target <= %s)\n' "${server_command[0]} ${server_command[1]}" "$own" "${server_command[0]} ${server_command[1]}" "$(echo "$detour / $own" | bc -l)" "$target"
}
