import Bootstrap
import Foundation
import ObjectStorage

/// The store servers and workers share (issue 52): with `STORYVOICE_S3_URL` (or the
/// `STORYVOICE_S3_*` parts), rendered lines and every finished file go to that bucket, so any
/// server serves what any worker made.
enum SharedStore {
    static let howTo = "STORYVOICE_S3_URL=http://ACCESS:SECRET@HOST:PORT/BUCKET, or STORYVOICE_S3_ENDPOINT, _BUCKET, _ACCESS_KEY and _SECRET_KEY (docs/deploy.md)"

    /// `storyvoice doctor`'s lines on the store (its address and bucket, never its keys), after
    /// writing, reading and deleting a probe; the number of problems found.
    static func report(environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int {
        print("Shared store")
        let location: S3Location?
        do {
            location = try S3Location.fromEnvironment(environment)
        } catch {
            print("  ✗ \(SharedStoreUnusable(error).reason). Set \(howTo).")
            return 1
        }
        guard let location else {
            print("  · not set — rendered lines, exports, chat videos and journey audio stay in the data directory. To share them between servers and workers: \(howTo)")
            return 0
        }
        do {
            let seconds = try await S3Client(location: location, timeout: .seconds(10)).probe()
            print("  ✓ \(location.endpoint), bucket \(location.bucket) — wrote, read and deleted a probe in \(String(format: "%.2f", seconds)) s")
            return 0
        } catch {
            print("  ✗ \(location.endpoint), bucket \(location.bucket) — \(error). Check the address and the keys, or unset the store.")
            return 1
        }
    }
}
