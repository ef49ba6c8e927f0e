import Foundation
import Logging
import Narration
import ObjectStorage
import Synchronization

/// Rendered lines in an S3-compatible bucket (issue 52), under `segments/<first two>/<key>.wav`
/// as on disk: every server and worker configured with the same bucket finds the others' lines.
///
/// A store that fails a read is not read again for `pause` (30 s): each line would otherwise
/// wait out its own timeout, and playback would stall line after line while the lines could be
/// rendered here. Writes are always tried (they follow a render, and a line not put there is
/// one other machines render again).
public final class S3SegmentStore: SharedSegmentStore {
    public let client: S3Client
    let pause: Duration
    let logger = Logger(label: "storyvoice.shared-store")
    private let resting = Mutex<ContinuousClock.Instant?>(nil)

    public init(client: S3Client, pause: Duration = .seconds(30)) {
        self.client = client
        self.pause = pause
    }

    /// Whether the store failed less than `pause` ago.
    public var isResting: Bool {
        resting.withLock { until in until.map { ContinuousClock.now < $0 } ?? false }
    }

    /// Reads unless the store rests; a failure (other than an answer of its own, such as "no
    /// such key") makes it rest.
    private func reading<T>(_ body: () async throws -> T) async throws -> T {
        if isResting { throw S3Error(code: "StoreResting", status: 0, message: "the shared store failed a read less than \(pause) ago") }
        do {
            return try await body()
        } catch let error as S3Error where error.status == 404 || error.status == 403 {
            throw error
        } catch {
            resting.withLock { $0 = ContinuousClock.now + pause }
            logger.warning("the shared store failed a read; lines are rendered here until it is tried again", metadata: [
                "error": "\(error)", "retry_in": "\(pause)",
            ])
            throw error
        }
    }

    static func objectKey(_ key: String) -> String {
        "segments/\(key.prefix(2))/\(key).wav"
    }

    public func audio(for key: String) async throws -> Data? {
        do {
            return try await reading { try await client.get(Self.objectKey(key)) }
        } catch let error as S3Error where error.status == 404 {
            return nil
        }
    }

    public func store(audio: Data, for key: String) async throws {
        try await client.put(audio, key: Self.objectKey(key), contentType: "audio/wav")
    }
}
