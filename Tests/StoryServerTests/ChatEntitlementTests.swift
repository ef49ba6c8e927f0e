import DatabaseTestSupport
import Foundation
import Persistence
@testable import StoryServer
import Testing
import VaporTesting
import VendorHTTP

/// The free and premium plans, enforced by the server whatever a client sends.
@Suite("Chat stories plans")
struct ChatEntitlementTests {
    static let threePeople = #"""
    {"characters":[{"id":"me","name":"Me","is_me":true},{"id":"sam","name":"Sam"},{"id":"kit","name":"Kit"}],
     "messages":[{"character_id":"sam","text":"hi"},{"character_id":"kit","text":"hey"}]}
    """#

    @Test("free: three videos a day with the watermark, then 429; failed ones do not count; premium looks and a third person refused")
    func free() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let chat = try await app.createChat(ada)
            var started: [ChatExportReply] = []
            for _ in 0..<3 {
                let reply = try await app.startChatExport(chat, token: ada, json: #"{"format":"instagram","watermark":false}"#)
                #expect(reply.status == .accepted, "\(reply.body.string)")
                started.append(try reply.content.decode(ChatExportReply.self))
            }
            #expect(started.allSatisfy { $0.settings.watermark && $0.status == "queued" })

            let fourth = try await app.startChatExport(chat, token: ada)
            #expect(fourth.status == .tooManyRequests)
            #expect(fourth.errorCode == "daily_export_limit")
            #expect(fourth.errorMessage?.contains("Premium gives unlimited exports") == true)
            #expect(fourth.headers.first(name: .retryAfter).flatMap(Int.init).map { (1...86_400).contains($0) } == true)
            let allowance = try await app.send(.GET, "/api/chat/entitlement", token: ada).json
            #expect(allowance?["premium"] == .bool(false) && allowance?["exports_left_today"]?.doubleValue == 0)
            #expect(allowance?["themes"] == .array([.string("imessage")]))

            // An export that failed gives its place back.
            try await ChatExportRepository(database: app.appDatabase).update(started[0].id, ownerID: try #require(try await UserRepository(database: app.appDatabase).find(email: "ada@example.com")?.id)) {
                $0.status = "failed"
            }
            #expect(try await app.startChatExport(chat, token: ada).status == .accepted)
            #expect(try await app.startChatExport(chat, token: ada).status == .tooManyRequests)

            let look = try await app.send(.PUT, "/api/chat/conversations/\(chat)", token: ada, json: #"{"theme":"whatsapp"}"#)
            #expect(look.status == .ok, "a draft may take any look")
            let premiumLook = try await app.startChatExport(chat, token: ada)
            #expect(premiumLook.status == .forbidden && premiumLook.errorCode == "premium_required")
            #expect(premiumLook.errorMessage?.contains("comes with premium") == true)
            let crowd = try await app.startChatExport(try await app.createChat(ada, json: Self.threePeople), token: ada)
            #expect(crowd.status == .forbidden && crowd.errorMessage?.contains("between 2 people") == true)
            let generate = try await app.send(.POST, "/api/chat/generate", token: ada, json: #"{"prompt":"a ghost texts"}"#)
            #expect(generate.status == .forbidden && generate.errorCode == "premium_required")
        }
    }

    @Test("requests at the same moment cannot both take the day's last free export", arguments: Backend.available)
    func concurrent(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let chat = try await app.createChat(ada)
            // Each answer with its body: a 5xx says what went wrong on the server.
            let answers = try await withThrowingTaskGroup(of: (HTTPResponseStatus, String).self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let response = try await app.startChatExport(chat, token: ada)
                        return (response.status, response.body.string)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let statuses = answers.map(\.0)
            #expect(statuses.filter { $0 == .accepted }.count == 3, "\(answers)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 3, "\(answers)")
        }
    }

    @Test("premium: every look, more people, no watermark unless asked, no daily limit; an expired grant is free again")
    func premium() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            try await app.grantPremium("ada@example.com")
            let chat = try await app.createChat(ada, json: Self.threePeople)
            _ = try await app.send(.PUT, "/api/chat/conversations/\(chat)", token: ada, json: #"{"theme":"discord"}"#)
            for _ in 0..<5 {
                let reply = try await app.startChatExport(chat, token: ada)
                #expect(reply.status == .accepted, "\(reply.body.string)")
                #expect(try reply.content.decode(ChatExportReply.self).settings.watermark == false)
            }
            let marked = try await app.startChatExport(chat, token: ada, json: #"{"watermark":true}"#)
            #expect(try marked.content.decode(ChatExportReply.self).settings.watermark)
            let allowance = try await app.send(.GET, "/api/chat/entitlement", token: ada).json
            #expect(allowance?["premium"] == .bool(true) && allowance?["exports_left_today"] == .null && allowance?["exports_today"]?.doubleValue == 6)

            let bob = try await app.register("bob@example.com").access_token
            try await app.grantPremium("bob@example.com", expiresAt: Date().addingTimeInterval(-1))
            #expect(try await app.send(.GET, "/api/chat/entitlement", token: bob).json?["premium"] == .bool(false))
        }
    }
}
