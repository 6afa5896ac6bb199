import Foundation

/// nginx's dynamic module files, read as the loader reads them: which one defines a symbol
/// another module needs (`undefined symbol: ndk_set_var_value` is the NDK's), so that the one
/// it is built on can be loaded first. A module names no dependency of its own; its ELF
/// dynamic symbol table is the fact.
enum NginxModuleFiles {
    /// The file in `folder` (a `.so`) whose dynamic symbols define `symbol`.
    static func defining(_ symbol: String, in folder: String) -> String? {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".so") }.sorted()
        return files.first { file in
            guard let data = FileManager.default.contents(atPath: folder + "/" + file) else { return false }
            return definedSymbols(in: [UInt8](data)).contains(symbol)
        }
    }

    /// The names an ELF64 little-endian shared object defines in its `.dynsym` (symbols whose
    /// section index is not 0, undefined); empty for anything else.
    static func definedSymbols(in bytes: [UInt8]) -> Set<String> {
        guard bytes.count > 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2, bytes[5] == 1 else { return [] }
        func integer(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            return (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        guard let sectionTable = integer(0x28, 8), let entrySize = integer(0x3A, 2), let count = integer(0x3C, 2) else { return [] }
        // Each section: its type, where its bytes are, how long, and its linked section.
        func section(_ index: Int) -> (type: Int, offset: Int, size: Int, link: Int)? {
            let base = sectionTable + index * entrySize
            guard let type = integer(base + 4, 4), let offset = integer(base + 0x18, 8), let size = integer(base + 0x20, 8),
                let link = integer(base + 0x28, 4)
            else { return nil }
            return (type, offset, size, link)
        }
        let dynamicSymbols = 11
        guard let table = (0..<count).lazy.compactMap(section).first(where: { $0.type == dynamicSymbols }), let strings = section(table.link) else {
            return []
        }
        var names = Set<String>()
        for entry in stride(from: table.offset, to: table.offset + table.size, by: 24) {
            guard let nameOffset = integer(entry, 4), let sectionIndex = integer(entry + 6, 2), sectionIndex != 0 else { continue }
            let start = strings.offset + nameOffset
            guard start < bytes.count, start < strings.offset + strings.size else { continue }
            let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
            if end > start { names.insert(String(decoding: bytes[start..<end], as: UTF8.self)) }
        }
        return names
    }
}
