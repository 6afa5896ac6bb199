import DetourProxyCore
import Foundation
import XCTest

/// The strings `detour verify` asks for to reach a route only a regular expression names: the
/// plainest candidate of each pattern, taken from real configurations, matches it.
final class RegexSampleTests: XCTestCase {
    private func matches(_ pattern: String, _ text: String, caseless: Bool = false) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern.replacingOccurrences(of: "(?P<", with: "(?<"), options: caseless ? [.caseInsensitive] : [])
        else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    func testThePlainestCandidateMatchesPatternsFromRealConfigurations() {
        let patterns = [
            #"\.php$"#, #"^/(index|matomo|piwik|js/index|plugins/HeatmapSessionRecording/configs)\.php$"#, #"^.+\.php$"#,
            #"^/(config|tmp|core|lang)"#, #"/\.ht"#, #"js/container_.*_preview\.js$"#,
            #"\.(gif|ico|jpg|png|svg|js|css|htm|html|mp3|mp4|wav|ogg|avi|ttf|eot|woff|woff2)$"#, #"/(.*\.md|LEGALNOTICE|LICENSE)"#,
            #"^/(fpm-status|fpm-ping)$"#, #"^/(assets|avatars|emoji|headers|packs|shortcuts|sounds)/"#, #"/json/events"#,
            #"^/(?:index|remote|public|cron|core/ajax/update|status|ocs/v[12]|updater/.+|oc[ms]-provider/.+)\.php(?:$|/)"#,
            #"^\/(?:build|tests|config|lib|3rdparty|templates|data)(?:$|\/)"#, #"\.(?:css|js|svg|gif|png|jpg|ico|wasm|tflite|map)$"#,
            #"^/(?<slug>[a-z0-9-]+)/feed/?$"#, #"(?P<user>^/u/\d+)$"#, #"^/\d{3,4}\.html$"#, #"[^/]\.php(/|$)"#,
            #"^/static/[[:alnum:]_-]+\.(?i:CSS|JS)$"#, #"\Q/a.b\E/c"#, #"^/(?!admin)\w+$"#, #"^/api/v[0-9]+/(users|groups)/[^/]+$"#,
        ]
        for pattern in patterns {
            let candidates = RegexSample.candidates(pattern)
            XCTAssertFalse(candidates.isEmpty, pattern)
            guard let first = candidates.first else { continue }
            XCTAssertTrue(matches(pattern, first), "\(pattern) → \(first)")
            XCTAssertEqual(Set(candidates).count, candidates.count, "no candidate twice: \(pattern)")
        }
    }

    /// Alternatives and repeats give candidates apart from the plainest, so that a route an
    /// earlier expression takes on its first alternative can still be reached by another.
    func testCandidatesVaryAlternativesAndRepeats() {
        XCTAssertEqual(RegexSample.candidates("^/(a|b)/x?$"), ["/a/x", "/b/x", "/a/", "/b/"])
        XCTAssertEqual(RegexSample.candidates(#"^/v\d+$"#), ["/v1", "/v11"])
        XCTAssertEqual(RegexSample.candidates(#"[^a-z1]"#).first, "0", "a negated class: a character outside it")
        XCTAssertEqual(RegexSample.candidates("(unclosed"), [], "a pattern it cannot read gives none")
    }
}
