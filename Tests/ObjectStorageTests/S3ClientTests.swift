import Crypto
import Foundation
@testable import ObjectStorage
import Testing

/// Against a real S3-compatible store: SeaweedFS from `scripts/s3-test`, whose URL `make test`
/// puts in STORYVOICE_TEST_S3_URL (without it these are skipped, as the PostgreSQL variants are).
enum TestStore {
    static let location = ProcessInfo.processInfo.environment["STORYVOICE_TEST_S3_URL"].flatMap(S3Location.init(url:))
}

@Suite(.enabled(if: TestStore.location != nil, "STORYVOICE_TEST_S3_URL is not set (make test starts SeaweedFS: scripts/s3-test)"))
struct S3ClientTests {
    static var location: S3Location? { TestStore.location }

    func client() async throws -> S3Client {
        let client = S3Client(location: try #require(Self.location))
        try await client.createBucket()
        return client
    }

    static func key(_ name: String) -> String { "tests/\(UUID().uuidString)/\(name)" }

    @Test("an object put is read back whole and by range, sized, and gone once deleted; a key with spaces, + and é")
    func roundTrip() async throws {
        let client = try await client()
        let key = Self.key("a line + é.wav")
        let data = Data((0..<100_000).map { UInt8($0 % 251) })
        try await client.put(data, key: key, contentType: "audio/wav")
        #expect(try await client.get(key) == data)
        #expect(try await client.get(key, range: 1_000...1_009) == data[1_000...1_009])
        #expect(try await client.size(of: key) == data.count)
        try await client.delete(key)
        #expect(try await client.size(of: key) == nil)
        let missing = await #expect(throws: S3Error.self) { _ = try await client.get(key) }
        #expect(missing?.code == "NoSuchKey" && missing?.status == 404, "\(String(describing: missing))")
    }

    @Test("a file over a part is uploaded in parts read one at a time and comes back the same")
    func multipart() async throws {
        let client = S3Client(location: try #require(Self.location), partSize: S3Client.minimumPartSize)
        try await client.createBucket()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("s3-multipart-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        // Three parts (5, 5 and 2 MiB); each MiB its own byte, so parts out of order would show.
        let data = (0..<12).reduce(into: Data()) { data, mebibyte in data.append(Data(repeating: UInt8(mebibyte * 17 + 3), count: 1 << 20)) }
        try data.write(to: file)
        let key = Self.key("export.m4b")
        try await client.put(file: file, key: key, contentType: "audio/mp4")
        #expect(try await client.size(of: key) == data.count)
        let back = try await client.get(key)
        #expect(SHA256.hash(data: back) == SHA256.hash(data: data))
        #expect(try await client.get(key, range: (5 << 20) - 2...(5 << 20) + 1) == data[((5 << 20) - 2)...((5 << 20) + 1)])
        try await client.delete(key)
    }

    @Test("a location's prefix holds its objects: another prefix in the bucket does not see them")
    func prefixes() async throws {
        var location = try #require(Self.location)
        location.prefix = Self.key("installation") + "/"
        let inside = S3Client(location: location)
        try await inside.createBucket()
        try await inside.put(Data("mine".utf8), key: "segments/x.wav")
        #expect(try await inside.keys(prefix: "segments/") == ["segments/x.wav"])
        #expect(try await S3Client(location: try #require(Self.location)).get(location.prefix + "segments/x.wav") == Data("mine".utf8))
        location.prefix = Self.key("other") + "/"
        #expect(try await S3Client(location: location).keys(prefix: "segments/").isEmpty)
    }

    @Test("the keys under a prefix are listed whole, past a page")
    func listing() async throws {
        let client = try await client()
        let prefix = Self.key("listing") + "/"
        let names = (0..<7).map { "\(prefix)\($0) & <\($0)>.wav" }
        for name in names { try await client.put(Data(name.utf8), key: name) }
        #expect(try await client.keys(prefix: prefix, pageSize: 3) == names.sorted())
        for name in names { try await client.delete(name) }
        #expect(try await client.keys(prefix: prefix).isEmpty)
    }

    @Test("a wrong secret is refused by the store's signature check, and nothing is written")
    func wrongSecret() async throws {
        var location = try #require(Self.location)
        let good = try await client()
        location.secretKey += "x"
        let key = Self.key("refused")
        let refused = await #expect(throws: S3Error.self) { try await S3Client(location: location).put(Data("no".utf8), key: key) }
        #expect(refused?.code == "SignatureDoesNotMatch" && refused?.status == 403, "\(String(describing: refused))")
        #expect(try await good.size(of: key) == nil)
    }

    @Test("the URL form scripts/s3-test prints is read whole, a prefix after the bucket too")
    func locationFromURL() {
        let location = S3Location(url: "http://AK:S%2Fk@127.0.0.1:8333/voices?region=eu-west-1")
        #expect(location == S3Location(endpoint: "http://127.0.0.1:8333", bucket: "voices", region: "eu-west-1", accessKey: "AK", secretKey: "S/k"))
        #expect(S3Location(url: "http://AK:S@127.0.0.1:8333/voices/staging/a")?.prefix == "staging/a/")
        #expect(S3Location(url: "http://127.0.0.1:8333/voices") == nil)
        #expect(S3Location(url: "http://AK:S@127.0.0.1:8333/") == nil)
    }
}
