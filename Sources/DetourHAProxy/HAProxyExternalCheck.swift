import DetourDiagnostics

/// A backend's `option external-check` with no `external-check` in the global section: HAProxy
/// refuses the file once it has read it, naming each such proxy (its words carry no line, so the
/// refusal stands at the proxy's own). An option a `defaults` section gives is not followed.
enum HAProxyExternalCheck {
    static func refusals(in sections: [HAProxySection]) -> [Diagnostic] {
        let allowed = sections.contains { section in section.kind == "global" && section.lines.contains { $0.knownKeyword == .externalCheck } }
        guard !allowed else { return [] }
        return sections.filter { ($0.kind == "backend" || $0.kind == "listen") && usesExternalCheck($0) }.map { section in
            .error(
                HAProxyRules.syntax.id,
                "Proxy '\(section.name ?? "")' : 'option external-check' unable to find required 'global.external-check': HAProxy refuses the file",
                at: section.location)
        }
    }

    /// Whether the section's last word on the option turns it on.
    private static func usesExternalCheck(_ section: HAProxySection) -> Bool {
        var on = false
        for line in section.lines where line.knownKeyword == .option || line.knownKeyword == .no {
            let words = line.words
            if words.count >= 2, words[0].text == "option", words[1].text == "external-check" { on = true }
            if words.count >= 3, words[0].text == "no", words[1].text == "option", words[2].text == "external-check" { on = false }
        }
        return on
    }
}
