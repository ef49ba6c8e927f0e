import Foundation
import ObjectStorage
import StoryWorkflows

/// The store servers and workers share (issue 52): with `STORYVOICE_S3_URL`, rendered lines
/// go to that bucket too, so any server plays what any worker rendered.
enum SharedStore {
    /// `storyvoice doctor`'s lines on the store (its address and bucket, never its keys), after
    /// writing, reading and deleting a probe; the number of problems found.
    static func report(environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int {
        print("Shared store")
        guard let text = environment["STORYVOICE_S3_URL"], !text.isEmpty else {
            print("  · not set — rendered lines, exports, chat videos and journey audiobooks stay in the data directory. To share them between servers and workers: STORYVOICE_S3_URL=http://ACCESS:SECRET@HOST:PORT/BUCKET (docs/object-storage.md)")
            return 0
        }
        guard let location = S3Location(url: text) else {
            print("  ✗ STORYVOICE_S3_URL is not http(s)://ACCESS:SECRET@HOST[:PORT]/BUCKET[?region=R]")
            return 1
        }
        do {
            let seconds = try await S3Client(location: location, timeout: .seconds(10)).probe()
            print("  ✓ \(location.endpoint), bucket \(location.bucket) — wrote, read and deleted a probe in \(String(format: "%.2f", seconds)) s")
            return 0
        } catch {
            print("  ✗ \(location.endpoint), bucket \(location.bucket) — \(error). Check the address and the keys, or unset STORYVOICE_S3_URL.")
            return 1
        }
    }

    /// Where finished files go: the bucket when the store is set, else the data directory.
    static func artifacts(dataDirectory: URL) async throws -> any ArtifactStore {
        do {
            return try await ArtifactStores.fromEnvironment(dataDirectory: dataDirectory)
        } catch {
            throw UserFacingError("The shared store in STORYVOICE_S3_URL cannot be used: \(error). Check its address and keys, or unset it to keep files on this machine only.")
        }
    }

    static func segments() async throws -> S3SegmentStore? {
        do {
            return try await S3SegmentStore.fromEnvironment()
        } catch {
            throw UserFacingError("The shared store in STORYVOICE_S3_URL cannot be used: \(error). Check its address and keys, or unset it to keep rendered lines on this machine only.")
        }
    }
}
