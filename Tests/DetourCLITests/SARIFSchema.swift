import DetourTestSupport
import Foundation
import XCTest

/// SARIF 2.1.0's schema (`SARIF/sarif-schema-2.1.0.json`, written by `scripts/sarif-schema.py`)
/// asked through `jsonschema` from PyPI, which `make test-deps` installs.
enum SARIFSchema {
    /// Where `make test-deps` installs `jsonschema` from PyPI, for PYTHONPATH; a skip without it
    /// (a failure under CI=true).
    static func jsonschemaLibrary() throws -> URL {
        let library = Repository.root.appendingPathComponent(".build-python/jsonschema")
        guard FileManager.default.fileExists(atPath: library.appendingPathComponent("jsonschema").path) else {
            let message = "jsonschema is not in .build-python (make test-deps installs it)"
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(message + " (required under CI=true)") }
            throw XCTSkip(message)
        }
        return library
    }

    /// The reports that do not validate, each with its first errors; none is a pass.
    static func invalid(_ reports: [(String, String)]) throws -> [String] {
        let library = try SARIFSchema.jsonschemaLibrary()
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("SARIF/sarif-schema-2.1.0.json")
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
            failed = []
            for name, text in json.load(sys.stdin):
                errors = list(validator.iter_errors(json.loads(text)))
                if errors:
                    failed.append(name + ": " + "; ".join(f"{list(e.path)}: {e.message[:200]}" for e in errors[:3]))
            print(json.dumps(failed))
            """
        let input = try JSONSerialization.data(withJSONObject: reports.map { [$0.0, $0.1] })
        let result = try ProcessRunner.run(
            try RequiredTool.find("python3"), ["-c", script, schema.path], environment: ["PYTHONPATH": library.path, "PATH": "/usr/bin:/bin"],
            input: input)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode([String].self, from: Data(result.stdout.utf8))
    }
}
