import DetourTestSupport
import Foundation
import XCTest

/// Kubernetes manifests read as the API server reads them (YAML, by PyYAML) and validated against
/// the published schemas of their kinds (`Kubernetes/<group>_<kind>_<version>.json`, written by
/// `scripts/kubernetes-schemas.py` from each project's CRD) through `jsonschema` from PyPI, strict
/// as kubeconform's strict mode: a field the schema does not name is an error, not pruned.
enum KubernetesSchema {
    struct Result: Decodable {
        /// Each document, as JSON.
        var documents: [JSONValue]
        /// `kind name: path: message` for each violation; none is a pass.
        var failures: [String]
        /// The kinds validated, and those that have no schema here.
        var checked: [String]
        var unchecked: [String]
    }

    static func validate(_ manifest: URL) throws -> Result {
        let library = try SARIFSchema.jsonschemaLibrary()
        let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Kubernetes")
        let script = """
            import json, os, sys, yaml, jsonschema
            def strict(node):
                if isinstance(node, dict):
                    if "properties" in node and "additionalProperties" not in node and not node.get("x-kubernetes-preserve-unknown-fields"):
                        node["additionalProperties"] = False
                    for value in node.values():
                        strict(value)
                elif isinstance(node, list):
                    for value in node:
                        strict(value)
                return node
            documents = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d is not None]
            failures, checked, unchecked = [], [], []
            for document in documents:
                group, _, version = document.get("apiVersion", "").rpartition("/")
                kind = document.get("kind", "")
                path = os.path.join(sys.argv[1], f"{group or 'core'}_{kind}_{version}.json")
                if not os.path.exists(path):
                    unchecked.append(kind)
                    continue
                checked.append(kind)
                validator = jsonschema.Draft7Validator(strict(json.load(open(path))))
                for error in validator.iter_errors(document):
                    failures.append(f"{kind} {document.get('metadata', {}).get('name')}: {list(error.path)}: {error.message[:200]}")
            print(json.dumps({"documents": documents, "failures": failures, "checked": checked, "unchecked": unchecked}))
            """
        let result = try ProcessRunner.run(
            try RequiredTool.find("python3"), ["-c", script, schemas.path, manifest.path], environment: ["PYTHONPATH": library.path, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(Result.self, from: Data(result.stdout.utf8))
    }
}

/// Any JSON value, for reading a parsed manifest's fields by path.
enum JSONValue: Decodable, Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// `value["spec", "template", 0, "name"]`: keys for objects, indexes for arrays.
    subscript(_ path: Any...) -> JSONValue? {
        var node: JSONValue? = self
        for step in path {
            switch (node, step) {
            case (.object(let fields)?, let key as String): node = fields[key]
            case (.array(let items)?, let index as Int): node = items.indices.contains(index) ? items[index] : nil
            default: return nil
            }
        }
        return node
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var int: Int? { if case .number(let value) = self { Int(value) } else { nil } }
    var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
}
