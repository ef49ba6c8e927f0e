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

    /// A client for interactive use: an unreachable server is reported after `connectTimeout`
    /// instead of the connection being retried until the request's own deadline.
    /// The caller shuts it down.
    public static func interactive(connectTimeout: TimeAmount = .seconds(10)) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = connectTimeout
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Runs `body` with an interactive client, shut down afterwards whatever `body` does (a
    /// client must be shut down before it is released).
    public static func withInteractive<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
        let client = interactive()
        do {
            let result = try await body(client)
            try? await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
