import AsyncHTTPClient
import NIOCore

extension HTTPClient {
    /// The process-wide client every vendor API uses by default: like `HTTPClient.shared`
    /// (never shut down), but a server that cannot be reached (DNS failure, refused connection)
    /// fails the request at once, or after 10 s without an answer to connect. The shared client
    /// retries connecting until the request's deadline, so a typo in a base URL, or no network,
    /// took a full minute to report.
    public static let vendors: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(10)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
