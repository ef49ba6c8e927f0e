import DatabaseTestSupport
import Foundation
@testable import StoryServer
import Testing
import VaporTesting

/// Parallel edits of one chat story, as two tabs, a phone and the web app make them: each PUT
/// names some fields, and every one of them must be kept (before, parallel PUTs of the title,
/// the messages and the look all answered 200 and a field was lost in 7–8 of 10 trials).
@Suite("Chat stories: concurrent edits")
struct ChatConcurrentEditTests {
    @Test("ten rounds of parallel edits of the title, look, people and messages keep every field", arguments: Backend.available)
    func parallelEditsAreAllKept(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let id = try await app.createChat(ada)
            let tester = try app.testing()
            @Sendable func put(_ json: String) async throws -> HTTPStatus {
                var headers = HTTPHeaders()
                headers.bearerAuthorization = BearerAuthorization(token: ada)
                headers.contentType = .json
                return try await tester.sendRequest(.PUT, "/api/chat/conversations/\(id)", headers: headers, body: ByteBuffer(string: json)).status
            }
            let themes = ["whatsapp", "messenger", "discord", "imessage"]
            let rounds = 10
            for round in 0..<rounds {
                let edits = [
                    #"{"title":"Round \#(round)"}"#,
                    #"{"theme":"\#(themes[round % themes.count])"}"#,
                    ##"{"characters":[{"id":"me","name":"Me","color":"#007AFF","is_me":true},{"id":"sam","name":"Sam \##(round)","color":"#34C759"}]}"##,
                    #"{"messages":[{"character_id":"sam","text":"message of round \#(round)"},{"character_id":"me","text":"reply \#(round)"}]}"#,
                ]
                let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                    for edit in edits { group.addTask { try await put(edit) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.allSatisfy { $0 == .ok }, "round \(round): \(statuses)")

                let read = try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada)
                #expect(read.json?["title"]?.stringValue == "Round \(round)", "round \(round): title lost")
                #expect(read.json?["theme"]?.stringValue == themes[round % themes.count], "round \(round): look lost")
                #expect(read.json?["characters"]?[1]?["name"]?.stringValue == "Sam \(round)", "round \(round): people lost")
                #expect(read.json?["messages"]?[0]?["text"]?.stringValue == "message of round \(round)", "round \(round): messages lost")
            }
            // Every edit was a write of its own: none was swallowed by another.
            let final = try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada)
            #expect(final.headers.first(name: .eTag) == "\"\(rounds * 4)\"")
            let list = try await app.send(.GET, "/api/chat/conversations", token: ada)
            #expect(list.json?["conversations"]?[0]?["message_count"]?.doubleValue == 2)
        }
    }

    @Test("an edit sent with If-Match applies only to that version; a stale one answers 412 and changes nothing")
    func ifMatchRefusesStaleEdits() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let id = try await app.createChat(ada)
            let seen = try #require(try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).headers.first(name: .eTag))
            try await IfMatchContract.check(seen: seen) { title, ifMatch in
                try await app.send(.PUT, "/api/chat/conversations/\(id)", token: ada, json: #"{"title":"\#(title)"}"#,
                                   headers: IfMatchContract.headers(ifMatch: ifMatch))
            } current: {
                try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).json?["title"]?.stringValue
            }
            // Another user's edit, with the current version named, does not find the conversation.
            let bob = try await app.register("bob@example.com").access_token
            let now = try #require(try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).headers.first(name: .eTag))
            #expect(try await app.send(.PUT, "/api/chat/conversations/\(id)", token: bob, json: #"{"title":"x"}"#,
                                       headers: IfMatchContract.headers(ifMatch: now)).status == .notFound)
        }
    }
}
