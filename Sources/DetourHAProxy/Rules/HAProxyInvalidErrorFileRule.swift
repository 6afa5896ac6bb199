import DetourDiagnostics
import DetourProxyCore

/// A file sent as a whole response that HAProxy cannot send: empty (passed by `haproxy -c`,
/// and visitors get no answer), or not an HTTP response, a wrong Content-Length, larger than
/// a buffer (refused by `haproxy -c`).
struct HAProxyInvalidErrorFileRule: HAProxyRule {
    static let about = HAProxyRules.errorfileInvalid

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        model.pages.filter { $0.kind == .response }.flatMap { page -> [Diagnostic] in
            guard let (file, problems) = context.errorFile(page, in: model) else { return [] }
            return problems.compactMap { problem in
                let subject = "\(page.directive) for \(page.code) sends \(context.shown(page, file))"
                switch problem {
                case .empty:
                    return Self.finding(
                        "\(subject), which is empty: visitors get no response at all, the connection just closes; haproxy -c passes it",
                        at: page.pathLocation,
                        notes: [
                            Self.fix("point it at detour's errors/\(page.code).http, a whole HTTP response")
                        ])
                case .notHTTP:
                    return Self.finding(
                        "\(subject), which is not a whole HTTP response (status line, headers, blank line, body): HAProxy refuses to start ('unable to parse headers')",
                        at: page.pathLocation,
                        notes: [
                            Self.fix(
                                "errorfile takes detour's errors/\(page.code).http; a bare page goes in 'http-error status \(page.code) content-type text/html file <page>'"
                            )
                        ])
                case .contentLength(let announced, let body):
                    return Self.finding(
                        "\(subject), whose Content-Length says \(announced) bytes for a body of \(body): HAProxy refuses to start ('payload size does not match the announced content-length')",
                        at: page.pathLocation,
                        notes: [
                            Self.fix("rebuild the file with 'detour build', which writes the length of the body it writes")
                        ])
                case .tooLarge(let size, let limit):
                    return Self.finding(
                        "\(subject), \(size) bytes, larger than a buffer (tune.bufsize \(limit)): HAProxy reads \(limit) bytes of it and refuses to start",
                        at: page.pathLocation,
                        notes: [
                            Self.fix("shrink the page below \(limit - model.maxRewrite) bytes (tune.bufsize − tune.maxrewrite)")
                        ])
                case .statusLine, .overRewriteSpace:
                    return nil
                }
            }
        }
    }
}
