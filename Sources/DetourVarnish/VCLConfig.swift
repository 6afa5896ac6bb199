import DetourDiagnostics
import DetourProxyCore
import Foundation

/// A VCL file read as varnishd reads it: its tokens with every `include "file";` replaced by
/// the file's (an absolute path as it is, `./` and `../` from the including file's folder, any
/// other path from `vcl_path`, by default Debian's /etc/varnish and /usr/share/varnish/vcl), parsed into
/// a program, and the built-in VCL parsed after it.
struct VCLConfig: Sendable {
    var program: VCLProgram
    var files: [String]
    /// What varnishd would refuse, the first thing only, as its compiler stops there.
    var diagnostic: Diagnostic?

    /// Debian's `vcl_path`.
    static let defaultVCLPath = ["/etc/varnish", "/usr/share/varnish/vcl"]
    /// Includes nested deeper than this are a loop (varnishd itself recurses until it runs out).
    static let depthLimit = 64

    /// `vclPath`: the folders a relative include is looked up in (varnishd's `-p vcl_path`).
    static func load(main: URL, display: String, vclPath: [String] = defaultVCLPath) -> VCLConfig {
        var files: [String] = []
        let tokens: [VCLToken]
        switch read(path: main.path, display: display, depth: 0, vclPath: vclPath, files: &files) {
        case .failure(let diagnostic): return VCLConfig(program: VCLProgram(), files: files, diagnostic: diagnostic)
        case .success(let read): tokens = read
        }
        // varnishd compiles the built-in VCL as more tokens after the VCL's own.
        switch VCLParser.parse(tokens + builtinTokens, end: SourceLocation(path: builtinPath)) {
        case .failure(let diagnostic):
            guard diagnostic.location.path == builtinPath, let last = tokens.last else {
                return VCLConfig(program: VCLProgram(), files: files, diagnostic: diagnostic)
            }
            // Only an open block reaches into the built-in VCL: the fix is in the VCL's own text.
            let moved = Diagnostic.error(
                VarnishRules.syntax.id,
                "a '{' is still open where the VCL ends: varnishd reads its built-in VCL into it and refuses that (\(diagnostic.message) at built-in line \(diagnostic.location.line))",
                at: last.location)
            return VCLConfig(program: VCLProgram(), files: files, diagnostic: moved)
        case .success(let program):
            return VCLConfig(program: program, files: files, diagnostic: nil)
        }
    }

    /// How findings name the built-in VCL.
    static let builtinPath = "<builtin>"

    /// The built-in VCL's tokens.
    static let builtinTokens: [VCLToken] = {
        guard case .success(let tokens) = VCLLexer.tokens(Array(VCLTable.builtin.utf8), path: builtinPath) else { return [] }
        return tokens
    }()

    private static func read(path: String, display: String, depth: Int, vclPath: [String], files: inout [String]) -> Result<[VCLToken], Diagnostic> {
        files.append(display)
        let bytes: [UInt8]
        switch ConfigurationText.read(path, display: display, rule: VarnishRules.syntax.id) {
        case .failure(let failure): return .failure(failure.diagnostic)
        case .success(let contents): bytes = contents.bytes
        }
        let tokens: [VCLToken]
        switch VCLLexer.tokens(bytes, path: display) {
        case .failure(let diagnostic): return .failure(diagnostic)
        case .success(let read): tokens = read
        }
        var result: [VCLToken] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            guard token.isName("include") else {
                result.append(token)
                index += 1
                continue
            }
            guard index + 1 < tokens.count, tokens[index + 1].kind == .string else {
                return .failure(.error(VarnishRules.syntax.id, "include not followed by string constant.", at: token.location))
            }
            let name = tokens[index + 1]
            guard index + 2 < tokens.count, tokens[index + 2].isSymbol(";") else {
                return .failure(.error(VarnishRules.syntax.id, "include <string> not followed by semicolon.", at: name.location))
            }
            guard depth < depthLimit else {
                return .failure(.error(VarnishRules.syntax.id, "includes nested more than \(depthLimit) deep: an include loop", at: token.location))
            }
            guard let (included, shown) = locate(name.text, from: path, display: display, vclPath: vclPath) else {
                return .failure(.error(VarnishRules.syntax.id, "Cannot read file '\(name.text)' (No such file or directory)", at: name.location))
            }
            switch read(path: included, display: shown, depth: depth + 1, vclPath: vclPath, files: &files) {
            case .failure(let diagnostic): return .failure(diagnostic)
            case .success(let inner): result += inner
            }
            index += 3
        }
        return .success(result)
    }

    /// Where varnishd finds an included file, and how findings name it.
    private static func locate(_ name: String, from including: String, display: String, vclPath: [String]) -> (String, String)? {
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        if name.hasPrefix("/") { return exists(name) ? (name, name) : nil }
        if name.hasPrefix("./") || name.hasPrefix("../") {
            let folder = URL(fileURLWithPath: including).deletingLastPathComponent()
            let path = folder.appendingPathComponent(name).standardizedFileURL.path
            let shownFolder = (display as NSString).deletingLastPathComponent
            let shown = shownFolder.isEmpty ? String(name.dropFirst(name.hasPrefix("./") ? 2 : 0)) : (shownFolder as NSString).appendingPathComponent(name)
            return exists(path) ? (path, (shown as NSString).standardizingPath) : nil
        }
        return vclPath.map { $0 + "/" + name }.first(where: exists).map { ($0, $0) }
    }
}
