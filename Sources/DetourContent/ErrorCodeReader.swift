import DetourDiagnostics
import DetourYAML

/// Reads one `codes/<status>.yml`.
enum ErrorCodeReader {
    static let fields = ["status", "title", "summary", "advice", "operator_notes", "retry_after", "emitted_by", "related", "error_page", "former_names"]
    /// 4xx and 5xx are the statuses a proxy answers with an error page.
    static let statusRange = 400...599

    static func read(_ file: SourceFile, relativePath: String, diagnostics: inout [Diagnostic]) -> ErrorCode? {
        guard var reader = FieldReader.parse(file.text, at: file.start, subject: "error code definition", fields: fields, diagnostics: &diagnostics) else {
            return nil
        }
        let status = reader.int("status", required: true, in: statusRange)
        let title = reader.string("title", required: true)
        let summary = reader.string("summary", required: true)
        let advice = reader.markdown("advice").map { file.indented($0) }
        let operatorNotes = reader.markdown("operator_notes").map { file.indented($0) }
        let retryAfter = reader.int("retry_after", in: 1...86_400)
        let emittedBy = reader.stringList("emitted_by").map(\.value)
        let formerNames = reader.stringList("former_names").map(\.value)
        let related = reader.stringList("related")
        let generatesPage = reader.bool("error_page")?.value ?? true
        reader.reportUnknownFields()
        diagnostics += reader.diagnostics

        if generatesPage, advice == nil, let title {
            diagnostics.append(
                .warning(
                    "code.missing-advice", "error page for this code has no 'advice': visitors are told what went wrong but not what to do", at: title.location)
            )
        }

        guard let status, let title, let summary else { return nil }
        return ErrorCode(
            status: status.value,
            title: title.value,
            summary: summary.value,
            advice: advice,
            operatorNotes: operatorNotes,
            retryAfter: retryAfter?.value,
            emittedBy: emittedBy,
            formerNames: formerNames,
            related: related,
            generatesPage: generatesPage,
            location: reader.location,
            relativePath: relativePath,
            statusLocation: status.location
        )
    }
}
