import ArgumentParser
import DetourBackend

/// `detour backend` alone: the page service without the build, the checkers and the help site,
/// a small binary for the container image.
@main
struct DetourBackendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detour-backend", abstract: BackendOptions.abstract, discussion: BackendOptions.discussion)

    @OptionGroup var options: BackendOptions

    func run() throws {
        try options.run(as: "detour-backend")
    }
}
