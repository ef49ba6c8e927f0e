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
