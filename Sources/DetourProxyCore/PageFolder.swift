import Foundation

/// detour's generated pages (`public/errors`): the codes every site should answer with a page.
public enum PageFolder {
    /// Statuses with an `<status>.html` in `folder`, sorted.
    public static func codes(in folder: URL?) -> [Int] {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.compactMap { name in
            guard name.hasSuffix(".html"), let code = Int(name.dropLast(5)), (400...599).contains(code) else { return nil }
            return code
        }.sorted()
    }
}
