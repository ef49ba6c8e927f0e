import AsyncHTTPClient
import NIOCore

extension HTTPClient {
    /// A client for interactive use: an unreachable server is reported after `connectTimeout`
    /// instead of the connection being retried until the request's own deadline.
    /// The caller shuts it down.
    public static func interactive(connectTimeout: TimeAmount = .seconds(10)) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = connectTimeout
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}
