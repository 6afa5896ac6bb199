import DetourSupport
import Foundation
import Glibc

/// What the real nginx accepts for each directive of Debian's nginx and its module packages:
/// where it may stand, whether it opens a block, how many arguments it takes. Probed from
/// nginx by `scripts/nginx-directives/probe.py` into `nginx-directives.tsv` beside this file,
/// which the EmbedNginxDirectives plugin builds into the binary (`NginxDirectiveFiles`).
struct NginxDirectiveTable: Sendable {
    /// One way a directive may be written: a name can differ by context (`server` is a block
    /// in `http` and takes an address in `upstream`).
    /// Plain values only, so looking one up copies no reference.
    struct Form: Sendable {
        /// The same for every form of one name.
        var nameID: Int32 = 0
        /// Bit per `NginxContext` case it may stand in.
        var contexts: UInt32
        var isBlock: Bool
        /// Bit n set: n arguments are accepted (n ≤ 8); `orMore`: every count above 8 too.
        var counts: UInt16
        var orMore: Bool
        /// `on` or `off` only.
        var isFlag: Bool
        /// One value nginx reads when it starts (a size, a time, a number): a variable there,
        /// or a template's `${PLACEHOLDER}`, is an invalid value.
        var isConstant = false
        /// nginx refuses a second one in the same block as "is duplicate".
        var isOnce: Bool
        /// nginx takes several in one block, but refuses a second one as "is duplicate" where
        /// either is `off` (`proxy_redirect`: many rewrites, or none).
        var isOnceWithOff = false
        /// In nginx itself, not in a dynamic module.
        var isBuiltin: Bool
        /// Some values of it are refused (`refusedValues`): the rest need no lookup.
        var hasRefusedValues = false

        func accepts(_ count: Int) -> Bool {
            count > 8 ? orMore : counts & (1 << count) != 0
        }

        func isAllowed(in context: NginxContext) -> Bool { contexts & context.bit != 0 }
    }

    static let shared = NginxDirectiveTable(embeddedTable)

