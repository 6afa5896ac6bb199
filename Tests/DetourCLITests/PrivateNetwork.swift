import DetourTestSupport
import Foundation

/// A network namespace of its own (`unshare --net`, root only), where the route to
/// `unreachableHost` is `unreachable`: a connect to it fails at once with EHOSTUNREACH (113: No
/// route to host), as it does to a host that is down or behind a firewall that rejects with
/// `icmp-host-prohibited`. Nothing outside the namespace is touched, and no packet leaves it:
/// the kernel settings a `Shortage` changes are the namespace's own.
enum PrivateNetwork {
    static let unreachableHost = "127.0.0.2"

    /// What the namespace lacks once the server listens.
    enum Shortage {
        case none
        /// No local port for an outgoing connection: the ephemeral range is one pair of ports,
        /// both reserved, so `connect()` fails with EADDRNOTAVAIL (99), as when every port of
        /// the range is taken or in TIME_WAIT. The visitor's curl binds a port of its own.
        case localPorts
        /// No IPv6 on the loopback interface (a container with IPv6 off): a connect to `[::1]`
        /// fails with EADDRNOTAVAIL (99).
        case ipv6

        var commands: String {
            switch self {
            case .none: return ""
            case .localPorts:
                return "echo '40000 40001' >/proc/sys/net/ipv4/ip_local_port_range && echo 40000-40001 >/proc/sys/net/ipv4/ip_local_reserved_ports"
            case .ipv6: return "echo 1 >/proc/sys/net/ipv6/conf/lo/disable_ipv6"
            }
        }
    }

    /// Starts `command` (a server on 127.0.0.1:`port`, its output appended to `log`) in a new
    /// namespace, makes it lack `shortage` once the port is open, asks `path` once with curl,
    /// runs `report` (a log reader such as varnishlog: its command, and the file its output
    /// goes to), stops the server by its PID and waits for it. The status curl got: 0 when the
    /// answer was not HTTP, -1 when the server never opened the port.
    static func ask(
        _ command: [String], port: Int, path: String = "/", log: String, shortage: Shortage = .none,
        report: (command: [String], into: String)? = nil
    ) throws -> Int {
        let script = """
            set -u
            port=$1 path=$2 log=$3 report=$4 into=$5
            shift 5
            ip link set lo up
            ip route add unreachable \(unreachableHost)/32 table local
            "$@" >>"$log" 2>&1 &
            server=$!
            for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
            if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
                \(shortage.commands)
                curl -s -o /dev/null -w '%{http_code}' --max-time 8 --local-port 50000-50999 "http://127.0.0.1:$port$path" || true
            else
                printf -- -1
            fi
            sleep 0.2
            if [ -n "$report" ]; then bash -c "$report" >"$into" 2>&1; fi
            kill -TERM "$server"
            wait "$server"
            exit 0
            """
        let unshare = try RequiredTool.find("unshare")
        _ = try RequiredTool.find("ip")
        _ = try RequiredTool.find("curl")
        // The report's command as one line for `bash -c`, each word single-quoted.
        let reportLine = (report?.command ?? []).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let result = try ProcessRunner.run(
            unshare, ["--net", "bash", "-c", script, "bash", String(port), path, log, reportLine, report?.into ?? "/dev/null"] + command)
        guard result.status == 0, let status = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ReproductionError(message: "unshare --net: exit \(result.status): \(result.stdout)\(result.stderr)")
        }
        return status
    }
}
