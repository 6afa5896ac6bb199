import DetourProxyCore

/// Where an `error_page` target leads inside one server.
enum NginxPageTarget: Sendable {
    /// `@name`, and the named location if the server defines it.
    case named(String, NginxLocation?)
    /// A target with variables, unknown until a request comes.
    case dynamic
    /// A URI: the location that answers it, and the file nginx would send when it serves one.
    /// Boxed: targets are passed to every rule, and a box is one count to share.
    indirect case uri(String, location: NginxLocation?, file: PageFile?)
}

/// What a neutral route of an nginx server stands for: one error page and where it leads.
struct NginxPageOrigin: Sendable {
    var page: NginxErrorPage
    var target: NginxPageTarget
}
