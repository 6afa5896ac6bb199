import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One blocking HTTP request, for tests against servers on 127.0.0.1.
public struct HTTPResponse {
    public var status: Int
    public var headers: [String: String]
    public var body: String
}

public enum HTTPClient {
    /// `followRedirects: false` returns a redirect itself, for a test of who answers with it.
    public static func get(_ url: String, headers requestHeaders: [String: String] = [:], followRedirects: Bool = true) throws -> HTTPResponse {
        try send(url, headers: requestHeaders, followRedirects: followRedirects)
    }

    public static func send(
        _ url: String, method: String = "GET", body: Data? = nil, headers requestHeaders: [String: String] = [:], followRedirects: Bool = true
    ) throws -> HTTPResponse {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        let session = URLSession(configuration: configuration, delegate: followRedirects ? nil : RedirectRefusal(), delegateQueue: nil)
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<HTTPResponse, Error> = .failure(URLError(.timedOut))
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in requestHeaders { request.setValue(value, forHTTPHeaderField: name) }
        session.dataTask(with: request) { data, response, error in
            if let error {
                result = .failure(error)
            } else if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (key, value) in http.allHeaderFields { headers[String(describing: key).lowercased()] = String(describing: value) }
                result = .success(HTTPResponse(status: http.statusCode, headers: headers, body: String(decoding: data ?? Data(), as: UTF8.self)))
            }
            semaphore.signal()
        }.resume()
        _ = semaphore.wait(timeout: .now() + 15)
        session.invalidateAndCancel()
        return try result.get()
    }
}

/// Declines every redirect, so the response that asked for it is the one returned.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
