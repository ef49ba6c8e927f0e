import DatabaseTestSupport
import Foundation
import ObjectStorage
import Testing

/// Two servers, each with its own data directory, on one PostgreSQL database and one S3 bucket
/// (SeaweedFS; issue 52): a line one server rendered is served by the other from the bucket.
@Suite(.enabled(if: Backend.postgresURL != nil && TopologyStore.base != nil,
                "needs STORYVOICE_TEST_POSTGRES_URL and STORYVOICE_TEST_S3_URL (make test starts both)"))
struct SharedStoreTopologyTests {
    @Test("a line rendered by one server is played through the other from the shared bucket")
    func aLineRenderedOnOneServerPlaysOnTheOther() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = try await TestDatabase.make(.postgres)
        var location = try #require(TopologyStore.base)
        location.prefix = "topology/\(UUID().uuidString.lowercased())/"
        guard case .postgres(let databaseURL) = database.location else { Issue.record("not PostgreSQL"); return }
        let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let environment = [
            "STORYVOICE_ENGINES": "espeak-ng", "DATABASE_URL": databaseURL, "STORYVOICE_SECRET_KEY": secret,
            "STORYVOICE_S3_URL": "\(location.endpoint.replacingOccurrences(of: "://", with: "://\(location.accessKey):\(location.secretKey)@"))/\(location.bucket)/\(location.prefix)",
        ]
        let first = ServerProcess(dataDirectory: scratch.appendingPathComponent("a"), environment: environment)
        // Jobs only on the first: an analysis renders the story's first lines where it runs, and
        // the second must hold none of its own.
        let second = ServerProcess(dataDirectory: scratch.appendingPathComponent("b"), environment: environment, workers: 0)
        try await first.start()
        defer { first.kill() }
        try await second.start()
        defer { second.kill() }
        let (token, story) = try await first.readerWithAnalysedWelcomeStory("traveller@example.com")

        let line = "/api/stories/\(story)/segments/0/audio"
        let (rendered, status) = try await first.request("GET", line, token: token)
        #expect(status == 200 && rendered.count > 44)
        // Mark the bucket's copy of that line: the second server has none of its own, so what it
        // plays is the bucket's, not a rendering of its own (which would equal the first's).
        let client = S3Client(location: location)
        var key: String?
        try await first.waitUntil("the line is in the bucket") {
            for candidate in try await client.keys(prefix: "segments/") where try await client.get(candidate) == rendered {
                key = candidate
                return true
            }
            return false
        }
        let marked = Self.wav(samples: (0..<4_410).map { Int16(truncatingIfNeeded: $0 * 7) })
        try await client.put(marked, key: try #require(key), contentType: "audio/wav")
        let (played, playedStatus) = try await second.request("GET", line, token: token)
        #expect(playedStatus == 200)
        #expect(played == marked, "the second server rendered the line again instead of taking the bucket's (\(played.count) bytes)")
        await database.destroy()
    }

    /// A 16-bit mono WAV at 22,050 Hz.
    static func wav(samples: [Int16]) -> Data {
        var data = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(UInt32(36 + samples.count * 2)); data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(UInt32(22_050)); append(UInt32(44_100)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples.count * 2))
        for sample in samples { append(sample) }
        return data
    }
}

enum TopologyStore {
    static let base = ProcessInfo.processInfo.environment["STORYVOICE_TEST_S3_URL"].flatMap(S3Location.init(url:))
}
