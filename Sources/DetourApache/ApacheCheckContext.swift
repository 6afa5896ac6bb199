import DetourDiagnostics
import DetourProxyCore

/// What the rules work from besides the site: the codes detour made pages for, and the page
/// files through the path maps.
struct ApacheCheckContext: Sendable {
    let pageCodes: [Int]
    let pageFiles: PageFileLookup
}
