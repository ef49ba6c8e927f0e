import DatabaseTestSupport
import Foundation
@testable import StoryServer
import Testing
import VaporTesting
import VendorHTTP

/// Chat stories over HTTP: conversations kept per user, checked before they are kept.
@Suite("Chat stories API")
struct ChatAPITests {
    @Test("a new chat starts with the starter pair; it is read, renamed, replaced, duplicated, listed and deleted", arguments: Backend.available)
    func lifecycle(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let empty = try await app.send(.POST, "/api/chat/conversations", token: ada)
            #expect(empty.status == .created, "\(empty.body.string)")
            #expect(empty.json?["characters"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Me", "Alex"])
            #expect(empty.json?["title"]?.stringValue == "Untitled chat")

            let id = try await app.createChat(ada)
            let read = try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada)
            #expect(read.json?["messages"]?.arrayValue?.compactMap { $0["text"]?.stringValue } == ["hey, is this the lighthouse?", "No… it's me 😅", "oh."])
            #expect(read.json?["characters"]?[1]?["avatar_emoji"]?.stringValue == "🦊")

            // A conversation read can be sent back as it is (ids and dates included).
            let roundTrip = try await app.send(.PUT, "/api/chat/conversations/\(id)", token: ada, json: read.body.string)
            #expect(roundTrip.status == .ok, "\(roundTrip.body.string)")
            let renamed = try await app.send(.PUT, "/api/chat/conversations/\(id)", token: ada, json: #"{"title":"  The lighthouse  "}"#)
            #expect(renamed.json?["title"]?.stringValue == "The lighthouse")
            #expect(renamed.json?["messages"]?.arrayValue?.count == 3)
            let reordered = try await app.send(.PUT, "/api/chat/conversations/\(id)", token: ada,
                                               json: #"{"messages":[{"character_id":"me","text":"second"},{"character_id":"sam","text":"first"}]}"#)
            #expect(reordered.json?["messages"]?.arrayValue?.compactMap { $0["text"]?.stringValue } == ["second", "first"])

            let copy = try await app.send(.POST, "/api/chat/conversations/\(id)/duplicate", token: ada)
            #expect(copy.status == .created)
            #expect(copy.json?["title"]?.stringValue == "The lighthouse (copy)")
            #expect(copy.json?["id"]?.stringValue != id.uuidString.lowercased())

            let list = try await app.send(.GET, "/api/chat/conversations", token: ada)
            #expect(list.json?["conversations"]?.arrayValue?.count == 3)
            #expect(list.json?["conversations"]?[0]?["title"]?.stringValue == "The lighthouse (copy)")

            let timeline = try await app.send(.GET, "/api/chat/conversations/\(id)/timeline?typing_speed=fast&keyboard=false&fps=60", token: ada)
            #expect(timeline.status == .ok)
            #expect(timeline.json?["events"]?.arrayValue?.contains { $0["type"]?.stringValue == "typed" } == true)
            #expect((timeline.json?["duration_ms"]?.doubleValue ?? 0) > 0)
            #expect(try await app.send(.GET, "/api/chat/conversations/\(id)/timeline?format=vertical", token: ada).status == .badRequest)

            #expect(try await app.send(.DELETE, "/api/chat/conversations/\(id)", token: ada).status == .noContent)
            #expect(try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).status == .notFound)
        }
    }

