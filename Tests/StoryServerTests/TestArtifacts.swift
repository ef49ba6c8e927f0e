import Foundation
import ObjectStorage
import StoryServer
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
