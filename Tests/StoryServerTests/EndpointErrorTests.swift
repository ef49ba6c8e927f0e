import Foundation
import StoryModel
@testable import StoryServer
import Testing
import VaporTesting

/// Every endpoint, not a sample of them: an expired token is refused on every authenticated
/// route, and every endpoint that reads a JSON body answers malformed JSON and a body of the
/// wrong shape with 400 in the API's error shape, changing nothing.
@Suite("Errors on every endpoint")
struct EndpointErrorTests {
    @Test("an expired access token is refused on every /api route, with token_expired")
    func expiredTokenEverywhere() async throws {
        try await withServer { app, config, _ in
            let tokens = try await app.register("ada@example.com")
            let me = try await app.send(.GET, "/api/me", token: tokens.access_token)
            let id = try me.content.decode([String: String].self)["id"] ?? ""
            let expired = try await accessToken(for: id, config: config, secondsPast: 60)

            let routes = app.routes.all.filter { $0.path.first?.description == "api" }
            #expect(routes.count > 20)
            for route in routes {
                let path = "/" + route.path.map { component -> String in
                    switch component {
                    case .parameter(let name): name == "n" ? "0" : (name == "role" || name == "character" ? "c1" : UUID().uuidString)
                    default: component.description
                    }
                }.joined(separator: "/")
                let reply = try await app.send(route.method, path, token: expired, json: route.method == .GET || route.method == .DELETE ? nil : "{}")
                #expect(reply.status == .unauthorized, "\(route.method) \(path): \(reply.status)")
                #expect(reply.errorCode == "token_expired", "\(route.method) \(path): \(reply.body.string)")
            }
        }
    }

    @Test("malformed JSON and a body of the wrong shape get 400 on every endpoint that reads JSON")
    func badBodiesEverywhere() async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com")
            let token = ada.access_token
            let story = try await app.analyzedSample(token, config)
            let before = try await app.analysis(story, token)
            let character = try #require(before.analysis?.characters.first { $0.lines > 0 }).id
            let other = try #require(before.analysis?.characters.first { $0.id != character }).id
            let endpoints: [(HTTPMethod, String)] = [
                (.POST, "/auth/register"), (.POST, "/auth/refresh"),
                (.PUT, "/api/settings"),
                (.POST, "/api/stories"),
                (.PATCH, "/api/stories/\(story)"),
                (.POST, "/api/stories/\(story)/analyze"),
                (.POST, "/api/stories/\(story)/analyze/estimate"),
                (.POST, "/api/stories/\(story)/cast/suggest"),
                (.POST, "/api/stories/\(story)/characters"),
                (.PATCH, "/api/stories/\(story)/characters/\(character)"),
                (.POST, "/api/stories/\(story)/characters/\(other)/merge"),
                (.PUT, "/api/stories/\(story)/lexicon"),
                (.PUT, "/api/stories/\(story)/cast/\(character)"),
                (.PATCH, "/api/stories/\(story)/segments/0"),
                (.POST, "/api/stories/\(story)/render"),
                (.POST, "/api/voices/preview"),
            ]
            for (method, path) in endpoints {
                for body in [#"{"name": "#, "[1, 2, 3]", #"{"name": {"not": "text"}, "voice": 7, "into": false, "email": 1, "refresh_token": 2, "llm": 3, "format": 4, "entries": 5, "speaker": 6, "title": 7, "api_keys": 8, "narration": "loud"}"#] {
                    let reply = try await app.send(method, path, token: token, json: body)
                    #expect(reply.status == .badRequest, "\(method) \(path) with \(body): \(reply.status) \(reply.body.string)")
                    #expect(reply.errorCode != nil, "\(method) \(path): \(reply.body.string)")
                }
            }
            // Nothing was changed by any of them.
            let after = try await app.analysis(story, token)
            #expect(after.analysis == before.analysis)
            #expect(after.overrides.characters.isEmpty)
        }
    }
}
