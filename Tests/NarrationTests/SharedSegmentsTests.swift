import Audio
import Foundation
@testable import Narration
import ObjectStorage
import Speech
import SpeechEngines
import StoryModel
import StoryWorkflows
import Testing

/// Rendered lines shared through a real S3-compatible store (SeaweedFS from `scripts/s3-test`;
/// issue 52): what one machine rendered, another finds instead of rendering again. Each test
/// has a prefix of its own, since keys are the lines' content and a previous run's would hit.
@Suite(.enabled(if: SharedBucket.base != nil, "STORYVOICE_TEST_S3_URL is not set (make test starts SeaweedFS: scripts/s3-test)"))
struct SharedSegmentsTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("shared-segments-\(UUID().uuidString)")

    @Test("a story narrated on one machine is narrated on another from the shared store: nothing rendered twice")
    func narratedOnceForEveryMachine() async throws {
        let store = try await SharedBucket.make()
        let catalog = await VoiceCatalog.load(from: LocalEngines.all())
        let first = Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent("machine-a"), shared: store))
        let second = Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent("machine-b"), shared: store))
        let document = StoryDocument(title: "A Test Story", author: "Tester", text: NarrationPlannerTests.text)
        let analysis = NarrationPlannerTests.analysis(), cast = NarrationPlannerTests.cast
        let made = try await first.narrate(document: document, analysis: analysis, cast: cast, to: scratch.appendingPathComponent("a.wav"))
        #expect(made.synthesized == 8 && made.cacheHits == 0)
        let fetched = try await second.narrate(document: document, analysis: analysis, cast: cast, to: scratch.appendingPathComponent("b.wav"))
        #expect(fetched.synthesized == 0 && fetched.cacheHits == 8, "\(fetched.synthesized) rendered, \(fetched.cacheHits) found")
        #expect(try Data(contentsOf: scratch.appendingPathComponent("a.wav")) == Data(contentsOf: scratch.appendingPathComponent("b.wav")))
    }

    @Test("a line only the shared store has is copied here whole; one nobody has is a miss")
    func fetchedIntoTheLocalCache() async throws {
        let store = try await SharedBucket.make()
        let key = String(repeating: "ab", count: 32)
        // Not a rendering: 0.1 s of a ramp, so a rendered line could not pass for it.
        let audio = PCMAudio(sampleRate: 22_050, samples: (0..<2_205).map { Int16($0) })
        let here = try SegmentCache(directory: scratch.appendingPathComponent("here"), shared: store)
        try here.store(audio, for: key)
        try await here.publish(key)
        let there = try SegmentCache(directory: scratch.appendingPathComponent("there"), shared: store)
        #expect(there.sampleCount(for: key) == nil)
        #expect(await there.fetchFromShared(key))
        #expect(try Data(contentsOf: there.url(for: key)) == Data(contentsOf: here.url(for: key)))
        #expect(await there.fetchFromShared(String(repeating: "cd", count: 32)) == false)
    }

    @Test("a store that cannot be reached is a miss at once, and is not read again for a while after failing")
    func anUnreachableStoreIsAMiss() async throws {
        // A port nothing listens on: refused at once, as a store that is down.
        let location = S3Location(endpoint: "http://127.0.0.1:9", bucket: "none", accessKey: "a", secretKey: "b")
        let store = S3SegmentStore(client: S3Client(location: location, timeout: .seconds(5)), pause: .seconds(300))
        let cache = try SegmentCache(directory: scratch.appendingPathComponent("alone"), shared: store)
        #expect(await cache.fetchFromShared(String(repeating: "ef", count: 32)) == false)
        #expect(store.isResting)
        let refused = await #expect(throws: S3Error.self) { _ = try await store.audio(for: String(repeating: "ef", count: 32)) }
        #expect(refused?.code == "StoreResting")
    }
}

enum SharedBucket {
    static let base = ProcessInfo.processInfo.environment["STORYVOICE_TEST_S3_URL"].flatMap(S3Location.init(url:))

    /// The test store with a prefix of its own in the test bucket (a bucket per test would
    /// have SeaweedFS grow volumes for each).
    static func make() async throws -> S3SegmentStore {
        var location = try #require(base)
        location.prefix = "tests/\(UUID().uuidString.lowercased())/"
        let client = S3Client(location: location)
        try await client.createBucket()
        return S3SegmentStore(client: client)
    }
}
