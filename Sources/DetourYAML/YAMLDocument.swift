import DetourDiagnostics
import Yams

/// Parses YAML into a Yams node tree, turning syntax errors into located diagnostics.
public enum YAMLDocument {
    /// - Parameter lineOffset: lines of the file above the YAML text (front matter starts below `---`).
    public static func compose(_ text: String, path: String, lineOffset: Int = 0) -> Result<Node?, Diagnostic> {
        do {
            // The basic resolver tags every scalar as text; FieldReader parses numbers, booleans
            // and nulls itself (the default resolver runs a regular expression per scalar).
            // An explicit encoding spares Yams reading the process environment on every parse.
            return .success(try Yams.compose(yaml: text, .basic, .default, .utf8))
        } catch let error as YamlError {
            return .failure(diagnostic(for: error, path: path, lineOffset: lineOffset))
        } catch {
            return .failure(.error("yaml.syntax", "\(error)", at: SourceLocation(path: path, line: lineOffset + 1)))
        }
    }

    private static func diagnostic(for error: YamlError, path: String, lineOffset: Int) -> Diagnostic {
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(path: path, line: mark.line + lineOffset, column: mark.column)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let notes = context.map { [Diagnostic.Note($0.text, at: at($0.mark))] } ?? []
            return .error("yaml.syntax", "invalid YAML: \(problem)", at: at(mark), notes: notes)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return .error("yaml.duplicate-key", "key \(keys) appears more than once in this mapping", at: at(context.mark))
        case .reader(let problem, _, _, _):
            return .error("yaml.syntax", "invalid YAML: \(problem)", at: SourceLocation(path: path, line: lineOffset + 1))
        default:
            return .error("yaml.syntax", "invalid YAML: \(error)", at: SourceLocation(path: path, line: lineOffset + 1))
        }
    }
}
