import Foundation
import Testing
import TestSupport

/// Issue 46, as it was found: `storyvoice serve` with its open files limited, and more stalled
/// connections (a request head begun and never finished, or nothing sent at all) than it has
/// descriptors left. They were never closed, so the server could accept nothing more and
/// `/health` timed out. Now each is closed at the request-head limit (2 s here), the server
/// accepts again, and `/health` answers.
@Suite(.serialized) struct StalledConnectionsTests {
    @Test func healthAnswersThoughStalledConnectionsTookEveryFileDescriptor() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fileLimit = 128
        let server = ServerProcess(
            dataDirectory: scratch.appendingPathComponent("data"),
            // The call openings' warm-up is off: speech started at the moment the stalled
            // connections take the last descriptor crashed the server (SIGILL) twice on a busy
            // machine, a bug of its own (stop 63's note), not the one this test is about.
            environment: ["STORYVOICE_ENGINES": "espeak-ng", "STORYVOICE_HTTP_HEAD_TIMEOUT": "2", "STORYVOICE_HTTP_KEEP_ALIVE_TIMEOUT": "2",
                          "STORYVOICE_CALL_OPENINGS_AHEAD": "0"],
            workers: 0, fileLimit: fileLimit)
        try await server.start()
        defer { server.kill() }

        // More than the server has descriptors for; the rest wait in its accept queue (256).
        var stalled: [RawConnection] = []
        for index in 0..<(fileLimit + 40) {
            let connection = try RawConnection(port: server.port)
            await connection.send(index.isMultiple(of: 2) ? "GET /api/stories HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1" : "")
            stalled.append(connection)
        }
        try await server.waitUntil("/health answers", timeout: .seconds(300)) {
            (try? await server.request("GET", "/health").1) == 200
        }
        let deadline = ContinuousClock.now + .seconds(120)
        for connection in stalled {
            #expect(await connection.closedByServer(within: max(.seconds(1), deadline - .now)))
        }
    }
}
