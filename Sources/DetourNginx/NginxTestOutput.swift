import DetourDiagnostics
import DetourProxyCore
import Foundation

/// What `nginx -t` said of a sandboxed copy, read back: its `[emerg]` as a finding at the
/// original file and line (`nginx.syntax`, `nginx.include-missing` or `nginx.directive`, as
/// `detour check` names them),
/// or, when nginx lacks a module the configuration uses (a dynamic module's directive that it
/// does not know, a module file that is not there), why the sandbox cannot run it.
public enum NginxTestOutput {
    /// `output`, in which each file's sandbox copy (`copies`) is named: each copy is replaced
    /// by the file's own name, and a message without a place is put at `main`'s first line.
    /// A `stream` or `mail` block whose module this nginx has as a file in `modulesFolder` but
    /// the configuration does not load (built in where it was written) gets it loaded.
    public static func read(_ output: String, copies: [(copy: String, display: String)], main: String, modulesFolder: String? = nil) -> SandboxRefusal {
        var reading = SandboxRefusal()
        for raw in output.split(separator: "\n") where raw.contains("[emerg]") {
            var line = String(raw)
            for file in copies { line = line.replacingOccurrences(of: file.copy, with: file.display) }
            guard let start = line.range(of: "[emerg] ")?.upperBound else { continue }
            var message = String(line[start...])
            var location = SourceLocation(path: main, line: 1, column: 1)
            if let place = message.range(of: #" in [^ ]+:[0-9]+$"#, options: .regularExpression) {
                let spot = message[place].dropFirst(4)
                if let colon = spot.lastIndex(of: ":"), let number = Int(spot[spot.index(after: colon)...]) {
                    location = SourceLocation(path: String(spot[..<colon]), line: number, column: 1)
                }
                message = String(message[..<place.lowerBound])
            } else if let variable = Self.unknownVariable(message), let use = Self.firstUse(of: variable, in: copies) {
                // nginx names no place for a variable it does not know: its first use is it.
                location = use
            }
            if let name = Self.unknownDirective(message), let module = Self.unprobedBlocks[name], let folder = modulesFolder,
                FileManager.default.fileExists(atPath: folder + "/" + module + ".so")
            {
                reading.loads.append(
                    (
                        SourceLocation(path: main, line: 1, column: 1), "load_module \(folder)/\(module).so; ",
                        "load_module \(folder)/\(module).so added: \(name) {…} needs it, a dynamic module of this nginx"
                    ))
            } else if let name = Self.unknownDirective(message), Self.unprobedBlocks[name] != nil {
                reading.setAside.append((location, "\(name) {…}: this nginx does not load \(Self.unprobedBlocks[name]!), and it is not probed"))
            } else if let name = Self.unknownDirective(message), let folder = modulesFolder,
                case let files = NginxDirectiveTable.shared.moduleFiles(of: name).filter({ FileManager.default.fileExists(atPath: folder + "/" + $0) }),
                !files.isEmpty
            {
                // The user's nginx has the module built in or loaded elsewhere; here it is a file.
                for file in files {
                    reading.loads.append(
                        (
                            SourceLocation(path: main, line: 1, column: 1), "load_module \(folder)/\(file); ",
                            "load_module \(folder)/\(file) added: \(name) needs it, a dynamic module installed with this nginx"
                        ))
                }
            } else if message.hasPrefix("dlopen()"), let symbol = Self.undefinedSymbol(message), let folder = modulesFolder,
                let needed = NginxModuleFiles.defining(symbol, in: folder)
            {
                // A module built on another (set-misc and lua on the NDK) needs that one loaded first.
                reading.loads.append(
                    (
                        location, "load_module \(folder)/\(needed); ",
                        "load_module \(folder)/\(needed) added: the module loaded here needs its \(symbol)"
                    ))
            } else if message.hasPrefix("dlopen()") {
                reading.missing = "a module file this nginx does not have: \(message)"
            } else if let name = Self.unknownDirective(message), let id = NginxDirectiveTable.shared.nameID(name), !NginxDirectiveTable.shared.isBuiltin(id) {
                let files = NginxDirectiveTable.shared.moduleFiles(of: name).joined(separator: " or ")
                reading.missing =
                    "\"\(name)\" is a directive of \(files), a dynamic module not installed here (\(location.path):\(location.line)); install it where nginx's modules are (\(modulesFolder ?? "nginx -V's --modules-path"))"
            } else {
                let rule =
                    message.hasPrefix("open() \"")
                    ? NginxRules.includeMissing.id
                    : message.contains("unexpected") || message.contains("expecting") ? NginxRules.syntax.id : NginxRules.directive.id
                if let word = Self.invalidParameter(message) {
                    reading.words[reading.findings.count] = word
                    let key = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
                    reading.anotherEdition = reading.anotherEdition || NginxPlusOnly.serverParameters.contains(key)
                }
                if let name = Self.unknownDirective(message), NginxPlusOnly.directives.contains(name) { reading.anotherEdition = true }
                // An upstream whose servers come at run time (NGINX Plus's API): one is given it,
                // at the line of its `}`, which nginx names.
                if message == "no servers are inside upstream" {
                    reading.insertions[reading.findings.count] = "server \(SandboxRefusal.upstreamMark); "
                }
                reading.findings.append(.error(rule, message, at: location))
            }
        }
        return reading
    }

    /// Top-level blocks of dynamic modules whose servers detour does not probe, with the module.
    static let unprobedBlocks = ["stream": "ngx_stream_module", "mail": "ngx_mail_module"]

    /// `unknown "arg" variable`'s name.
    private static func unknownVariable(_ message: String) -> String? {
        guard message.hasPrefix("unknown \""), message.hasSuffix("\" variable") else { return nil }
        return String(message.dropFirst("unknown \"".count).dropLast("\" variable".count))
    }

    /// The first line, in the files' order, that writes `$name` or `${name}`.
    private static func firstUse(of name: String, in copies: [(copy: String, display: String)]) -> SourceLocation? {
        let pattern = "\\$(\\{" + NSRegularExpression.escapedPattern(for: name) + "\\}|" + NSRegularExpression.escapedPattern(for: name) + "(?![A-Za-z0-9_]))"
        // nginx names a variable in lower case; it reads any case alike.
        guard let regex = try? NSRegularExpression(pattern: pattern, options: .caseInsensitive) else { return nil }
        for file in copies {
            guard let text = try? String(contentsOfFile: file.copy, encoding: .utf8) else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? line
                if let found = regex.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)), let range = Range(found.range, in: code) {
                    return SourceLocation(path: file.display, line: index + 1, column: code.distance(from: code.startIndex, to: range.lowerBound) + 1)
                }
            }
        }
        return nil
    }

    /// `invalid parameter "resolve"`'s parameter.
    private static func invalidParameter(_ message: String) -> String? {
        guard message.hasPrefix("invalid parameter \"") else { return nil }
        return String(message.dropFirst("invalid parameter \"".count).prefix { $0 != "\"" })
    }

    /// `dlopen() "…" failed (…: undefined symbol: ndk_set_var_value)`'s symbol.
    private static func undefinedSymbol(_ message: String) -> String? {
        guard let range = message.range(of: "undefined symbol: ") else { return nil }
        let symbol = String(message[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        return symbol.isEmpty ? nil : symbol
    }

    /// `unknown directive "name"`'s name.
    private static func unknownDirective(_ message: String) -> String? {
        guard message.hasPrefix("unknown directive \"") else { return nil }
        return String(message.dropFirst("unknown directive \"".count).prefix { $0 != "\"" })
    }
}
