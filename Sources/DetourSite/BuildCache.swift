import CFileSystem
import DetourDiagnostics
import DetourSearch
import Foundation

/// What the last successful `detour build` into an output was made from, kept in
/// `.detour-cache/<output>/build` beside the output: every input file's size and modification
/// time (its content's digest when it was written just before, `InputFiles`), the options, and
/// which detour built it, with the findings and counts it reported. A build that finds all of
/// it as recorded, and the output still the folder that build put in place, has nothing to
/// write and says so, in the time it takes to list the input files.
/// Beside it is what rewriting only some articles' pages needs (`RebuildMemo`), written first:
/// a record is only there with the memo of its build.
///
/// Like make, it trusts the output's files: a file changed by hand inside the output is put
/// back by `--no-cache`, or by any change to the inputs.
struct BuildCache {
    /// What is compared, and what an up-to-date build reports again.
    struct Record: Codable {
        /// The detour that built it, the options, and every input file (`InputFiles`).
        var key: Key
        /// The output folder that build put in place, by device and inode: another build or a
        /// copy put there since is another folder.
        var output: [UInt64]
        var diagnostics: [Diagnostic]
        var errorPages: Int
        var articles: Int
        var files: Int
    }

    struct Key: Codable, Equatable {
        var detour: String
        var options: [String]
        var inputs: String
    }

    /// Where the record is kept, and what rebuilding only some articles needs (`RebuildMemo`).
    let folder: URL
    var file: URL { folder.appendingPathComponent("build") }

    init(output: URL) {
        let output = output.standardizedFileURL
        folder = output.deletingLastPathComponent().appendingPathComponent(".detour-cache").appendingPathComponent(output.lastPathComponent)
    }

    /// The key of a build with `options` from the inputs as they are now, or nil when they
    /// cannot all be listed (the build then runs, and reports why).
    static func key(_ options: BuildOptions) -> Key? {
        guard let inputs = InputFiles.list(options) else { return nil }
        let settings = [
            options.content.path, options.contentDisplay, options.templates.path, options.templatesDisplay, String(options.templatesRequired),
            options.output.path, options.outputDisplay, String(options.includeDrafts), options.baseURL ?? "", String(options.strict),
        ]
        return Key(detour: options.toolIdentity + " " + Self.executableIdentity(), options: settings, inputs: inputs)
    }

    /// The record of the last build, if `output` is still the folder that build put in place:
    /// up to date when its key is the build's, the start of an `ArticleRebuild` otherwise.
    func record(of output: URL) -> Record? {
        guard let data = try? Data(contentsOf: file), let record = try? JSONDecoder().decode(Record.self, from: data),
            let identity = Self.identity(of: output.path), record.output == identity
        else { return nil }
        return record
    }

    /// Copies every article's text into `sources.new` while the build runs, and gives the
    /// memo that goes with it as it will be written (nil when it cannot be): the last build's
    /// memo and texts stay as they are until the new output is in place (`save(staged:…)`).
    func stage(_ memo: RebuildMemo, contentRoot: URL, inputs: String) -> [UInt8]? {
        var memo = memo
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
            (try? memo.copySources(contentRoot: contentRoot, inputs: inputs, into: RebuildMemo.stagedSourcesFile(in: folder))) != nil
        else { return nil }
        return memo.encoded
    }

    /// Writes a language's index memo beside the staged texts, a piece at a time: false when
    /// it cannot be (the build then leaves no memo, and the next build is a full one).
    func stage(_ searchMemo: SearchIndexMemo, language: String) -> Bool {
        let url = RebuildMemo.stagedSearchFile(in: folder, language: language)
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
            FileManager.default.createFile(atPath: url.path, contents: nil), let handle = try? FileHandle(forWritingTo: url)
        else { return false }
        defer { try? handle.close() }
        return searchMemo.encode { piece in (try? handle.write(contentsOf: piece)) != nil }
    }

    /// Puts a staged memo, its texts and its languages' index memos (`stagedSearch`: whether
    /// each was staged) in place of the last build's, the memo last: a memo is only there with
    /// the texts and index memos of its build.
    func save(staged memo: [UInt8]?, stagedSearch: [String: Bool]) {
        unlink(RebuildMemo.file(in: folder).path)
        guard let memo, !stagedSearch.values.contains(false),
            rename(RebuildMemo.stagedSourcesFile(in: folder).path, RebuildMemo.sourcesFile(in: folder).path) == 0,
            stagedSearch.keys.allSatisfy({ language in
                rename(
                    RebuildMemo.stagedSearchFile(in: folder, language: language).path, RebuildMemo.searchFile(in: folder, language: language).path) == 0
            })
        else {
            discardStaged(languages: Array(stagedSearch.keys))
            return
        }
        // A memo that could not be written leaves the next build a full one, nothing worse.
        _ = write(.whole(memo), to: RebuildMemo.file(in: folder))
    }

    /// Removes the texts and index memos a build staged, when it put no output in place.
    func discardStaged(languages: [String]) {
        unlink(RebuildMemo.stagedSourcesFile(in: folder).path)
        for language in languages { unlink(RebuildMemo.stagedSearchFile(in: folder, language: language).path) }
    }

    /// A memo as a rebuild writes it: whole, or the lines that amend the file as it is.
    enum MemoWrite {
        case whole([UInt8])
        case amendment([UInt8])
    }

    /// Writes the index memos, then the rebuild memo; false when one could not be (the
    /// build's record is then not written, and the next build is a full one).
    func save(_ memo: MemoWrite, searchMemos: [String: MemoWrite]) -> Bool {
        for (language, searchMemo) in searchMemos where !write(searchMemo, to: RebuildMemo.searchFile(in: folder, language: language)) { return false }
        return write(memo, to: RebuildMemo.file(in: folder))
    }

    private func write(_ memo: MemoWrite, to url: URL) -> Bool {
        switch memo {
        case .whole(let bytes): return (try? Data(bytes).write(to: url, options: .atomic)) != nil
        case .amendment(let bytes):
            guard let handle = try? FileHandle(forWritingTo: url) else { return false }
            defer { try? handle.close() }
            return (try? handle.seekToEnd()) != nil && (try? handle.write(contentsOf: bytes)) != nil
        }
    }

    /// Records a build that just put its output in place from the inputs `key` lists. A
    /// record that cannot be written only costs the next build its shortcut.
    func save(_ key: Key, report: BuildReport, output: URL) {
        guard let identity = Self.identity(of: output.path) else { return }
        write(
            Record(
                key: key, output: identity, diagnostics: report.diagnostics, errorPages: report.errorPages, articles: report.articles,
                files: report.files))
    }

    /// Records `record`'s build again under `key`, a listing of the same files by content.
    func save(_ key: Key, as record: Record) {
        var record = record
        record.key = key
        write(record)
    }

    private func write(_ record: Record) {
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
            let data = try? JSONEncoder().encode(record)
        else { return }
        try? data.write(to: file, options: .atomic)
    }

    /// Forgets the last build: a build that will replace the output makes the record wrong
    /// the moment it does, whether or not its own record is written.
    func forget() {
        unlink(file.path)
    }

    private static func identity(of path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// The running executable's size and modification time: a detour rebuilt from changed
    /// sources under the same version number builds differently.
    private static func executableIdentity() -> String {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "unknown executable" }
        return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
