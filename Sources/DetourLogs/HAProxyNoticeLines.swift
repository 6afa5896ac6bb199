// Written by scripts/server-messages/haproxy-notices.py from HAProxy's source at v2.2.0; do not edit.

/// What HAProxy up to 2.2 logs at the notice level through its log targets, where no `[NOTICE]`
/// says so, and the warnings it writes as it applies a saved server state at start (before 2.4
/// without `config :`): nothing failed with these lines.
enum HAProxyNoticeLines {
    static let patterns: [String] = [
        "could not generate a query id for …, in resolvers ….",
        "SIGHUP received, dumping servers states for proxy ….",
        "Proxy … started.",
        "backend ID mismatch: from server state file: '…', from running config '…'",
        "backend name mismatch: from server state file: '…', from running config '…'",
        "can't find server '…' in backend '…'",
        "WURFL: Unloading module v.",
        "WURFL: Module unloaded",
        "Can't open global server state file '…':",
        "Can't open server state file '…':",
        "Can't get version of the server state file '…'",
        "server-state application failed for server '…/…'",
    ]
}
