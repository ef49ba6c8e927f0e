import Foundation

/// What a virtual environment holds, read from disk (nothing is run): a speech engine is
/// installed when its package's `.dist-info` is there.
enum SitePackages {
    /// `.venv/bin/python` → each `.venv/lib/python3.x/site-packages`.
    static func directories(python: String) -> [URL] {
        let lib = URL(fileURLWithPath: python).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib")
        return ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? [])
            .filter { $0.hasPrefix("python") }.sorted()
            .map { lib.appendingPathComponent($0).appendingPathComponent("site-packages") }
    }

    /// The version of `distribution` (its dist-info name, e.g. `piper_tts`) in `sitePackages`.
    static func version(of distribution: String, in sitePackages: URL) -> String? {
        let prefix = "\(distribution)-", suffix = ".dist-info"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: sitePackages.path),
              let distInfo = entries.first(where: { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) })
        else { return nil }
        return String(distInfo.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// The version of `distribution` in the first site-packages of `python` that has it.
    static func version(of distribution: String, python: String) -> String? {
        directories(python: python).lazy.compactMap { version(of: distribution, in: $0) }.first
    }
}
