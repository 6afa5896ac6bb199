import DetourDiagnostics
import DetourSupport
import Foundation
import Synchronization

/// What the browser is told in serve mode, and only there: a script that reloads the page when
/// a build finishes, and the findings of a failed build laid over the page. Both are added to
/// HTML as it is sent; the built files never hold them.
final class LiveReload: Sendable {
    static let scriptPath = "/__detour/live.js"
    static let eventsPath = "/__detour/events"

    /// Counts finished builds; a page carries the count it was built at, so a build that ends
    /// before its event stream connects still reloads it.
    private let state = Mutex<(generation: Int, failure: [Diagnostic])>((0, []))

    var generation: Int { state.withLock { $0.generation } }

    /// A build under way has read its changes without an error: pages sent from now on drop
    /// the last failure's overlay, before the build is finished and browsers are told.
    func clearFailure() {
        state.withLock { $0.failure = [] }
    }

    func finished(_ diagnostics: [Diagnostic]) {
        state.withLock { $0 = ($0.generation + 1, diagnostics.filter { $0.severity == .error }) }
    }

    /// Reloads on `reload`; reconnects by itself when the server restarts.
    static let script = """
        (function () {
          var me = document.currentScript, since = me ? me.getAttribute("data-generation") : "0";
          var events = new EventSource("\(eventsPath)?since=" + encodeURIComponent(since));
          events.addEventListener("reload", function () { events.close(); location.reload(); });
        })();

        """

    /// `html` with the reload script before its last `</body>` (in any case), or at its end
    /// without one, and the failure overlay if the last build failed. Done on the bytes: a
    /// large site's home page lists every article, megabytes a String would walk.
    func inject(into html: Data) -> Data {
        let (generation, failure) = state.withLock { ($0.generation, $0.failure) }
        var added = "<script src=\"\(Self.scriptPath)\" data-generation=\"\(generation)\"></script>"
        if !failure.isEmpty { added = Self.overlay(failure) + added }
        let end = Self.lastBodyEnd(in: html) ?? html.endIndex
        var page = Data(capacity: html.count + added.utf8.count)
        page.append(html[html.startIndex..<end])
        page.append(contentsOf: added.utf8)
        page.append(html[end...])
        return page
    }

    /// Where the last `</body>` starts, its letters in any case.
    static func lastBodyEnd(in html: Data) -> Data.Index? {
        let tag = Array("</body>".utf8)
        return html.withUnsafeBytes { bytes -> Int? in
            var start = bytes.count - tag.count
            while start >= 0 {
                if bytes[start] == UInt8(ascii: "<"), (1..<tag.count).allSatisfy({ ASCIIText.lowercased(bytes[start + $0]) == tag[$0] }) {
                    return start
                }
                start -= 1
            }
            return nil
        }.map { html.startIndex + $0 }
    }

    private static func overlay(_ failure: [Diagnostic]) -> String {
        let text = DiagnosticFormat.text.render(failure, toolVersion: "")
        return """
            <div id="detour-build-failed" role="alert" style="position:fixed;inset:0;z-index:2147483647;overflow:auto;margin:0;padding:2rem;background:rgba(20,20,24,.94);color:#fff;font:15px/1.5 system-ui,sans-serif">\
            <h2 style="margin:0 0 1rem;color:#ff8a80">The last change did not build</h2>\
            <pre style="white-space:pre-wrap;font:14px/1.5 ui-monospace,monospace">\(HTMLText.escape(text))</pre>\
            <p>This page is the last good build. Fix the file and save: it reloads by itself.</p></div>
            """
    }
}
