import DetourDiagnostics

/// One `error_page` directive: `error_page 500 502 [=[code]] target;`.
public struct NginxErrorPage: Sendable {
    public enum StatusOverride: Sendable, Equatable {
        /// The client gets the original status.
        case none
        /// `=`: the status of the page's own response.
        case fromTarget
        /// `=code`.
        case status(Int)
    }

    public var codes: [Int]
    public var statusOverride: StatusOverride
    public var target: String
    public var directive: ConfigDirective

    public var isNamedLocation: Bool { target.hasPrefix("@") }
    public var hasVariables: Bool { target.utf8.contains(UInt8(ascii: "$")) }
    /// The URI part of the target, without a query string.
    public var path: String {
        guard let question = target.firstIndex(of: "?") else { return target }
        return String(target[..<question])
    }

    /// Reads the directive; nil (with a diagnostic) when nginx would refuse it.
    static func read(_ directive: ConfigDirective, diagnostics: inout [Diagnostic]) -> NginxErrorPage? {
        let values = directive.values
        guard values.count >= 2, let target = values.last else {
            diagnostics.append(.error("nginx.syntax", "invalid number of arguments in \"error_page\" directive", at: directive.location))
            return nil
        }
        var codes: [Int] = []
        var statusOverride = StatusOverride.none
        for (index, value) in values.dropLast().enumerated() {
            let location = directive.arguments[index].location
            if value.hasPrefix("=") {
                if value == "=" {
                    statusOverride = .fromTarget
                } else if let code = Int(value.dropFirst()) {
                    statusOverride = .status(code)
                } else {
                    diagnostics.append(.error("nginx.syntax", "invalid value \"\(value)\" in \"error_page\"", at: location))
                    return nil
                }
            } else if let code = Int(value), (300...599).contains(code) {
                codes.append(code)
            } else {
                diagnostics.append(.error("nginx.syntax", "value \"\(value)\" must be between 300 and 599 in \"error_page\"", at: location))
                return nil
            }
        }
        return NginxErrorPage(codes: codes, statusOverride: statusOverride, target: target, directive: directive)
    }
}