    /// The table's text as built into the binary.
    static var embeddedTable: String {
        guard let table = NginxDirectiveFiles.files.first, let bytes = Data(base64Encoded: table.base64) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    private var forms: [Form] = []
    /// Each name's place in `nameBytes` and its forms in `forms`, found through `slots`; plain
    /// values, so a lookup from many threads at once counts no references.
    private var names: [(start: Int32, count: Int32, forms: Range<Int32>)] = []
    private var nameBytes: [UInt8] = []
    /// Open addressing by a hash of the name's bytes: an index into `names`, or -1. Looking up
    /// a directive's bytes makes no string.
    private var slots: [Int32] = []
    /// The dynamic modules the table knows, by file name.
    private(set) var modules: Set<String> = []
    /// Each module directive's module files (a name two modules share, `geoip_country`, has both).
    private var moduleFilesByName: [String: [String]] = [:]
    /// Variables by name, and the families any suffix completes (`http_`), each with the
    /// blocks it is known in (`variableInHTTP`, `variableInStream`).
    private var variables: [String: UInt8] = [:]
    private var variablePrefixes: [(prefix: String, blocks: UInt8)] = []
    /// The values this build refuses wherever they are written ("aio on" without file AIO),
    /// with nginx's words, by the name's id.
    private(set) var refusedValues: [Int32: [String: String]] = [:]
    static let variableInHTTP: UInt8 = 1, variableInStream: UInt8 = 2

    init(_ text: String) {
        var text = text
        var rows: [(name: ArraySlice<UInt8>, form: Form)] = []
        var refusedByName: [[UInt8]: [String: String]] = [:]
        // Read as bytes: the table is read at every start, and Character-wise splitting of its
        // 1,300 rows would cost more than checking a small configuration.
        let bytes = text.withUTF8 { Array($0) }
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            let line = bytes[lineStart..<lineEnd]
            guard line.first != UInt8(ascii: "#") else { continue }
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 7 else { continue }
            func string(_ field: ArraySlice<UInt8>) -> String { String(decoding: field, as: UTF8.self) }
            func equals(_ field: ArraySlice<UInt8>, _ word: StaticString) -> Bool { ASCIIText.equals(field, word) }
            if equals(fields[3], "variable"), fields[0].first == UInt8(ascii: "$") {
                let blocks = fields[2].split(separator: UInt8(ascii: ",")).reduce(UInt8(0)) {
                    $0 | (equals($1, "http") ? Self.variableInHTTP : equals($1, "stream") ? Self.variableInStream : 0)
                }
                let name = fields[0].dropFirst()
                if name.last == UInt8(ascii: "*") {
                    variablePrefixes.append((string(name.dropLast()), blocks))
                } else {
                    variables[string(name), default: 0] |= blocks
                }
                continue
            }
            if equals(fields[3], "refused-value") {
                refusedByName[Array(fields[0]), default: [:]][string(fields[4])] = string(fields[5])
                continue
            }
            let (counts, orMore) = Self.counts(Substring(string(fields[4])))
            let contexts = fields[2].split(separator: UInt8(ascii: ",")).reduce(UInt32(0)) { bits, field in
                bits | (Self.contextBytes.first { $0.bytes.elementsEqual(field) }?.bit ?? 0)
            }
            let isBuiltin = equals(fields[1], "builtin")
            rows.append(
                (
                    fields[0],
                    Form(
                        contexts: contexts, isBlock: equals(fields[3], "block"), counts: counts, orMore: orMore,
                        isFlag: equals(fields[5], "flag"), isConstant: equals(fields[5], "constant"), isOnce: equals(fields[6], "once"),
                        isOnceWithOff: equals(fields[6], "off-once"),
                        isBuiltin: isBuiltin)
                ))
            if !isBuiltin {
                modules.insert(string(fields[1]))
                moduleFilesByName[string(fields[0]), default: []].append(string(fields[1]))
            }
        }
        var spelled: [[UInt8]] = []
        for row in rows.sorted(by: { $0.name.lexicographicallyPrecedes($1.name) }) {
            let bytes = Array(row.name)
            if spelled.last == bytes {
                names[names.count - 1].forms = names[names.count - 1].forms.lowerBound..<Int32(forms.count + 1)
            } else {
                names.append((Int32(nameBytes.count), Int32(bytes.count), Int32(forms.count)..<Int32(forms.count + 1)))
                nameBytes += bytes
                spelled.append(bytes)
            }
            var form = row.form
            form.nameID = Int32(names.count - 1)
            if let values = refusedByName[bytes] {
                refusedValues[form.nameID] = values
                form.hasRefusedValues = true
            }
            forms.append(form)
        }
        var size = 16
        while size < names.count * 4 { size *= 2 }
        slots = Array(repeating: -1, count: size)
        for (index, bytes) in spelled.enumerated() {
            var slot = bytes.withUnsafeBufferPointer(Self.hash) & (size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(index)
        }
    }

    /// The form of `name` allowed in `context`, nil when none is; `isKnown` is false when no
    /// module has the name at all.
    /// Inlined: every directive of a configuration is looked up here.
    @inline(__always)
    func form(of name: UnsafeBufferPointer<UInt8>, in context: NginxContext) -> (form: Form?, isKnown: Bool) {
        guard let id = nameID(name) else { return (nil, false) }
        for index in names[id].forms where forms[Int(index)].isAllowed(in: context) { return (forms[Int(index)], true) }
        return (nil, true)
    }

    func form(of name: String, in context: NginxContext) -> (form: Form?, isKnown: Bool) {
        var name = name
        return name.withUTF8 { form(of: $0, in: context) }
    }

    /// How many directive names the table has; `nameID` numbers them from 0.
    var nameCount: Int { names.count }

    /// The number of directive `name`, nil when nginx does not know it.
    @inline(__always)
    func nameID(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        nameBytes.withUnsafeBufferPointer { spelled in
            var slot = Self.hash(name) & (slots.count - 1)
            while slots[slot] >= 0 {
                let id = Int(slots[slot])
                let entry = names[id]
                if Int(entry.count) == name.count, name.count == 0 || memcmp(spelled.baseAddress! + Int(entry.start), name.baseAddress!, name.count) == 0 {
                    return id
                }
                slot = (slot + 1) & (slots.count - 1)
            }
            return nil
        }
    }

    func nameID(_ name: String) -> Int? {
        var name = name
        return name.withUTF8 { nameID($0) }
    }

    /// Whether nginx itself has directive number `id` (not only a dynamic module).
    func isBuiltin(_ id: Int) -> Bool { names[id].forms.contains { forms[Int($0)].isBuiltin } }

    /// The dynamic modules' files that have directive `name` (none for nginx's own directives).
    func moduleFiles(of name: String) -> [String] { moduleFilesByName[name] ?? [] }

    /// Whether nginx knows variable `name` (lower case, without `$`) in `blocks`.
    func knowsVariable(_ name: String, in blocks: UInt8) -> Bool {
        if let known = variables[name], known & blocks != 0 { return true }
        return variablePrefixes.contains { name.hasPrefix($0.prefix) && $0.blocks & blocks != 0 }
    }

    private static let contextBytes = NginxContext.allCases.map { (bytes: Array($0.rawValue.utf8), bit: $0.bit) }

    /// FNV-1a.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash >> 1)
    }

    /// `1`, `1-2`, `0,2`, `1+`: the counts as a bit set.
    private static func counts(_ text: Substring) -> (UInt16, Bool) {
        var bits: UInt16 = 0
        var orMore = false
        for part in text.split(separator: ",") {
            if part.hasSuffix("+"), let low = Int(part.dropLast()) {
                if low <= 8 { for n in low...8 { bits |= 1 << n } }
                orMore = true
            } else if let dash = part.firstIndex(of: "-"), let low = Int(part[..<dash]), let high = Int(part[part.index(after: dash)...]), low <= high,
                high <= 8
            {
                for n in low...high { bits |= 1 << n }
            } else if let n = Int(part), n <= 8 {
                bits |= 1 << n
            }
        }
        return (bits, orMore)
    }
}
