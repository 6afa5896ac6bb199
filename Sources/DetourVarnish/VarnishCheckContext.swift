import DetourProxyCore

/// What the analysis works from besides the VCL: the codes detour made pages for, and the page
/// files through the path maps.
struct VarnishCheckContext: Sendable {
    let pageCodes: [Int]
    let pageFiles: PageFileLookup
}
