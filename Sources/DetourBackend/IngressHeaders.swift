import NIOHTTP1

/// The headers ingress-nginx sends its default backend, read in one pass over the request's;
/// the first of a repeated header counts.
struct IngressHeaders {
    private(set) var code: String?
    private(set) var format: String?
    private(set) var requestID: String?
    private(set) var originalURI: String?
    private(set) var namespace: String?
    private(set) var ingressName: String?
    private(set) var serviceName: String?
    private(set) var servicePort: String?

    init(_ headers: HTTPHeaders) {
        for (name, value) in headers {
            // Only `X-` names are ours: most of a request's headers are passed over unread.
            guard name.utf8.count > 2, name.utf8.first.map({ $0 | 0x20 }) == UInt8(ascii: "x") else { continue }
            switch name.lowercased() {
            case "x-code": code = code ?? value
            case "x-format": format = format ?? value
            case "x-request-id": requestID = requestID ?? value
            case "x-original-uri": originalURI = originalURI ?? value
            case "x-namespace": namespace = namespace ?? value
            case "x-ingress-name": ingressName = ingressName ?? value
            case "x-service-name": serviceName = serviceName ?? value
            case "x-service-port": servicePort = servicePort ?? value
            default: break
            }
        }
    }
}