    @Test("another user's chat, export and video are not found, exactly like ids that do not exist", arguments: Backend.available)
    func isolation(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let bob = try await app.register("bob@example.com").access_token
            let id = try await app.createChat(ada)
            let export = try await app.startChatExport(id, token: ada).content.decode(ChatExportReply.self)

            for (method, path, json) in [
                (HTTPMethod.GET, "/api/chat/conversations/\(id)", nil), (.PUT, "/api/chat/conversations/\(id)", #"{"title":"mine"}"#),
                (.DELETE, "/api/chat/conversations/\(id)", nil), (.POST, "/api/chat/conversations/\(id)/duplicate", nil),
                (.GET, "/api/chat/conversations/\(id)/timeline", nil), (.POST, "/api/chat/conversations/\(id)/exports", quickExportJSON),
                (.GET, "/api/chat/exports/\(export.id)", nil), (.GET, "/api/chat/exports/\(export.id)/video", nil),
                (.POST, "/api/chat/exports/\(export.id)/share", nil), (.DELETE, "/api/chat/exports/\(export.id)/share", nil),
            ] as [(HTTPMethod, String, String?)] {
                let reply = try await app.send(method, path, token: bob, json: json)
                #expect(reply.status == .notFound, "\(method) \(path): \(reply.status)")
            }
            #expect(try await app.send(.GET, "/api/chat/conversations", token: bob).json?["conversations"]?.arrayValue?.isEmpty == true)
            #expect(try await app.send(.GET, "/api/chat/exports", token: bob).json?["exports"]?.arrayValue?.isEmpty == true)
            #expect(try await app.send(.GET, "/api/chat/exports?conversation_id=\(id)", token: bob).json?["exports"]?.arrayValue?.isEmpty == true)
            // Ada's are all still there.
            #expect(try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).json?["title"]?.stringValue == "Wrong number")
            #expect(try await app.send(.GET, "/api/chat/exports?conversation_id=\(id)", token: ada).json?["exports"]?.arrayValue?.count == 1)
            #expect(try await app.send(.GET, "/api/chat/conversations", token: nil).status == .unauthorized)
        }
    }

    @Test("a conversation that breaks a rule is refused with what to do, and the kept one is unchanged")
    func validation() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let id = try await app.createChat(ada)
            let before = try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).body.string
            let long = String(repeating: "a", count: 5_000)
            let cases: [(json: String, code: String, says: String)] = [
                (#"{"messages":[{"character_id":"ghost","text":"boo"}]}"#, "unknown_character", "\"ghost\", who is not in the conversation"),
                (#"{"characters":[{"id":"me","name":"Me","color":"blue","is_me":true},{"id":"sam","name":"Sam"}]}"#, "invalid_color", "Use #RRGGBB"),
                (#"{"messages":[{"character_id":"me","text":"\#(long)"}]}"#, "message_too_long", "5,000 characters long"),
                (#"{"characters":[{"id":"me","name":"Me","is_me":true}]}"#, "too_few_characters", "at least two people"),
            ]
            for (json, code, says) in cases {
                let reply = try await app.send(.PUT, "/api/chat/conversations/\(id)", token: ada, json: json)
                #expect(reply.status == .unprocessableEntity, "\(code): \(reply.body.string.prefix(200))")
                #expect(reply.errorCode == code)
                #expect(reply.errorMessage?.contains(says) == true, "\(reply.errorMessage ?? "")")
            }
            #expect(try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).body.string == before)
            let created = try await app.send(.POST, "/api/chat/conversations", token: ada, json: #"{"messages":[{"character_id":"x","text":"hi"}]}"#)
            #expect(created.status == .unprocessableEntity && created.errorCode == "unknown_character")
            #expect(try await app.send(.POST, "/api/chat/conversations", token: ada, json: #"{"theme":"sepia"}"#).status == .badRequest)
            let stamped = try await app.send(.PUT, "/api/chat/conversations/\(id)", token: ada,
                                             json: #"{"messages":[{"character_id":"me","text":"hi","timestamp":"yesterday"}]}"#)
            #expect(stamped.status == .unprocessableEntity && stamped.errorCode == "invalid_timestamp", "\(stamped.body.string)")

            let empty = try await app.createChat(ada, json: #"{"title":"Nothing yet"}"#)
            let export = try await app.startChatExport(empty, token: ada)
            #expect(export.status == .unprocessableEntity && export.errorCode == "no_messages")
            #expect(export.errorMessage?.contains("Add at least one message") == true)
            #expect(try await app.startChatExport(id, token: ada, json: #"{"fps":24}"#).status == .unprocessableEntity)
            #expect(try await app.send(.GET, "/api/chat/entitlement", token: ada).json?["exports_today"]?.doubleValue == 0)
        }
    }
}
