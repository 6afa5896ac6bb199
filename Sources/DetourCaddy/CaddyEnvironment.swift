import Foundation

/// `{$NAME}` and `{$NAME:default}`: Caddy puts environment variables into a Caddyfile's text
/// before it reads any word, quotes and comments included.
enum CaddyEnvironment {
    private static let open = Array("{$".utf8)

    static func expand(_ input: [UInt8], environment: [String: String] = ProcessInfo.processInfo.environment) -> [UInt8] {
        guard input.count > 1, input.indices.dropLast().contains(where: { input[$0] == UInt8(ascii: "{") && input[$0 + 1] == UInt8(ascii: "$") }) else {
            return input
        }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            guard index + 1 < input.count, input[index] == open[0], input[index + 1] == open[1],
                let close = input[(index + 2)...].firstIndex(of: UInt8(ascii: "}"))
            else {
                output.append(input[index])
                index += 1
                continue
            }
            let inside = String(decoding: input[(index + 2)..<close], as: UTF8.self)
            if inside.isEmpty {
                output += input[index...close]
            } else {
                let parts = inside.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let value = environment[String(parts[0])] ?? (parts.count == 2 ? String(parts[1]) : "")
                output += Array(value.utf8)
            }
            index = close + 1
        }
        return output
    }
}
