import DetourDiagnostics
import DetourSite
import DetourTestSupport
import Foundation
import PropertyBased
import Testing

/// Random sequences of the edits users make, each built at once or after a pause, on a small
/// site in two languages: after each edit, `detour build` (incremental where it can be) writes
/// what a clean `--no-cache` build of the same content writes, byte for byte, with the same
/// findings.
@Suite struct EditSequenceTests {
    @Test func everyBuildAfterAnEditIsACleanBuilds() async throws {
        let edit = zip(Gen<EditedSite.Edit.Kind>.case, Gen.int(in: 0...999), Gen.bool).map { EditedSite.Edit(kind: $0, pick: $1, pause: $2) }
        await propertyCheck(count: 12, input: edit.array(of: 2...6)) { edits in
            let site = try EditedSite()
            defer { site.folder.remove() }
            #expect(site.build().wroteOutput, "the first build")
            for (step, edit) in edits.enumerated() {
                try site.apply(edit)
                if edit.pause { usleep(150_000) }
                let report = site.build()
                let clean = site.cleanBuild()
                let done = "after \(edits.prefix(step + 1).map(\.description).joined(separator: ", "))"
                #expect(clean.wroteOutput, "\(done): \(clean.diagnostics)")
                #expect(report.diagnostics.sortedForOutput() == clean.diagnostics.sortedForOutput(), "\(done)")
                let (built, expected) = (site.folder.snapshot("public"), site.folder.snapshot("clean"))
                let (missing, extra) = (Set(expected.keys).subtracting(built.keys), Set(built.keys).subtracting(expected.keys))
                #expect(missing.isEmpty && extra.isEmpty, "\(done): missing \(missing.sorted()), more than a clean build: \(extra.sorted())")
                for (path, data) in expected where built[path] != data {
                    Issue.record("\(done): public/\(path) differs from a clean build's")
                }
            }
        }
    }
}
