import DetourTestSupport
import Foundation

/// A network namespace of its own (`unshare --net`, root only), where the route to
/// `unreachableHost` is `unreachable`: a connect to it fails at once with EHOSTUNREACH (113: No
/// route to host), as it does to a host that is down or behind a firewall that rejects with
/// `icmp-host-prohibited`. Nothing outside the namespace is touched, and no packet leaves it.
enum PrivateNetwork {
    static let unreachableHost = "127.0.0.2"

    /// Starts `command` (a server on 127.0.0.1:`port`, its output appended to `log`) in a new
    /// namespace, asks `path` once with curl when the port is open, stops the server by its PID
    /// and waits for it. The status curl got: 0 when the answer was not HTTP, -1 when the
    /// server never opened the port.
    static func ask(_ command: [String], port: Int, path: String = "/", log: String) throws -> Int {
        let script = """
            set -u
            port=$1 path=$2 log=$3
            shift 3
            ip link set lo up
            ip route add unreachable \(unreachableHost)/32 table local
            "$@" >>"$log" 2>&1 &
            server=$!
            for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
            if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
                curl -s -o /dev/null -w '%{http_code}' --max-time 8 "http://127.0.0.1:$port$path" || true
            else
                printf -- -1
            fi
            sleep 0.2
            kill -TERM "$server"
            wait "$server"
            exit 0
            """
        let unshare = try RequiredTool.find("unshare")
        _ = try RequiredTool.find("ip")
        _ = try RequiredTool.find("curl")
        let result = try ProcessRunner.run(unshare, ["--net", "bash", "-c", script, "bash", String(port), path, log] + command)
        guard result.status == 0, let status = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ReproductionError(message: "unshare --net: exit \(result.status): \(result.stdout)\(result.stderr)")
        }
        return status
    }
}
