import DatabaseTestSupport
import FluentKit
import Foundation
import Persistence
import Testing

@Suite("Stories")
struct StoryRepositoryTests {
    @Test("stories are visible only to their owner", arguments: Backend.available)
    func ownerScoped(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let users = UserRepository(database: database.database)
            let ada = try await users.create(email: "ada@x.io", passwordHash: "h").id
            let bob = try await users.create(email: "bob@x.io", passwordHash: "h").id
            let stories = StoryRepository(database: database.database)
            let story = StoryRow(id: UUID(), ownerID: ada, title: "The Open Window", author: "Saki", text: "“Hello.”",
                                    textPath: nil, textSHA256: "x", characterCount: 8, importedAt: Date())
            try await stories.create(story)
            let id = story.id

            #expect(try await stories.find(id: id, ownerID: ada)?.title == "The Open Window")
            #expect(try await stories.find(id: id, ownerID: bob) == nil)
            #expect(try await stories.list(ownerID: bob).isEmpty)
            #expect(try await stories.delete(id: id, ownerID: bob) == false)
            #expect(try await stories.list(ownerID: ada).count == 1)
            // An update writes what it changed, and only for the owner.
            #expect(try await stories.update(id: id, ownerID: bob) { $0.title = "Bob's" } == nil)
            let renamed = try await stories.update(id: id, ownerID: ada) { $0.title = "Renamed" }
            #expect(renamed?.title == "Renamed" && renamed?.text == "“Hello.”" && renamed?.updatedAt != nil)
            #expect(try await stories.delete(id: id, ownerID: ada) == true)
            #expect(try await stories.list(ownerID: ada).isEmpty)
        }
    }

    @Test func contentStoreIsContentAddressed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sv-cas-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = ContentStore(root: root)
        let a = try store.write(Data("once upon a time".utf8), extension: "txt")
        let b = try store.write(Data("once upon a time".utf8), extension: "txt")
        #expect(a.path == b.path)
        #expect(a.path.hasSuffix("\(a.sha256).txt"))
        #expect(try store.read(a.path) == Data("once upon a time".utf8))
    }
}
