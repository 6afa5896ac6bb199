import XCTest

@testable import DetourHAProxy

/// Which client address the sandbox's probes declare for a frontend that refuses 127.0.0.1.
final class HAProxyClientAddressTests: XCTestCase {
    private func section(_ lines: [String]) -> HAProxySection {
        var section = HAProxySection(kind: "frontend", name: "f", location: .init(path: "h.cfg", line: 1, column: 1))
        section.lines = lines.enumerated().map { index, line in
            HAProxyLine(
                words: line.split(separator: " ").map { HAProxyWord(text: String($0), column: 1) }, path: "h.cfg", number: index + 2)
        }
        return section
    }

    func testAnAllowListThatLeavesLoopbackOutGivesAnAddressOfIt() {
        XCTAssertEqual(HAProxyClientAddress.needed(section(["acl ok src 192.168.200.150/32", "http-request deny if !ok"])), "192.168.200.150")
        XCTAssertEqual(HAProxyClientAddress.needed(section(["acl ok src -n 10.0.0.0/8", "http-request deny unless ok"])), "10.0.0.1")
        // Allowed first, every other request refused.
        let allowFirst = ["acl ok src 172.16.0.0/12", "tcp-request connection accept if ok", "http-request allow if ok", "http-request deny"]
        XCTAssertEqual(HAProxyClientAddress.needed(section(allowFirst)), "172.16.0.1")
        let acceptFirst = ["acl ok src 172.16.0.0/12", "tcp-request connection accept if ok", "tcp-request connection reject"]
        XCTAssertEqual(HAProxyClientAddress.needed(section(acceptFirst)), "172.16.0.1")
        XCTAssertEqual(HAProxyClientAddress.needed(section(["http-request deny if !{ src 10.1.0.0/16 }", "acl x src 10.1.0.0/16"])), "10.1.0.1")
    }

    func testLoopbackLetInOrUndecidedChangesNothing() {
        // A block list, an allow list that has loopback, and a refusal that depends on the path too.
        XCTAssertNil(HAProxyClientAddress.needed(section(["acl bad src 203.0.113.0/24", "http-request deny if bad"])))
        XCTAssertNil(HAProxyClientAddress.needed(section(["acl ok src 10.0.0.0/8 127.0.0.1", "http-request deny if !ok"])))
        XCTAssertNil(HAProxyClientAddress.needed(section(["acl ok src 10.0.0.0/8", "acl admin path_beg /admin", "http-request deny if admin !ok"])))
        XCTAssertNil(HAProxyClientAddress.needed(section(["acl local src LOCALHOST", "http-request deny if !LOCALHOST"])))
        XCTAssertNil(HAProxyClientAddress.needed(section(["http-request deny if { path /x }"])))
    }

    func testNetworksHoldTheirAddresses() {
        XCTAssertTrue(HAProxyClientAddress.contains("10.0.0.0/8", "10.200.3.4"))
        XCTAssertFalse(HAProxyClientAddress.contains("10.0.0.0/8", "11.0.0.1"))
        XCTAssertTrue(HAProxyClientAddress.contains("192.168.1.7", "192.168.1.7"))
        XCTAssertFalse(HAProxyClientAddress.contains("not-an-address", "127.0.0.1"))
        XCTAssertEqual(HAProxyClientAddress.host("192.168.0.0/16"), "192.168.0.1")
        XCTAssertEqual(HAProxyClientAddress.host("192.168.5.9"), "192.168.5.9")
    }
}
