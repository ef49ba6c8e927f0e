import Foundation
@testable import Narration
import Testing

/// What killed runs leave behind is removed when work starts again, and nothing else is.
@Suite struct LeftoverTests {
    static let uuid = "0F8FAD5B-D9CB-469F-A165-70867728950E"

    func folder(_ files: [String: TimeInterval]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-leftovers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, age) in files {
            let url = directory.appendingPathComponent(name)
            try Data(repeating: 1, count: 1000).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
        }
        return directory
    }

    func names(_ directory: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
    }

    @Test func aNarrationSweepsItsOwnOutputsLeftoversOnly() throws {
        let directory = try folder([
            ".book.m4b.\(Self.uuid).wav": 5, ".book.\(Self.uuid).partial.m4b": 5,
            ".other.m4b.\(Self.uuid).wav": 5, "book.m4b": 5, ".hidden": 5, "notes.wav": 5,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(Leftovers.sweep(in: directory, olderThan: 0, only: "book.m4b") == 2000)
        #expect(try names(directory) == [".other.m4b.\(Self.uuid).wav", "book.m4b", ".hidden", "notes.wav"])
    }

    @Test func aStartingServerSweepsOldLeftoversButNotFilesBeingWritten() throws {
        let renders = try folder([:])
        defer { try? FileManager.default.removeItem(at: renders) }
        let story = renders.appendingPathComponent("renders/0a1b", isDirectory: true)
        let cache = renders.appendingPathComponent("segments/ab", isDirectory: true)
        for directory in [story, cache] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        for (url, age) in [
            (story.appendingPathComponent(".book.m4b.\(Self.uuid).wav"), 3600.0),
            (story.appendingPathComponent(".book.\(Self.uuid).partial.m4b"), 30.0),  // another worker's, being written
            (story.appendingPathComponent("book.m4b"), 3600.0),
            (cache.appendingPathComponent(".abcdef.\(Self.uuid).tmp"), 3600.0),
            (cache.appendingPathComponent("abcdef.wav"), 3600.0),
        ] {
            try Data(repeating: 1, count: 1000).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
        }
        #expect(Leftovers.sweep(dataDirectory: renders, olderThan: 600) >= 2000)
        #expect(try names(story) == [".book.\(Self.uuid).partial.m4b", "book.m4b"])
        #expect(try names(cache) == ["abcdef.wav"])
    }
}
