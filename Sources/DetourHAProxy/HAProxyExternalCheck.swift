import DetourDiagnostics

/// A backend's `option external-check` with no `external-check` in the global section: HAProxy
/// refuses the file once it has read it, naming each such proxy (its words carry no line, so the
/// refusal stands at the proxy's own). An option a `defaults` section gives is not followed.
enum HAProxyExternalCheck {
    static func refusals(in sections: [HAProxySection]) -> [Diagnostic] {
        let allowed = sections.contains { section in section.kind == "global" && section.lines.contains { $0.keyword == "external-check" } }
        guard !allowed else { return [] }
        return sections.filter { ["backend", "listen"].contains($0.kind) && usesExternalCheck($0) }.map { section in
            .error(
                HAProxyRules.syntax.id,
                "Proxy '\(section.name ?? "")' : 'option external-check' unable to find required 'global.external-check': HAProxy refuses the file",
                at: section.location)
        }
    }

    /// Whether the section's last word on the option turns it on.
    private static func usesExternalCheck(_ section: HAProxySection) -> Bool {
        var on = false
        for line in section.lines {
            let words = line.words.map(\.text)
            if words.count >= 2, words[0] == "option", words[1] == "external-check" { on = true }
            if words.count >= 3, words[0] == "no", words[1] == "option", words[2] == "external-check" { on = false }
        }
        return on
    }
}
