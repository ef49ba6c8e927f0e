import Foundation

/// A unique temporary folder per test (tests run in parallel in one process).
struct TemporaryFolder: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("storytext-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ data: Data, named name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

extension String {
    /// The text of scalar offsets [start, end).
    func scalars(_ start: Int, _ end: Int) -> String {
        let scalars = Array(unicodeScalars)[start..<end]
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}

import StoryModel

/// True when the chapters cover [0, scalar count) in order with no gap or overlap.
func chaptersTile(_ chapters: [Chapter], _ text: String) -> Bool {
    guard let first = chapters.first, let last = chapters.last else { return false }
    guard first.start == 0, last.end == text.unicodeScalars.count else { return false }
    return zip(chapters, chapters.dropFirst()).allSatisfy { $0.end == $1.start } && chapters.allSatisfy { $0.start < $0.end }
}
