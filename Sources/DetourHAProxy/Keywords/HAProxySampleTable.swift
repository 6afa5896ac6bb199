import Foundation

/// The sample fetches, converters and ACL keywords HAProxy 2.6 registers, with the arguments each
/// takes and the type it gives: derived from the haproxy binary by
/// scripts/haproxy-keywords/derive-samples.py (HAProxySampleData.swift).
struct HAProxySampleTable: Sendable {
    static let shared = HAProxySampleTable(haproxySampleData)

    /// What a fetch or a converter takes and gives.
    struct Keyword: Sendable {
        /// Each argument's type in HAProxy's words (`integer`, `IPv4 mask`), in order.
        var arguments: [String]
        /// How many of them are mandatory.
        var required: Int
        /// The type of what it gives (`str`, `sint`, `bin`, `any`…).
        var output: String
        /// What HAProxy says when it is given no argument and refuses that (its own check of
        /// them: `var` needs a name); nil when it takes none.
        var bareRefusal: String?
    }

    private(set) var fetches: [String: Keyword] = [:]
    private(set) var converters: [String: Keyword] = [:]
    /// Each ACL keyword and the fetch it reads.
    private(set) var aclKeywords: [String: String] = [:]

    init(_ data: String) {
        for line in data.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch (fields.first, fields.count) {
            case ("fetch", 4...5): fetches[fields[1]] = Self.keyword(fields[2], output: fields[3], bare: fields.count > 4 ? fields[4] : nil)
            case ("converter", 4...5): converters[fields[1]] = Self.keyword(fields[2], output: fields[3], bare: fields.count > 4 ? fields[4] : nil)
            case ("acl", 3): aclKeywords[fields[1]] = fields[2]
            default: continue
            }
        }
    }

    /// `string[,integer]` (the types, those from the first bracket on optional), `-` for none.
    private static func keyword(_ signature: String, output: String, bare: String?) -> Keyword {
        guard signature != "-" else { return Keyword(arguments: [], required: 0, output: output, bareRefusal: bare) }
        let mandatory = signature.split(separator: "[", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let types = { (text: Substring) in
            // Brackets only open and close the optional ones (`string[,integer[,string]]`).
            text.split(separator: ",").map { String($0.filter { $0 != "[" && $0 != "]" }) }.filter { !$0.isEmpty }
        }
        return Keyword(arguments: types(Substring(signature)), required: types(mandatory).count, output: output, bareRefusal: bare)
    }
}
