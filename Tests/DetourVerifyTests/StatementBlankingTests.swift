import XCTest

@testable import DetourVerify

/// What `detour verify` blanks when the server refuses a statement and it asks again: the
/// statement whole, a block it opens with it, and nothing of the next.
final class StatementBlankingTests: XCTestCase {
    private func blanked(_ text: String, line: Int, terminator: UInt8?) -> String? {
        let bytes = Array(text.utf8)
        return VerifyTest.statement(at: line, in: bytes, terminator: terminator).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    func testAnNginxStatementEndsAtItsSemicolonWhereverTheLinesBreak() {
        let config = "server {\n    listen 80;\n    proxy_pass\n        http://app;  # the app\n    root /srv;\n}\n"
        XCTAssertEqual(blanked(config, line: 2, terminator: UInt8(ascii: ";")), "    listen 80;")
        XCTAssertEqual(blanked(config, line: 3, terminator: UInt8(ascii: ";")), "    proxy_pass\n        http://app;")
        // A `;` or a brace inside quotes ends nothing.
        XCTAssertEqual(blanked("add_header X \"a;b{\";\nroot /x;\n", line: 1, terminator: UInt8(ascii: ";")), "add_header X \"a;b{\";")
    }

    /// A refused parameter is found as a word of its own in its statement, not inside another.
    func testARefusedParameterIsAWordOfItsStatement() {
        let bytes = Array("    server resolver.internal:80 resolve;\n".utf8)
        let statement = VerifyTest.statement(at: 1, in: bytes, terminator: UInt8(ascii: ";"))!
        let word = VerifyTest.word(Array("resolve".utf8), in: bytes, within: statement)
        XCTAssertEqual(word.map { String(decoding: bytes[$0], as: UTF8.self) }, "resolve")
        XCTAssertEqual(word?.lowerBound, 32, "the parameter, not the host name that starts with it")
        XCTAssertNil(VerifyTest.word(Array("internal".utf8), in: bytes, within: statement))
    }

    func testABlockGoesWithTheStatementThatOpensIt() {
        let config = "server {\n    location /a {\n        root /a;\n        location /b { root /b; }\n    }\n    root /srv;\n}\n"
        XCTAssertEqual(
            blanked(config, line: 2, terminator: UInt8(ascii: ";")), "    location /a {\n        root /a;\n        location /b { root /b; }\n    }")
        let caddy = "example.com {\n\thandle_errors 404 {\n\t\trespond gone\n\t}\n\troot * /srv\n}\n"
        XCTAssertEqual(blanked(caddy, line: 2, terminator: nil), "\thandle_errors 404 {\n\t\trespond gone\n\t}")
        XCTAssertEqual(blanked(caddy, line: 5, terminator: nil), "\troot * /srv")
    }

    /// Braces inside a word open no block: nginx's `${name}` and a Caddy placeholder.
    func testAVariablesOrAPlaceholdersBracesAreTheWords() {
        let nginx = "set_real_ip_from ${UPSTREAM};\nroot /srv;\n"
        XCTAssertEqual(blanked(nginx, line: 1, terminator: UInt8(ascii: ";")), "set_real_ip_from ${UPSTREAM};")
        let caddy = "site {\n\theader X-Host {http.request.host}\n\troot * /srv\n}\n"
        XCTAssertEqual(blanked(caddy, line: 2, terminator: nil), "\theader X-Host {http.request.host}")
        // A statement through the one at a place inside the line (where a variable is used).
        let bytes = Array("include a.conf; proxy_pass http://x; set $v \"$backend\";\nroot /srv;\n".utf8)
        let first = VerifyTest.statement(at: 1, in: bytes, terminator: UInt8(ascii: ";"))!
        XCTAssertEqual(String(decoding: bytes[first], as: UTF8.self), "include a.conf;")
        let second = VerifyTest.statement(from: first.upperBound, in: bytes, terminator: UInt8(ascii: ";"))!
        XCTAssertEqual(String(decoding: bytes[second], as: UTF8.self), " proxy_pass http://x;")
    }

    /// A `}` that closes the block around the statement ends it: the block stays whole.
    func testTheEnclosingBlocksBraceIsNotTaken() {
        XCTAssertEqual(blanked("server {\n    listen 80; }\n", line: 2, terminator: UInt8(ascii: ";")), "    listen 80;")
        XCTAssertEqual(blanked("site {\n\tbogus on }\n", line: 2, terminator: nil), "\tbogus on ")
        XCTAssertNil(blanked("one line\n", line: 3, terminator: nil))
    }
}
