import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The Lua scripts `lua-load` names, as HAProxy loads them while it reads the global section:
/// one it cannot open is refused at its line, and then so is every line that uses what a script
/// would register (`http-request lua.NAME`, `use-service lua.NAME`, a `lua.NAME` fetch), as
/// HAProxy refuses them. A relative path is read from the main file's folder (HAProxy reads it
/// from the folder it runs in); an installed one only through `--map`, else left to the
/// deployment, as are the names a script that is there registers.
struct HAProxyLuaScripts: Sendable {
    let lookup: HAProxyFileLookup?

    init(lookup: HAProxyFileLookup?) {
        self.lookup = lookup
    }

    /// Whether a script is loaded, or may be: what scripts register is then not judged.
    private(set) var mayRegister = false
    /// Whether some line loads a script at all.
    private var loads = false

    /// HAProxy's refusal of a `lua-load` or `lua-load-per-thread` line whose script it cannot open.
    mutating func load(_ line: HAProxyLine) -> Diagnostic? {
        guard line.words.count > 1 else { return nil }
        loads = true
        let path = line.words[1].text
        guard let lookup, let exists = lookup.exists(path) else {
            mayRegister = true
            return nil
        }
        if exists {
            mayRegister = true
            return nil
        }
        return .error(
            HAProxyRules.syntax.id, "error in Lua file '\(path)': cannot open \(path): No such file or directory: HAProxy refuses the file",
            at: line.location(of: line.words[1]))
    }

    /// Where no script is loaded though some line loads one, HAProxy's refusal of a proxy
    /// line's action or service a script would register.
    func refusal(of line: HAProxyLine) -> (word: HAProxyWord, message: String)? {
        guard loads, !mayRegister else { return nil }
        guard ["http-request", "http-response", "http-after-response", "tcp-request", "tcp-response"].contains(line.keyword) else { return nil }
        let words = line.words
        let actionIndex = line.actionIndex
        guard words.count > actionIndex else { return nil }
        let action = words[actionIndex]
        if action.text == "use-service", words.count > actionIndex + 1, words[actionIndex + 1].text.hasPrefix("lua.") {
            return (words[actionIndex + 1], "'\(words[actionIndex + 1].text)' unknown service name: no Lua script is loaded to register it")
        }
        guard action.text.hasPrefix("lua.") else { return nil }
        let rule = words[..<actionIndex].map(\.text).joined(separator: " ")
        return (action, "'\(rule)' expects an action, but got '\(action.text)': no Lua script is loaded to register it")
    }
}
