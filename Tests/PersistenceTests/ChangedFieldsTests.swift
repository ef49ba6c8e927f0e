import DatabaseTestSupport
import FluentKit
import Foundation
@_spi(Fluent) @testable import Persistence
import Testing

/// A row changed as a value is written back column by column, only where the change touched
/// it: two writers of different columns keep each other's writes. (The first value rows wrote
/// every column, so the player's playhead write put back the teller's old count of parts.)
@Suite("Rows written back")
struct ChangedFieldsTests {
    @Test("a journey's playhead written from a row read before the teller counted a part keeps the count", arguments: Backend.available)
    func journeyUpdateKeepsOthersWrites(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await UserRepository(database: database.database).create(email: "ada@x.io", passwordHash: "h").id
            let repository = JourneyRepository(database: database.database)
            let id = UUID()
            try await repository.create(JourneyRow(
                id: id, ownerID: owner, planJSON: "{}", parts: 3, wordsPerMinute: 150, style: "adventure", styleDescription: nil,
                voice: "piper:joe", model: "local", now: Date()))

            // The player reads the journey…
            let record = try #require(try await JourneyRecord.query(on: database.database.fluent).filter(\.$id == id).first())
            var row = try record.row()
            // …the teller finishes a part meanwhile…
            try await repository.save(JourneyPartRow(id: UUID(), journeyID: id, number: 1, beat: nil, now: Date()).ready)
            #expect(try await repository.recountReady(id) == 1)
            // …and the player writes the playhead from what it read.
            row.playheadPart = 2
            record.set(row)
            try await record.update(on: database.database.fluent)

            let now = try #require(try await repository.find(id, ownerID: owner))
            #expect(now.playheadPart == 2)
            #expect(now.partsReady == 1)
        }
    }

    @Test("an export's progress written from an old read keeps a share link made meanwhile", arguments: Backend.available)
    func exportUpdateKeepsOthersWrites(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await UserRepository(database: database.database).create(email: "ada@x.io", passwordHash: "h").id
            let conversation = ChatConversationRow(id: UUID(), ownerID: owner, title: "T", theme: "imessage", document: "{}", messageCount: 0, now: Date())
            try await ChatConversationRepository(database: database.database).create(conversation)
            let exports = ChatExportRepository(database: database.database)
            let export = ChatExportRow(id: UUID(), ownerID: owner, conversationID: conversation.id, title: "T", conversationJSON: "{}", settingsJSON: "{}", now: Date())
            try await exports.create(export)

            let record = try #require(try await ChatExportRecord.query(on: database.database.fluent).filter(\.$id == export.id).first())
            var row = try record.row()
            _ = try await exports.share(export.id, ownerID: owner, token: "token")
            row.progress = 0.5
            record.set(row)
            try await record.update(on: database.database.fluent)

            let now = try #require(try await exports.find(export.id, ownerID: owner))
            #expect(now.progress == 0.5)
            #expect(now.shareToken == "token")
        }
    }
}

extension JourneyPartRow {
    fileprivate var ready: JourneyPartRow {
        var part = self
        part.status = "ready"
        return part
    }
}
