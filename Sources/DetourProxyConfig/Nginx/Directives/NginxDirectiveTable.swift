/// What the real nginx accepts for each directive of Debian's nginx and its module packages:
/// where it may stand, whether it opens a block, how many arguments it takes. Probed from
/// nginx by `scripts/nginx-directives/probe.py`; the rows are in `NginxDirectiveTable+Data`.
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
        /// nginx refuses a second one in the same block as "is duplicate".
        var isOnce: Bool
        /// In nginx itself, not in a dynamic module.
        var isBuiltin: Bool

        func accepts(_ count: Int) -> Bool {
            count > 8 ? orMore : counts & (1 << count) != 0
        }

        func isAllowed(in context: NginxContext) -> Bool { contexts & context.bit != 0 }
    }

    static let shared = NginxDirectiveTable(data)

    private var forms: [Form] = []
    /// Each name's bytes and its forms in `forms`, found through `slots`.
    private var names: [(bytes: [UInt8], forms: Range<Int>)] = []
    /// Open addressing by a hash of the name's bytes: an index into `names`, or -1. Looking up
    /// a directive's bytes makes no string.
    private var slots: [Int32] = []
    /// The dynamic modules the table knows, by file name.
    private(set) var modules: Set<String> = []
    /// Variables by name, and the families any suffix completes (`http_`), each with the
    /// blocks it is known in (`variableInHTTP`, `variableInStream`).
    private var variables: [String: UInt8] = [:]
    private var variablePrefixes: [(prefix: String, blocks: UInt8)] = []
    static let variableInHTTP: UInt8 = 1, variableInStream: UInt8 = 2

    init(_ text: String) {
        var rows: [(name: String, form: Form)] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 7 else { continue }
            if fields[3] == "variable", fields[0].hasPrefix("$") {
                let blocks = fields[2].split(separator: ",").reduce(UInt8(0)) {
                    $0 | ($1 == "http" ? Self.variableInHTTP : $1 == "stream" ? Self.variableInStream : 0)
                }
                let name = fields[0].dropFirst()
                if name.hasSuffix("*") {
                    variablePrefixes.append((String(name.dropLast()), blocks))
                } else {
                    variables[String(name), default: 0] |= blocks
                }
                continue
            }
            let (counts, orMore) = Self.counts(fields[4])
            let contexts = fields[2].split(separator: ",").reduce(UInt32(0)) { $0 | (NginxContext(rawValue: String($1))?.bit ?? 0) }
            rows.append((String(fields[0]), Form(contexts: contexts, isBlock: fields[3] == "block", counts: counts, orMore: orMore,
                                                 isFlag: fields[5] == "flag", isOnce: fields[6] == "once", isBuiltin: fields[1] == "builtin")))
            if fields[1] != "builtin" { modules.insert(String(fields[1])) }
        }
        for row in rows.sorted(by: { $0.name < $1.name }) {
            let bytes = Array(row.name.utf8)
            if let last = names.last, last.bytes == bytes {
                names[names.count - 1].forms = last.forms.lowerBound..<forms.count + 1
            } else {
                names.append((bytes, forms.count..<forms.count + 1))
            }
            var form = row.form
            form.nameID = Int32(names.count - 1)
            forms.append(form)
        }
        var size = 16
        while size < names.count * 4 { size *= 2 }
        slots = Array(repeating: -1, count: size)
        for (index, name) in names.enumerated() {
            var slot = name.bytes.withUnsafeBufferPointer(Self.hash) & (size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(index)
        }
    }

    /// The form of `name` allowed in `context`, nil when none is; `isKnown` is false when no
    /// module has the name at all.
    func form(of name: UnsafeBufferPointer<UInt8>, in context: NginxContext) -> (form: Form?, isKnown: Bool) {
        var slot = Self.hash(name) & (slots.count - 1)
        while slots[slot] >= 0 {
            let entry = names[Int(slots[slot])]
            if entry.bytes.elementsEqual(name) {
                for index in entry.forms where forms[index].isAllowed(in: context) { return (forms[index], true) }
                return (nil, true)
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        return (nil, false)
    }

    func form(of name: String, in context: NginxContext) -> (form: Form?, isKnown: Bool) {
        var name = name
        return name.withUTF8 { form(of: $0, in: context) }
    }

    /// How many directive names the table has; `nameID` numbers them from 0.
    var nameCount: Int { names.count }

    /// The number of directive `name`, nil when nginx does not know it.
    func nameID(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        var slot = Self.hash(name) & (slots.count - 1)
        while slots[slot] >= 0 {
            if names[Int(slots[slot])].bytes.elementsEqual(name) { return Int(slots[slot]) }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    func nameID(_ name: String) -> Int? {
        var name = name
        return name.withUTF8 { nameID($0) }
    }

    /// Whether nginx itself has directive number `id` (not only a dynamic module).
    func isBuiltin(_ id: Int) -> Bool { names[id].forms.contains { forms[$0].isBuiltin } }

    /// Whether nginx knows variable `name` (lower case, without `$`) in `blocks`.
    func knowsVariable(_ name: String, in blocks: UInt8) -> Bool {
        if let known = variables[name], known & blocks != 0 { return true }
        return variablePrefixes.contains { name.hasPrefix($0.prefix) && $0.blocks & blocks != 0 }
    }

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
            } else if let dash = part.firstIndex(of: "-"), let low = Int(part[..<dash]), let high = Int(part[part.index(after: dash)...]), low <= high, high <= 8 {
                for n in low...high { bits |= 1 << n }
            } else if let n = Int(part), n <= 8 {
                bits |= 1 << n
            }
        }
        return (bits, orMore)
    }
}
