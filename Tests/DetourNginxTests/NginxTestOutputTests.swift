import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourNginx

/// What `detour verify` makes of nginx's refusal of a module it has not loaded: a module file
/// installed here is loaded (and what it is built on, by the symbol it misses); one that is not
/// is named, with where it would have to be.
final class NginxTestOutputTests: XCTestCase {
    private let copies = [(copy: "/sandbox/conf/site.conf", display: "conf/site.conf")]

    func testAModuleDirectiveIsLoadedFromTheFolderThatHasItsFile() throws {
        let modules = try TemporaryFolder(files: ["ngx_http_headers_more_filter_module.so": ""])
        defer { modules.remove() }
        let output = "nginx: [emerg] unknown directive \"more_set_headers\" in /sandbox/conf/site.conf:3\n"
        let reading = NginxTestOutput.read(output, copies: copies, main: "conf/nginx.conf", modulesFolder: modules.path)
        XCTAssertEqual(reading.loads.map(\.text), ["load_module \(modules.path)/ngx_http_headers_more_filter_module.so; "])
        XCTAssertEqual(reading.loads.map(\.location.line), [1], "at the main file's top, where load_module belongs")
        XCTAssertNil(reading.missing)
        XCTAssertEqual(reading.findings.count, 0)
    }

    func testAModuleNotInstalledIsNamedWithItsFile() {
        let output = "nginx: [emerg] unknown directive \"more_set_headers\" in /sandbox/conf/site.conf:3\n"
        let reading = NginxTestOutput.read(output, copies: copies, main: "conf/nginx.conf", modulesFolder: "/nonexistent/modules")
        XCTAssertEqual(
            reading.missing,
            "\"more_set_headers\" is a directive of ngx_http_headers_more_filter_module.so, a dynamic module not installed here (conf/site.conf:3); install it where nginx's modules are (/nonexistent/modules)"
        )
        XCTAssertTrue(reading.loads.isEmpty)
    }

    func testAnUnknownDirectiveOfNoModuleIsTheConfigurationsOwnError() {
        let output = "nginx: [emerg] unknown directive \"proxy_passs\" in /sandbox/conf/site.conf:4\n"
        let reading = NginxTestOutput.read(output, copies: copies, main: "conf/nginx.conf", modulesFolder: "/nonexistent/modules")
        XCTAssertNil(reading.missing)
        XCTAssertEqual(reading.findings.map(\.rule), ["nginx.directive"])
        XCTAssertEqual(reading.findings.map(\.location.line), [4])
    }

    func testOnlyAnELFFilesDefinedDynamicSymbolsCount() throws {
        XCTAssertEqual(NginxModuleFiles.definedSymbols(in: Array("not an ELF file at all, but long enough to be read as a header".utf8)), [])
        XCTAssertEqual(NginxModuleFiles.definedSymbols(in: []), [])
        // Under CI the Debian modules are installed: the NDK defines what set-misc lacks.
        let folder = "/usr/lib/nginx/modules"
        guard FileManager.default.fileExists(atPath: folder + "/ndk_http_module.so") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("libnginx-mod-http-ndk is not installed") }
            return
        }
        XCTAssertEqual(NginxModuleFiles.defining("ndk_set_var_value", in: folder), "ndk_http_module.so")
        let setMisc = try XCTUnwrap(FileManager.default.contents(atPath: folder + "/ngx_http_set_misc_module.so"))
        XCTAssertFalse(NginxModuleFiles.definedSymbols(in: [UInt8](setMisc)).contains("ndk_set_var_value"), "set-misc uses it, it does not define it")
        XCTAssertTrue(NginxModuleFiles.definedSymbols(in: [UInt8](setMisc)).contains("ngx_http_set_misc_module"))
    }
}
