import DetourDiagnostics
import DetourProxyCore

/// What the rules work from besides the model: the codes detour made pages for, the page
/// files through the path maps, and what answers each code in each site (the coverage table's
/// rows, worked out once for it and for the rules).
struct ApacheCheckContext: Sendable {
    let pageCodes: [Int]
    let pageFiles: PageFileLookup
    /// By site, in `ApacheModel.sites` order.
    let answers: [[(code: Int, answer: String?)]]
}
