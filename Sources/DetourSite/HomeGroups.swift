import DetourContent

/// How the help site groups what it lists: codes by who sends them (a CDN, nginx alone) and
/// else by class; articles by the folder they are filed in.
enum HomeGroups {
    struct CodeGroup {
        /// The UI string that names the group.
        var titleKey: String
        var codes: [ErrorCode]
    }

    struct Section {
        var folder: String
        var title: String
        /// Indices into the content's articles, in list order.
        var articles: [Int]
    }

    /// The group of the CDN's own codes (Cloudflare's 52x), also the home page's anchor to it.
    static let cdnGroup = "codes_cdn"

    /// 5xx, 4xx, then the CDN's own codes and nginx's own, each only when it has codes.
    static func codes(_ codes: [ErrorCode]) -> [CodeGroup] {
        var groups: [String: [ErrorCode]] = [:]
        for code in codes {
            let key: String
            if code.emittedBy == ["Cloudflare"] {
                key = cdnGroup
            } else if code.emittedBy == ["nginx"] {
                key = "codes_nginx"
            } else {
                key = code.status >= 500 ? "codes_5xx" : "codes_4xx"
            }
            groups[key, default: []].append(code)
        }
        return ["codes_5xx", "codes_4xx", cdnGroup, "codes_nginx"].compactMap { key in groups[key].map { CodeGroup(titleKey: key, codes: $0) } }
    }

    /// One section per folder below `articles/`, by folder name; articles at the top form one
    /// named "Articles".
    static func sections(_ articles: [Article]) -> [Section] {
        var byFolder: [String: [Int]] = [:]
        for (index, article) in articles.enumerated() { byFolder[article.section, default: []].append(index) }
        return byFolder.keys.sorted().map { folder in
            Section(folder: folder, title: title(of: folder), articles: byFolder[folder] ?? [])
        }
    }

    /// `upstream` → "Upstream", `php` and `cdn` → "PHP" and "CDN": a word without a vowel is an
    /// acronym.
    static func title(of folder: String) -> String {
        guard !folder.isEmpty else { return "Articles" }
        let words = folder.split(whereSeparator: { $0 == "-" || $0 == "_" })
        return words.map { word in
            word.contains(where: { "aeiouy".contains($0.lowercased()) }) ? word.prefix(1).uppercased() + word.dropFirst() : word.uppercased()
        }.joined(separator: " ")
    }
}
