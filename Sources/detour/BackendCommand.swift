import ArgumentParser
import DetourBackend

struct BackendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backend", abstract: BackendOptions.abstract, discussion: BackendOptions.discussion)

    @OptionGroup var options: BackendOptions

    func run() throws {
        try options.run(as: "detour backend")
    }
}
