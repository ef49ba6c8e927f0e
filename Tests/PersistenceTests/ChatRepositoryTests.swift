import DatabaseTestSupport
import FluentKit
import Foundation
import Persistence
import Testing

@Suite("Chat stories and entitlements")
struct ChatRepositoryTests {
    static func users(_ database: StoryDatabase) async throws -> (UUID, UUID) {
        let users = UserRepository(database: database.database)
        return (try await users.create(email: "ada@x.io", passwordHash: "h").id,
                try await users.create(email: "bob@x.io", passwordHash: "h").id)
    }

    @Test("conversations and exports are visible only to their owner; deleting one takes its exports", arguments: Backend.available)
    func ownerScoped(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let (ada, bob) = try await Self.users(database)
            let conversations = ChatConversationRepository(database: database.database)
            let exports = ChatExportRepository(database: database.database)
            let document = #"{"characters":[],"messages":[{"text":"first"},{"text":"second"}]}"#
            let id = UUID()
            try await conversations.create(
                ChatConversationRow(id: id, ownerID: ada, title: "Wrong number", theme: "imessage", document: document, messageCount: 2, now: Date()))
            let export = ChatExportRow(id: UUID(), ownerID: ada, conversationID: id, title: "Wrong number", conversationJSON: "{}", settingsJSON: "{}", now: Date())
            try await exports.create(export)
            try await exports.update(export.id, ownerID: ada) { $0.filePath = "chat-exports/a/b.mp4" }
            #expect(try await exports.find(export.id, ownerID: ada)?.filePath == "chat-exports/a/b.mp4")
            try await exports.attach(job: id, to: export.id)
            #expect(try await exports.find(export.id, ownerID: ada)?.jobID == id)

            #expect(try await conversations.find(id, ownerID: ada)?.document == document)
            #expect(try await conversations.find(id, ownerID: bob) == nil)
            #expect(try await conversations.list(ownerID: bob).isEmpty)
            #expect(try await exports.find(export.id, ownerID: bob) == nil)
            #expect(try await exports.list(ownerID: bob).isEmpty)
            #expect(try await exports.update(export.id, ownerID: bob) { $0.status = "failed" } == false)
            #expect(try await exports.share(export.id, ownerID: bob, token: "t") == nil)
            #expect(try await conversations.delete(id, ownerID: bob) == nil)
            #expect(try await conversations.modify(id, ownerID: bob) { $0.title = "Bob's" } == nil)
            let renamed = try await conversations.modify(id, ownerID: ada) { $0.title = "Renamed" }
            #expect(renamed?.version == 1)
            #expect(try await conversations.find(id, ownerID: ada)?.title == "Renamed")

            #expect(try await conversations.delete(id, ownerID: ada) == ["chat-exports/a/b.mp4"])
            #expect(try await conversations.list(ownerID: ada).isEmpty)
            #expect(try await exports.list(ownerID: ada).isEmpty)
        }
    }

    @Test("a share token is set once; the day's count leaves failed exports out", arguments: Backend.available)
    func shareAndCount(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let (ada, _) = try await Self.users(database)
            let conversation = ChatConversationRow(id: UUID(), ownerID: ada, title: "T", theme: "imessage", document: "{}", messageCount: 0, now: Date())
            try await ChatConversationRepository(database: database.database).create(conversation)
            let exports = ChatExportRepository(database: database.database)
            let now = Date()
            var made: [ChatExportRow] = []
            for (status, age) in [("succeeded", 60.0), ("failed", 30), ("running", 10), ("succeeded", 90_000)] {
                var record = ChatExportRow(id: UUID(), ownerID: ada, conversationID: conversation.id, title: "T", conversationJSON: "{}", settingsJSON: "{}", now: now.addingTimeInterval(-age))
                record.status = status
                try await exports.create(record)
                made.append(record)
            }
            let counted = try await exports.started(ownerID: ada, since: now.addingTimeInterval(-3_600))
            #expect(Set(counted.map(\.status)) == ["succeeded", "running"] && counted.count == 2)

            let first = try await exports.share(made[0].id, ownerID: ada, token: "first-token")
            let second = try await exports.share(made[0].id, ownerID: ada, token: "second-token")
            #expect(first?.shareToken == "first-token" && second?.shareToken == "first-token")
            #expect(try await exports.find(shareToken: "first-token")?.id == made[0].id)
            #expect(try await exports.find(shareToken: "second-token") == nil)
            // The newest first.
            #expect(try await exports.list(ownerID: ada).map(\.id) == [made[2].id, made[1].id, made[0].id, made[3].id])
        }
    }

    @Test("premium is granted, expires, and is revoked per source", arguments: Backend.available)
    func entitlements(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let (ada, bob) = try await Self.users(database)
            let entitlements = EntitlementRepository(database: database.database)
            let now = Date()
            #expect(try await entitlements.active(Entitlement.premium, userID: ada, now: now).isEmpty)

            try await entitlements.grant(Entitlement.premium, to: ada, source: Entitlement.Source.admin, expiresAt: now.addingTimeInterval(86_400), now: now)
            #expect(try await entitlements.active(Entitlement.premium, userID: ada, now: now).count == 1)
            #expect(try await entitlements.active(Entitlement.premium, userID: bob, now: now).isEmpty)
            #expect(try await entitlements.active(Entitlement.premium, userID: ada, now: now.addingTimeInterval(86_401)).isEmpty)

            // Granting again replaces the admin's grant rather than adding one.
            try await entitlements.grant(Entitlement.premium, to: ada, source: Entitlement.Source.admin, expiresAt: nil, now: now)
            try await entitlements.grant(Entitlement.premium, to: ada, source: Entitlement.Source.appStore, expiresAt: now.addingTimeInterval(60), now: now)
            let active = try await entitlements.active(Entitlement.premium, userID: ada, now: now.addingTimeInterval(10_000_000))
            #expect(active.map(\.source) == [Entitlement.Source.admin])

            #expect(try await entitlements.revoke(Entitlement.premium, from: ada, source: Entitlement.Source.admin))
            #expect(try await entitlements.revoke(Entitlement.premium, from: ada, source: Entitlement.Source.admin) == false)
            #expect(try await entitlements.active(Entitlement.premium, userID: ada, now: now).map(\.source) == [Entitlement.Source.appStore])
        }
    }
}
