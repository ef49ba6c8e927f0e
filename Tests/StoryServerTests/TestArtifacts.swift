import Foundation
import NIOCore
import ObjectStorage
import StoryServer
import Synchronization
import Testing

/// Where a test server keeps finished files: its data directory (the default), or a fresh prefix
/// of the SeaweedFS bucket `make test` starts (STORYVOICE_TEST_S3_URL; skipped without it).
enum TestArtifacts: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case directory, bucket

    static var available: [TestArtifacts] { location == nil ? [.directory] : allCases }
    static let location = ProcessInfo.processInfo.environment["STORYVOICE_TEST_S3_URL"].flatMap(S3Location.init(url:))

    var testDescription: String { rawValue }

    /// The store for this kind: nil keeps the server's default (its data directory).
    func store() async throws -> BucketStore? {
        guard self == .bucket, var location = Self.location else { return nil }
        location.prefix = "server-tests/\(UUID().uuidString.lowercased())/"
        let client = S3Client(location: location)
        try await client.createBucket()
        return BucketStore(client: client)
    }
}

/// A bucket that is unreachable until `recover()`: the real SeaweedFS bucket behind a switch,
/// with an S3 client aimed at a closed port while "down" (refused connections, as a store that
/// is down gives).
final class OutageStore: ArtifactStore, @unchecked Sendable {
    let up: BucketStore
    let down: BucketStore
    private let isDown = Mutex(true)

    init(up: BucketStore) {
        self.up = up
        var closed = up.client.location
        closed.endpoint = "http://127.0.0.1:9"
        down = BucketStore(client: S3Client(location: closed, timeout: .seconds(2)))
    }

    func recover() { isDown.withLock { $0 = false } }
    func fail() { isDown.withLock { $0 = true } }
    private var current: BucketStore { isDown.withLock { $0 } ? down : up }

    var place: String { up.place }
    func keep(_ file: URL, as key: String, contentType: String) async throws { try await current.keep(file, as: key, contentType: contentType) }
    func keep(_ data: Data, as key: String, contentType: String) async throws { try await current.keep(data, as: key, contentType: contentType) }
    func object(_ key: String) async throws -> StoredObject? { try await current.object(key) }
    func read(_ key: String, range: ClosedRange<Int>?) async throws -> AsyncThrowingStream<ByteBuffer, any Error> { try await current.read(key, range: range) }
    func delete(_ key: String) async throws { try await current.delete(key) }
    func delete(prefix: String) async throws { try await current.delete(prefix: prefix) }
    func localFile(_ key: String) -> URL? { nil }
}
