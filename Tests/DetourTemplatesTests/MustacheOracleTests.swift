import Mustache
import XCTest

@testable import DetourTemplates

/// The compiled templates against swift-mustache, the renderer they replace: thousands of
/// generated templates (sections, inverted sections, standalone and inline tags, partials at
/// any indentation, transforms, pragmas, dotted and implicit names, blank lines, CRLF) over one
/// context must render byte for byte the same. `TEMPLATE_ORACLE_SEED` picks another set.
final class MustacheOracleTests: XCTestCase {
    func testGeneratedTemplatesRenderAsSwiftMustacheDoes() throws {
        let seed = ProcessInfo.processInfo.environment["TEMPLATE_ORACLE_SEED"].flatMap { UInt64($0) } ?? 20_261_125
        var generator = TemplateGenerator(seed: seed)
        var compared = 0
        var failures: [String] = []
        for _ in 0..<3000 {
            let source = generator.template(depth: 0)
            let partials = Self.partials.merging(["generated": generator.partial()]) { $1 }
            guard let expected = Self.swiftMustache(source, partials: partials) else { continue }
            let compiled = try XCTUnwrap(CompiledTemplates(sources: partials.merging(["page": source]) { $1 }), "does not compile: \(source.debugDescription)")
            let actual = compiled.render("page", OracleContext.data)
            compared += 1
            if actual != expected, failures.count < 5 {
                failures.append(
                    "template \(source.debugDescription)\n  swift-mustache: \(expected.debugDescription)\n  compiled:       \(String(describing: actual?.debugDescription))"
                )
            }
        }
        XCTAssertGreaterThan(compared, 2500, "most generated templates parse")
        XCTAssert(failures.isEmpty, "seed \(seed):\n" + failures.joined(separator: "\n"))
    }

    /// Cases the generator reaches rarely: delimiters changed mid-template, a section closed on a
    /// line with text, a partial inside an indented partial, a tag before a line break.
    func testHandPickedCornersRenderAsSwiftMustacheDoes() throws {
        let cases = [
            "{{=<% %>=}}\n<%s1%> {{s1}}\n<%={{ }}=%>{{s1}}",
            "  {{#list}}\n  {{s1}}\n  {{/list}}\n",
            "a{{#b}}\n  x\n{{/b}} tail\n  {{#b}}\n{{/b}}\n",
            "  {{> nested}}\n|",
            "{{#list}}{{index()}}{{#first()}}F{{/first()}}{{#last()}}L{{/last()}}{{#odd()}}o{{/odd()}},{{/list}}",
            "{{count(list)}} {{#empty(empty)}}none{{/empty(empty)}} {{plusone(n)}} {{uppercased(s1)}} {{reversed(s1)}}",
            "{{%CONTENT_TYPE:TEXT}}{{s2}}\n{{> p1}}",
            "\r\n  {{#b}}\r\n x\r\n  {{/b}}\r\n",
            "{{#obj}}{{.s1}}{{s2}}{{inner.x}}{{/obj}}{{obj.inner.x}}{{obj.missing.x}}",
            "{{^empty}}[{{/empty}}{{^list}}never{{/list}}{{^missing}}m{{/missing}}{{^f}}f{{/f}}",
            "x{{\nname}}",
            "  {{> crlf}}\n",
        ]
        for source in cases {
            let expected = try XCTUnwrap(Self.swiftMustache(source, partials: Self.partials), source.debugDescription)
            let compiled = try XCTUnwrap(CompiledTemplates(sources: Self.partials.merging(["page": source]) { $1 }))
            XCTAssertEqual(compiled.render("page", OracleContext.data), expected, source.debugDescription)
        }
    }

    func testInheritanceAndDynamicPartialsAreLeftToSwiftMustache() {
        XCTAssertNil(CompiledTemplates(sources: ["page": "{{<base}}{{$title}}x{{/title}}{{/base}}"]))
        XCTAssertNil(CompiledTemplates(sources: ["page": "{{>*name}}"]))
        XCTAssertNotNil(CompiledTemplates(sources: ["page": "{{> base}}"]))
    }

    func testHTMLEscapingCoversEverySpecialCharacter() {
        let compiled = CompiledTemplates(sources: ["page": "{{s2}}|{{{s2}}}|{{&s2}}"])
        XCTAssertEqual(
            compiled?.render("page", OracleContext.data),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt; é|" + OracleContext.special + "|" + OracleContext.special)
    }

    static let partials = [
        "p1": "p:{{s1}}\n{{#b}}yes {{n}}\n{{/b}}end",
        "nested": "n1\n  {{> p1}}\nn2\n",
        // swift-mustache indents after "\n" but not after "\r\n"; so do the compiled templates.
        "crlf": "a\r\n{{s1}}\r\nb\n{{s1}}",
    ]

    static func swiftMustache(_ source: String, partials: [String: String]) -> String? {
        var library = MustacheLibrary()
        guard let page = try? MustacheTemplate(string: source) else { return nil }
        for (name, text) in partials {
            guard let template = try? MustacheTemplate(string: text) else { return nil }
            library.register(template, named: name)
        }
        library.register(page, named: "page")
        return library.render(OracleContext.any, withTemplate: "page")
    }
}
