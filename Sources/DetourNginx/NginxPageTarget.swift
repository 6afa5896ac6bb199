/// Where an `error_page` target leads inside one server.
enum NginxPageTarget: Sendable {
    /// `@name`, and the named location if the server defines it.
    case named(String, NginxLocation?)
    /// A target with variables, unknown until a request comes.
    case dynamic
    /// A URI: the location that answers it, and the file nginx would send when it serves one.
    case uri(String, location: NginxLocation?, file: NginxPageFile?)
}

/// The file nginx reads for an error page, and where it is on this machine after `--map`.
struct NginxPageFile: Sendable {
    /// The path as nginx sees it on the server.
    var installPath: String
    /// The path checked here.
    var localPath: String
    var exists: Bool
}
