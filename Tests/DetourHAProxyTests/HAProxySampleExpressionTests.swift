import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// Sample and ACL expressions HAProxy cannot parse (an unknown fetch or converter, an argument of
/// the wrong type, a missing parenthesis or bracket, an ACL with no matching method), and HTTP
/// actions given a number of arguments they do not take: refused at their lines in HAProxy's
/// words, as `haproxy -c` refuses them, and those it parses left alone.
final class HAProxySampleExpressionTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    private static let head = """
        defaults
            mode http
            timeout connect 1s
            timeout client 1s
            timeout server 1s
        backend app
            server s1 127.0.0.1:9
        frontend web
            bind 127.0.0.1:1
            default_backend app

        """
    /// The line of the first line after `head`.
    private static let firstLine = 11

    /// check's refusals of the configuration `head` + `lines`: line number and words.
    private func checkRefusals(_ lines: [String]) throws -> [Int: String] {
        try folder.write(["haproxy.cfg": Self.head + lines.map { "    " + $0 + "\n" }.joined()])
        let diagnostics = HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: [], serverVersion: "2.6"),
            environment: ProcessInfo.processInfo.environment
        ).diagnostics
        return Dictionary(
            diagnostics.filter { $0.rule == HAProxyRules.syntax.id }.map { ($0.location.line, $0.message) },
            uniquingKeysWith: { first, _ in first })
    }

    /// haproxy -c's alerts on the same file: line number and words.
    private func haproxyRefusals() throws -> [Int: String] {
        let haproxy = try RequiredTool.find("haproxy")
        let verdict = try ProcessRunner.run(haproxy, ["-c", "-f", folder.path + "/haproxy.cfg"])
        let pattern = try NSRegularExpression(pattern: #"\[ALERT\].*haproxy\.cfg:(\d+)\]\s*:\s*(.*)"#)
        let output = verdict.stdout + verdict.stderr
        var refusals: [Int: String] = [:]
        for match in pattern.matches(in: output, range: NSRange(output.startIndex..., in: output)) {
            guard let number = Range(match.range(at: 1), in: output).flatMap({ Int(output[$0]) }),
                let words = Range(match.range(at: 2), in: output).map({ String(output[$0]) })
            else { continue }
            refusals[number] = refusals[number] ?? words
        }
        return refusals
    }

    /// Each line alone (HAProxy stops reading at a rule it refuses): refused by check exactly
    /// where haproxy -c refuses it, with the words HAProxy gives for the expression.
    func testExpressionsAreRefusedAsHAProxyRefusesThem() throws {
        let lines = [
            // Refused.
            "http-request deny if { (arg) }",
            "http-request deny if { blah(arg) }",
            "http-request deny if { req.hdr( }",
            "http-request deny if { always_true(arg) }",
            "http-request deny if { req.hdr(a,a) }",
            "http-request deny if { hdr(host),blah foo }",
            "http-request deny if { hdr(host) -m foo bar }",
            "acl x reqhdr(host) foo",
            "acl x hdr(host),lower(1) foo",
            "acl x var(txn.id) foo",
            "acl x hdr(host) -x foo",
            "acl x req.payload(0,3) 160301",
            "http-request add-header name %[(arg)]",
            "http-request add-header name %[hdr(arg))]",
            "http-request add-header name %[hdr(arg),blah]",
            "http-request add-header name %[hdr(arg),ipmask]",
            "http-request add-header name %[hdr(arg),ipmask(2]",
            "http-request set-header name %[hdr(host),lower",
            "http-request set-header name %[uuid(1,2)]",
            "http-request set-var(txn.x) req.hdrx(host)",
            "http-request track-sc0 srcc",
            "http-response set-header x %{+Q}[res.hdrr(x)]",
            "use_backend %[req.hdrz(host)]",
            "log-format \"%ci %[src,nosuch]\"",
            "http-request redirect location /x%[src,nosuch]",
            // An action given a number of arguments it does not take; an unset variable is none.
            "http-request set-header X-Forwarded-Proto",
            "http-request add-header Host \"$DETOUR_UNSET_VARIABLE\"",
            "http-request set-path /a /b",
            "http-response replace-value X-A b",
            "http-after-response del-header",
            // Parsed.
            "http-request set-log-level silent",
            "http-request set-header X-A b if TRUE",
            "http-request set-header X-A \"$HOME\"",
            "http-request deny if { hdr(host),lower foo }",
            "acl x var(txn.id) -m str foo",
            "acl x req.payload(0,3) -m bin 160301",
            "acl x hdr_cnt(x) gt 1",
            "acl x hdr(host) -i -- -foo",
            "http-request set-header x %[hdr(host),lower]-%%[not-an-expression]",
            "http-request set-header x %[src,ipmask(24)]",
            "http-request set-var(txn.x) req.hdr(host),lower",
            "http-request set-header x %[lua.anything]",
            "use_backend %[req.hdr(host),lower,map(/dev/null,app)]",
            // The legacy `redirect`'s location is literal text.
            "redirect location /x%[src,nosuch]",
            "log-format \"%ci:%cp [%tr] %ft %b/%s %{+Q}r %[capture.req.hdr(0)]\"",
        ]
        for line in lines {
            let checked = try checkRefusals([line])
            let refused = try haproxyRefusals()
            XCTAssertEqual(checked.keys.sorted(), refused.keys.sorted(), "\(line): check \(checked), haproxy -c \(refused)")
            // The expression's own words, as HAProxy gives them after naming the rule.
            if let said = refused[Self.firstLine], let words = said.components(separatedBy: " : ").last {
                let expected = words.trimmingCharacters(in: CharacterSet(charactersIn: ".")).replacingOccurrences(of: "'..", with: "'")
                XCTAssertTrue(checked[Self.firstLine]?.contains(expected) ?? false, "\(line): check says \(checked), HAProxy \(said)")
            }
        }
    }

    /// The pattern files ACLs (`-f`) and map converters name, relative to where HAProxy runs
    /// (check reads them from the main file's folder): one that is not there is refused the first
    /// time its name is met, in HAProxy's words; one that is there is read. A log-format's
    /// expression (`use_backend %[…]`) is refused only once the files are read without a fatal
    /// error.
    func testAPatternFileThatIsNotThereIsRefusedTheFirstTimeItIsNamed() throws {
        let lines = [
            "acl a src -f maps/missing.lst", "acl b src -f maps/missing.lst", "acl c src -f maps/hosts.lst",
            "acl d req.hdr(host),map(maps/missing.map) -m found", "acl e hdr(host),map_dom(maps/hosts.map,x) -m found",
            "acl f path_beg -i -f maps/hosts.lst -f maps/other-missing.lst", "use_backend %[req.hdr(host),lower,map(maps/backends-missing.map,app)]",
            "use_backend %[req.hdr(host),lower,map(maps/backends.map,app)]", "http-request set-var(txn.x) req.hdr(host),map_sub(\"maps/ua.map\",-)",
        ]
        try folder.write(["maps/hosts.lst": "127.0.0.1\n", "maps/hosts.map": "a b\n", "maps/backends.map": "a app\n"])
        let checked = try checkRefusals(lines)
        let verdict = try ProcessRunner.run(try RequiredTool.find("haproxy"), ["-c", "-f", "haproxy.cfg"], in: folder.url)
        let refused = HAProxyTestOutput.read(verdict.stdout + verdict.stderr, copies: [], main: "haproxy.cfg").findings
        XCTAssertEqual(checked.keys.sorted(), refused.map(\.location.line), verdict.stdout + verdict.stderr)
        // A use_backend's format is read once the files are, and only when they were read
        // without a fatal error.
        XCTAssertEqual(refused.map(\.location.line), [0, 3, 5, 8].map { $0 + Self.firstLine }, "the lines that name a file not there first")
        for finding in refused {
            XCTAssertTrue(
                checked[finding.location.line]?.hasPrefix(finding.message.trimmingCharacters(in: CharacterSet(charactersIn: "."))) ?? false, "\(checked)")
        }
        let later = try checkRefusals(["use_backend %[req.hdr(host),lower,map(maps/backends-missing.map,app)]", "log-format \"%ci %[src,nosuch]\""])
        let laterVerdict = try ProcessRunner.run(try RequiredTool.find("haproxy"), ["-c", "-f", "haproxy.cfg"], in: folder.url)
        let laterRefused = HAProxyTestOutput.read(laterVerdict.stdout + laterVerdict.stderr, copies: [], main: "haproxy.cfg").findings
        XCTAssertEqual(laterRefused.map(\.location.line).sorted(), [Self.firstLine, Self.firstLine + 1], laterVerdict.stderr)
        XCTAssertEqual(later.keys.sorted(), [Self.firstLine, Self.firstLine + 1], "\(later)")
    }

    /// A page file that is not there is refused as HAProxy reads its line, beside the other
    /// refusals of the file, unless HAProxy stopped reading before it.
    func testAMissingPageFileIsRefusedWithTheOtherRefusalsUpToWhereHAProxyStops() throws {
        for (lines, refused) in [
            (["acl x hdr(host) -x foo", "errorfile 503 detour-missing/503.http"], [0, 1]),
            (["http-request set-header x %[src,nosuch]", "errorfile 503 detour-missing/503.http"], [0]),
        ] {
            try folder.write(["haproxy.cfg": Self.head + lines.map { "    " + $0 + "\n" }.joined()])
            let checked = HAProxyChecker.check(
                .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: [], serverVersion: "2.6"),
                environment: [:]
            ).diagnostics.filter { $0.severity == .error }.map(\.location.line)
            let verdict = try ProcessRunner.run(try RequiredTool.find("haproxy"), ["-c", "-f", "haproxy.cfg"], in: folder.url)
            let said = HAProxyTestOutput.read(verdict.stdout + verdict.stderr, copies: [], main: "haproxy.cfg").findings.map(\.location.line)
            XCTAssertEqual(said, refused.map { $0 + Self.firstLine }, verdict.stderr)
            XCTAssertEqual(checked, said, "\(lines)")
        }
    }

    /// Every fetch and converter HAProxy registers, bare and with an argument list it cannot
    /// take, in ACLs (which HAProxy reads on past a refusal): check refuses the same lines.
    func testEveryFetchAndConverterIsReadAsHAProxyReadsIt() throws {
        let table = HAProxySampleTable.shared
        let uses =
            table.fetches.keys.sorted().flatMap { ["acl a \($0) -m found", "acl a \($0)(1,x,2,y,3,z) -m found"] }
            + table.converters.keys.sorted().flatMap { ["acl a str(a),\($0) -m found", "acl a str(1),\($0)(1,x,2,y,3,z) -m found"] }
        // HAProxy stops after 50 alerts: a batch stays below.
        for batch in stride(from: 0, to: uses.count, by: 40) {
            let lines = Array(uses[batch..<min(batch + 40, uses.count)])
            let checked = try checkRefusals(lines)
            let refused = try haproxyRefusals()
            let differing = Set(checked.keys).symmetricDifference(refused.keys).sorted()
            let described = differing.map { "\(lines[$0 - Self.firstLine]): check \(checked[$0] ?? "-"); haproxy -c \(refused[$0] ?? "-")" }
            XCTAssertEqual(differing, [], described.joined(separator: "\n"))
        }
    }
}
