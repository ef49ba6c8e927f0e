import Foundation
import ObjectStorage
import Persistence
import Platform
import StoryWorkflows
import Testing

/// A long story's text written on one machine is read on another through the shared store
/// (a folder stands for the bucket here; the bucket itself is in the topology test).
struct StoryTextFilesTests {
    static func folder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("texts-\(name)-\(UUID().uuidString)", isDirectory: true)
    }

    static func story(_ stored: (path: String, sha256: String), title: String = "A long stay") -> StoryRow {
        StoryRow(id: UUID(), ownerID: UUID(), title: title, author: nil, text: nil, textPath: stored.path, textSHA256: stored.sha256, characterCount: 0, importedAt: Date())
    }

    @Test("written here, fetched there whole, checked against its hash; a copy that differs or is gone is refused")
    func fetchedElsewhere() async throws {
        let shared = Self.folder("bucket"), here = Self.folder("here"), there = Self.folder("there")
        defer { [shared, here, there].forEach { try? FileManager.default.removeItem(at: $0) } }
        let store = DirectoryStore(root: shared)
        let text = String(repeating: "“Who is there?” asked the lantern keeper. ", count: 9_000)
        let stored = try await StoryTextFiles(dataDirectory: DataDirectory(url: here), artifacts: store).write(Data(text.utf8))
        #expect(try await store.size(of: "files/\(stored.path)") == Data(text.utf8).count)

        let elsewhere = StoryTextFiles(dataDirectory: DataDirectory(url: there), artifacts: store)
        let story = Self.story(stored)
        #expect(throws: (any Error).self) { _ = try story.fullText(dataDirectory: DataDirectory(url: there)) }
        try await elsewhere.fetch(for: story)
        #expect(try story.fullText(dataDirectory: DataDirectory(url: there)) == text)

        // Tampered in the store: refused, and nothing kept on the machine that asked.
        let third = Self.folder("third")
        defer { try? FileManager.default.removeItem(at: third) }
        try await store.keep(Data("something else".utf8), as: "files/\(stored.path)", contentType: "text/plain")
        let refused = await #expect(throws: ServiceError.self) { try await StoryTextFiles(dataDirectory: DataDirectory(url: third), artifacts: store).fetch(for: story) }
        #expect(refused?.code == "text_mismatch")
        #expect(throws: (any Error).self) { _ = try story.fullText(dataDirectory: DataDirectory(url: third)) }

        try await store.delete("files/\(stored.path)")
        let gone = await #expect(throws: ServiceError.self) { try await StoryTextFiles(dataDirectory: DataDirectory(url: third), artifacts: store).fetch(for: story) }
        #expect(gone?.code == "text_missing" && gone?.message.contains("Import the story again") == true)
    }
}
