import Foundation
import LanguageModels
import StoryModel
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting
import VendorHTTP

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
            let endpoints = Self.jsonEndpoints(story: story, character: character, other: other)
            for (method, path, _) in endpoints {
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

    /// Every endpoint that reads a JSON body, with a body that would change something if the
    /// server read it (what the oversize sweep pads).
    static func jsonEndpoints(story: UUID, character: String, other: String, refreshToken: String = "")
        -> [(HTTPMethod, String, String)] {
        [
            (.POST, "/auth/register", #""email":"padded@example.com","password":"correct horse battery""#),
            (.POST, "/auth/refresh", #""refresh_token":"\#(refreshToken)""#),
            (.POST, "/auth/logout", #""refresh_token":"\#(refreshToken)""#),
            (.PUT, "/api/settings", #""narration":{"rate":1.5},"api_keys":{"openai":"sk-padded-0123456789"}"#),
            (.POST, "/api/stories", #""text":"A padded story.""#),
            (.PATCH, "/api/stories/\(story)", #""title":"Padded""#),
            (.POST, "/api/stories/\(story)/analyze", #""mode":"hybrid""#),
            (.POST, "/api/stories/\(story)/analyze/estimate", #""llm":"openai:gpt-4o-mini""#),
            (.POST, "/api/stories/\(story)/cast/suggest", #""llm":"openai:gpt-4o-mini""#),
            (.POST, "/api/stories/\(story)/characters", #""name":"Padded""#),
            (.PATCH, "/api/stories/\(story)/characters/\(character)", #""name":"Padded""#),
            (.POST, "/api/stories/\(story)/characters/\(other)/merge", #""into":"\#(character)""#),
            (.PUT, "/api/stories/\(story)/lexicon", #""entries":{"Padded":"Pad""}"#),
            (.PUT, "/api/stories/\(story)/cast/\(character)", #""voice":"test:bass","rate":1.5"#),
            (.PATCH, "/api/stories/\(story)/segments/0", #""speaker":"\#(character)""#),
            (.POST, "/api/stories/\(story)/render", #""format":"mp3""#),
            (.POST, "/api/voices/preview", #""voice":"test:alto""#),
            (.POST, "/api/journeys/plan", #""start":"Oxford, UK","end":"Cambridge, UK","mode":"driving""#),
            (.POST, "/api/journeys", #""start":"Oxford, UK","end":"Cambridge, UK","style":"noir""#),
            // No journey has the story's id: the body is read (and refused) before the id is looked up.
            (.PUT, "/api/journeys/\(story)/playhead", #""part":2,"sentence":0"#),
        ]
    }

    /// Everything the oversize sweep could have changed, read back through the API (parsed, as
    /// key order is not part of a reply).
    struct Snapshot: Equatable {
        var stories, story, analysis, settings, jobs: JSONValue
    }

    @Test("an oversize body gets 413 payload_too_large on every endpoint that reads one, in memory and over HTTP, changing nothing")
    func oversizeBodiesEverywhere() async throws {
        let jsonLimit = 8 * 1024, uploadLimit = 48 * 1024
        var defaults = (json: 0, upload: 0)
        try await withNarrationServer(adjust: { config in
            defaults = (config.maxJSONBodyBytes, config.maxUploadBytes)
            config.maxJSONBodyBytes = jsonLimit
            config.maxUploadBytes = uploadLimit
        }) { app, config, _ in
            let ada = try await app.register("ada@example.com")
            let token = ada.access_token
            let story = try await app.analyzedSample(token, config)
            let analysis = try #require(try await app.analysis(story, token).analysis)
            let character = try #require(analysis.characters.first { $0.lines > 0 }).id
            let other = try #require(analysis.characters.first { $0.id != character }).id
            func snapshot() async throws -> Snapshot {
                func read(_ path: String) async throws -> JSONValue {
                    try JSONValue.parse(Data(try await app.send(.GET, path, token: token).body.readableBytesView))
                }
                return try await Snapshot(
                    stories: read("/api/stories"), story: read("/api/stories/\(story)"),
                    analysis: read("/api/stories/\(story)/analysis"), settings: read("/api/settings"), jobs: read("/api/jobs"))
            }
            let before = try await snapshot()

            var requests: [(String, HTTPMethod, String, HTTPHeaders, String)] = []
            var json = HTTPHeaders()
            json.contentType = .json
            json.bearerAuthorization = BearerAuthorization(token: token)
            // JSON routes: a change request padded past the JSON limit (but under the upload limit).
            let pad = String(repeating: "x", count: jsonLimit)
            for (method, path, fields) in Self.jsonEndpoints(story: story, character: character, other: other, refreshToken: ada.refresh_token)
            where path != "/api/stories" {
                requests.append(("JSON", method, path, json, #"{\#(fields),"padding":"\#(pad)"}"#))
            }
            // Story imports take the upload limit, pasted or uploaded.
            let longText = String(repeating: "Once upon a time. ", count: uploadLimit / 18 + 1)
            requests.append(("pasted story", .POST, "/api/stories", json, #"{"text":"\#(longText)"}"#))
            let (uploadHeaders, uploadBody) = StoriesAPITests.multipart(filename: "long.txt", contents: longText)
            var upload = uploadHeaders
            upload.bearerAuthorization = BearerAuthorization(token: token)
            requests.append(("upload", .POST, "/api/stories", upload, String(buffer: uploadBody)))
            // The login form.
            var form = HTTPHeaders()
            form.contentType = .urlEncodedForm
            requests.append(("form", .POST, "/auth/login", form, "username=ada%40example.com&password=correct+horse+battery&padding=\(pad)"))

            #expect(requests.count == 22)
            let live = try app.testing(method: .running(port: 0))
            for (transport, tester) in [("in memory", try app.testing()), ("over HTTP", live)] {
                for (kind, method, path, headers, body) in requests {
                    let reply = try await tester.sendRequest(method, path, headers: headers, body: ByteBuffer(string: body))
                    let what = "\(transport), \(kind) \(method) \(path)"
                    #expect(reply.status == .payloadTooLarge, "\(what): \(reply.status) \(reply.body.string.prefix(200))")
                    #expect(reply.headers.contentType == .json, "\(what)")
                    #expect(reply.errorCode == "payload_too_large", "\(what): \(reply.body.string.prefix(200))")
                    #expect(reply.errorMessage?.contains("larger than") == true, "\(what): \(reply.errorMessage ?? "")")
                    #expect(reply.headers.setCookie == nil, "\(what) set a cookie")
                }
            }

            // Nothing changed: the same replies as before, no padded account, and the refresh token
            // that two padded requests presented is still unspent.
            #expect(try await snapshot() == before)
            #expect(try await app.login("padded@example.com", "correct horse battery").status == .unauthorized)
            #expect(try await app.send(.POST, "/auth/refresh", json: #"{"refresh_token":"\#(ada.refresh_token)"}"#).status == .ok)
        }
        // The limits the sweep scaled down are the documented ones.
        #expect(defaults.json == 1 << 20)
        #expect(defaults.upload == 20 << 20)
    }
}
