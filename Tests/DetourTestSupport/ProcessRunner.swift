import Foundation

/// Runs a program to completion and captures what it printed.
public struct ProcessResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public enum ProcessRunner {
    @discardableResult
    /// `input`: what the program reads on standard input (nothing: /dev/null).
    public static func run(_ executable: URL, _ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil, input: Data? = nil) throws
        -> ProcessResult
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            DispatchQueue.global().async {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }
        }
        // Read both pipes while the process runs so a full pipe cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `detour` with arguments, run in `folder`.
    public static func detour(_ arguments: [String], in folder: URL, input: Data? = nil) throws -> ProcessResult {
        try run(Repository.detourExecutable, arguments, in: folder, input: input)
    }
}
