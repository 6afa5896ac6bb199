import DetourTestSupport
import Foundation

/// What a shell block in the knowledge base asks a reader to run: it must parse (`bash -n`)
/// and name only commands Debian 12 has, by the table `scripts/debian-commands/derive.py`
/// writes from Debian's Contents index (the same reading of commands as here).
enum ShellBlockCommands {
    static let languages: Set = ["sh", "bash", "shell", "console"]

    /// Command → the Debian 12 package that installs it.
    static let debian: [String: String] = TestDataTable.rows("ShellCommands/debian-bookworm.tsv", fields: 3).reduce(into: [:]) { table, row in
        table[row[0]] = row[2]
    }

    /// sudo's options that take an argument.
    private static let sudoArgumentOptions: Set = ["-u", "-g", "-U", "-C", "-D", "-h", "-p", "-R", "-T"]

    /// What is wrong with `code`, empty when nothing is.
    static func problems(_ code: String) throws -> [String] {
        let bash = try RequiredTool.find("bash")
        let parsed = try ProcessRunner.run(bash, ["-n"], input: Data(code.utf8))
        var problems = parsed.status == 0 ? [] : ["bash -n: " + parsed.stderr.trimmingCharacters(in: .whitespacesAndNewlines)]
        for command in commands(in: code) where debian[command] == nil {
            let kind = try ProcessRunner.run(bash, ["-c", #"type -t -- "$1""#, "bash", command]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if kind != "builtin" && kind != "keyword" {
                problems.append("`\(command)` is not a command Debian 12 installs (scripts/debian-commands/derive.py lists those the articles name)")
            }
        }
        return problems
    }

    /// The first word of each command in the pipelines and lists, after `sudo` (which counts
    /// too) and `VAR=value`.
    static func commands(in code: String) -> [String] {
        var found: [String] = []
        for line in code.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n") {
            // Quoted text is an argument, and `2>&1` a redirection: neither starts a command.
            let unquoted = line.replacing(#/'[^']*'/#, with: "Q").replacing(#/[0-9]*[<>]&[0-9-]*/#, with: " ")
            let uncommented = unquoted.replacing(#/(^|\s)#.*$/#, with: "")
            for part in uncommented.split(separator: #/\|\||&&|[|;&]|\$\(|`|\)/#) {
                var words = part.split(whereSeparator: \.isWhitespace).map(String.init)
                while let first = words.first, first == "sudo" || first.firstMatch(of: #/^[A-Za-z_][A-Za-z0-9_]*=/#) != nil {
                    words.removeFirst()
                    guard first == "sudo" else { continue }
                    found.append("sudo")
                    while let option = words.first, option.hasPrefix("-") {
                        words.removeFirst()
                        if sudoArgumentOptions.contains(option), !words.isEmpty { words.removeFirst() }
                    }
                }
                if let command = words.first, command.wholeMatch(of: #/[A-Za-z0-9_.+-]+/#) != nil { found.append(command) }
            }
        }
        return found
    }
}
