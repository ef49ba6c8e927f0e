import Foundation
import StoryWorkflows

/// The store servers and workers share (issue 52): with `STORYVOICE_S3_URL`, rendered lines
/// go to that bucket too, so any server plays what any worker rendered.
enum SharedStore {
    static func segments() async throws -> S3SegmentStore? {
        do {
            return try await S3SegmentStore.fromEnvironment()
        } catch {
            throw UserFacingError("The shared store in STORYVOICE_S3_URL cannot be used: \(error). Check its address and keys, or unset it to keep rendered lines on this machine only.")
        }
    }
}
