import Foundation
import Narration
import ObjectStorage

/// Rendered lines in an S3-compatible bucket (issue 52), under `segments/<first two>/<key>.wav`
/// as on disk: every server and worker configured with the same bucket finds the others' lines.
public struct S3SegmentStore: SharedSegmentStore {
    public let client: S3Client

    public init(client: S3Client) {
        self.client = client
    }

    /// From `STORYVOICE_S3_URL` (`http://ACCESS:SECRET@HOST:PORT/BUCKET?region=R`), creating the
    /// bucket when it is not there; nil when the variable is unset. A URL that cannot be read is
    /// an error, not a silent fallback to this machine's disk.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> S3SegmentStore? {
        guard let text = environment["STORYVOICE_S3_URL"], !text.isEmpty else { return nil }
        guard let location = S3Location(url: text) else {
            throw S3Error(code: "InvalidConfiguration", status: 0, message: "STORYVOICE_S3_URL is not http(s)://ACCESS:SECRET@HOST[:PORT]/BUCKET[?region=R]")
        }
        let client = S3Client(location: location)
        try await client.createBucket()
        return S3SegmentStore(client: client)
    }

    static func objectKey(_ key: String) -> String {
        "segments/\(key.prefix(2))/\(key).wav"
    }

    public func audio(for key: String) async throws -> Data? {
        do {
            return try await client.get(Self.objectKey(key))
        } catch let error as S3Error where error.status == 404 {
            return nil
        }
    }

    public func store(audio: Data, for key: String) async throws {
        try await client.put(audio, key: Self.objectKey(key), contentType: "audio/wav")
    }
}
