import DetourSupport

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

    /// The table's tab-separated lines, read as bytes: a check reads it at every start.
    init(_ data: String) {
        FieldLines.forEach(in: Array(data.utf8), separator: UInt8(ascii: "\t")) { fields in
            let kind = fields[0]
            switch fields.count {
            case 4...5 where kind.elementsEqual("fetch".utf8) || kind.elementsEqual("converter".utf8):
                let name = FieldLines.string(fields[1])
                let keyword = Self.keyword(fields[2], output: FieldLines.string(fields[3]), bare: fields.count > 4 ? FieldLines.string(fields[4]) : nil)
                if kind.elementsEqual("fetch".utf8) { fetches[name] = keyword } else { converters[name] = keyword }
            case 3 where kind.elementsEqual("acl".utf8): aclKeywords[FieldLines.string(fields[1])] = FieldLines.string(fields[2])
            default: break
            }
            return true
        }
    }

    /// `string[,integer]` (the types, those from the first bracket on optional), `-` for none.
    private static func keyword(_ signature: UnsafeBufferPointer<UInt8>, output: String, bare: String?) -> Keyword {
        var arguments: [String] = []
        var required = 0
        var optional = false
        var type: [UInt8] = []
        // Brackets only open and close the optional ones (`string[,integer[,string]]`).
        func finishType() {
            guard !type.isEmpty, type != [UInt8(ascii: "-")] else { return }
            arguments.append(String(decoding: type, as: UTF8.self))
            if !optional { required += 1 }
            type.removeAll(keepingCapacity: true)
        }
        for byte in signature {
            switch byte {
            case UInt8(ascii: "["):
                finishType()
                optional = true
            case UInt8(ascii: "]"): continue
            case UInt8(ascii: ","): finishType()
            default: type.append(byte)
            }
        }
        finishType()
        return Keyword(arguments: arguments, required: required, output: output, bareRefusal: bare)
    }
}
