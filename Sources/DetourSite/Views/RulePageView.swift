import DetourDiagnostics
import DetourLayout
import DetourRules
import DetourTemplates

/// A rule's page on the help site: what `detour check --explain` prints, as HTML. Every text
/// is escaped by the template, configuration and findings included.
struct RulePageView: TemplateValue {
    struct File: TemplateValue {
        var name: String
        var text: String

        var templateData: TemplateData { TemplateFields().with("name", name).with("text", text).templateData }
    }

    struct Example: TemplateValue {
        var files: [File]
        var output: String?

        init(_ example: RuleExample) {
            files = example.files.map { File(name: $0.name, text: RuleExplanation.shown($0)) }
            output = example.output.isEmpty ? nil : example.output
        }

        var templateData: TemplateData { TemplateFields().with("files", files).with("output", output).templateData }
    }

    var explanation: RuleExplanation
    /// The way from this page to the list of rules.
    var index: String

    var templateData: TemplateData {
        let rule = explanation.rule
        return TemplateFields()
            .with("id", rule.id).with("severity", rule.severity.rawValue).with("topic", explanation.topic.title)
            .with("summary", rule.summary).with("sentence", explanation.sentence)
            .with("consequenceHeading", explanation.consequenceHeading).with("consequence", explanation.consequenceSentence)
            .with("hit", explanation.hit.map(Example.init)).with("nearMiss", explanation.nearMiss.map(Example.init))
            .with("index", index)
            .templateData
    }
}

/// The list of rules, topic by topic, each linking its page.
struct RuleListView: TemplateValue {
    struct Entry: TemplateValue {
        var rule: RuleDescription
        var url: String

        var templateData: TemplateData {
            TemplateFields().with("id", rule.id).with("severity", rule.severity.rawValue).with("summary", rule.summary).with("url", url).templateData
        }
    }

    struct Topic: TemplateValue {
        var topic: RuleBook.Topic

        var templateData: TemplateData {
            // Links from `rules/` to `rules/<id>/`.
            let entries = topic.rules.map { Entry(rule: $0, url: String(SiteLayout.rule($0.id).dropFirst(SiteLayout.rules.count))) }
            return TemplateFields().with("name", topic.name).with("title", topic.title).with("rules", entries).templateData
        }
    }

    var templateData: TemplateData { TemplateFields().with("topics", RuleBook.topics.map(Topic.init)).templateData }
}
