import Foundation
import NIOCore
@testable import ObjectStorage
import Testing

/// One contract, two stores: what the data directory does, the bucket does too.
struct ArtifactStoreTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case directory, bucket
        var testDescription: String { rawValue }
    }

    static var kinds: [Kind] { TestStore.location == nil ? [.directory] : Kind.allCases }

    static func store(_ kind: Kind) async throws -> any ArtifactStore {
        switch kind {
        case .directory:
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("artifacts-\(UUID().uuidString)")
            return DirectoryStore(root: root)
        case .bucket:
            var location = try #require(TestStore.location)
            location.prefix = "tests/\(UUID().uuidString)/"
            let client = S3Client(location: location, partSize: S3Client.minimumPartSize)
            try await client.createBucket()
            return BucketStore(client: client)
        }
    }

    static func file(_ data: Data) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("artifact-\(UUID().uuidString).bin")
        try data.write(to: file)
        return file
    }

    static func collect(_ stream: AsyncThrowingStream<ByteBuffer, any Error>) async throws -> (Data, chunks: Int) {
        var data = Data(), chunks = 0
        for try await chunk in stream {
            data.append(contentsOf: chunk.readableBytesView)
            chunks += 1
        }
        return (data, chunks)
    }

    @Test("a kept file is read back whole and by range, sized, consumed locally, and gone once deleted", arguments: kinds)
    func roundTrip(_ kind: Kind) async throws {
        let store = try await Self.store(kind)
        // Over two S3 parts and many read chunks, each MiB its own byte, so a misplaced part shows.
        let data = (0..<11).reduce(into: Data()) { data, mebibyte in data.append(Data(repeating: UInt8(mebibyte * 23 + 1), count: 1 << 20)) }
        let file = try Self.file(data)
        try await store.keep(file, as: "chat-exports/a/b.mp4", contentType: "video/mp4")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the local file was left behind")
        #expect(try await store.size(of: "chat-exports/a/b.mp4") == data.count)
        let (whole, chunks) = try await Self.collect(try await store.read("chat-exports/a/b.mp4", range: nil))
        #expect(whole == data)
        #expect(chunks > 1, "the object came in one piece, not streamed")
        let middle = (5 << 20) - 3...(5 << 20) + 2
        #expect(try await Self.collect(try await store.read("chat-exports/a/b.mp4", range: middle)).0 == data[middle])
        try await store.delete("chat-exports/a/b.mp4")
        #expect(try await store.size(of: "chat-exports/a/b.mp4") == nil)
        try await store.delete("chat-exports/a/b.mp4")
        await #expect(throws: ArtifactError.notFound("chat-exports/a/b.mp4")) {
            _ = try await Self.collect(try await store.read("chat-exports/a/b.mp4", range: nil))
        }
    }

    @Test("keeping over a key replaces it whole; deleting a prefix removes what is under it and nothing else", arguments: kinds)
    func replaceAndPrefix(_ kind: Kind) async throws {
        let store = try await Self.store(kind)
        try await store.keep(Data("first".utf8), as: "renders/s1/story.m4b", contentType: "audio/mp4")
        try await store.keep(Data("second, longer".utf8), as: "renders/s1/story.m4b", contentType: "audio/mp4")
        try await store.keep(Data("{}".utf8), as: "renders/s1/timing.json", contentType: "application/json")
        try await store.keep(Data("other".utf8), as: "renders/s10/story.m4b", contentType: "audio/mp4")
        #expect(try await store.data("renders/s1/story.m4b") == Data("second, longer".utf8))
        try await store.delete(prefix: "renders/s1")
        #expect(try await store.size(of: "renders/s1/story.m4b") == nil)
        #expect(try await store.size(of: "renders/s1/timing.json") == nil)
        #expect(try await store.data("renders/s10/story.m4b") == Data("other".utf8), "a sibling sharing the prefix's text was removed")
    }

    @Test("only the data directory offers its files to the web server to send itself", arguments: kinds)
    func localFiles(_ kind: Kind) async throws {
        let store = try await Self.store(kind)
        try await store.keep(Data("x".utf8), as: "a/b.bin", contentType: "application/octet-stream")
        if kind == .directory {
            let file = try #require(store.localFile("a/b.bin"))
            #expect(try Data(contentsOf: file) == Data("x".utf8))
        } else {
            #expect(store.localFile("a/b.bin") == nil)
        }
    }
}
