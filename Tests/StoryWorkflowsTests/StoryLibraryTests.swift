import Crypto
import DatabaseTestSupport
import Foundation
import Persistence
import Platform
import StoryWorkflows
import Testing

/// The library's use cases on a real database, without HTTP (issue 50): a pasted story is kept
/// whole, in the database or as a file when long, and is its owner's alone.
@Suite("Story library, without HTTP")
struct StoryLibraryTests {
    static func stories(_ database: StoryDatabase, data: DataDirectory, owner: UUID) throws -> Stories {
        let models = ModelAccess.make(environment: [:], secret: try ServerSecret(key: SymmetricKey(size: .bits256)), dataDirectory: data)
        return Stories(database: database.database, dataDirectory: data, narration: nil, models: models, plans: PlanCache(), ownerID: owner)
    }

    @Test("a pasted story is kept whole, a long one as a file, and another user cannot find it", arguments: Backend.available)
    func pastedStoryIsItsOwnersAlone(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, test in
            let data = DataDirectory(url: test.directory.appendingPathComponent("data", isDirectory: true))
            let users = UserRepository(database: database.database)
            let owner = try await users.create(email: "owner@example.com", passwordHash: "h").id
            let stranger = try await users.create(email: "stranger@example.com", passwordHash: "h").id
            let library = StoryLibrary(dataDirectory: data, inlineTextLimitBytes: 1_000)
            let short = "“Who is there?” asked the lantern keeper.\n\n“Only me,” said Anne."
            let long = String(repeating: "“Is it far?” asked Anne. “Not very,” said Matthew.\n\n", count: 100)

            let kept = try await library.add(try ImportedText.paste(text: short, title: "The lantern", author: nil), ownerID: owner, database: database.database)
            let filed = try await library.add(try ImportedText.paste(text: long, title: nil, author: nil), ownerID: owner, database: database.database)
            #expect(kept.textPath == nil && filed.textPath != nil, "a text over the limit is a file, not a row")

            let mine = try Self.stories(database, data: data, owner: owner)
            #expect(try mine.content(try await mine.story(kept.id)).document.text == short)
            #expect(try mine.content(try await mine.story(filed.id)).document.text == long)

            let theirs = try Self.stories(database, data: data, owner: stranger)
            let refused = await #expect(throws: ServiceError.self) { _ = try await theirs.story(kept.id) }
            #expect(refused?.kind == .notFound)
            await #expect(throws: ServiceError.self, "an empty paste is refused before anything is kept") {
                _ = try ImportedText.paste(text: " \n\t", title: nil, author: nil)
            }
        }
    }
}
