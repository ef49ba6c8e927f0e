import DatabaseTestSupport
import Foundation
import Jobs
import JourneyWorkflows
import Journeys
import NIOCore
@testable import StoryServer
import StoryWorkflows
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

/// Journeys over HTTP (docs/journeys.md, "The API"): plans from the offline gazetteer and
/// estimate, the refusals with their codes, and a whole journey told by the server's own worker
/// with the user's model (a loopback server in OpenAI's streaming format) and flite's voice:
/// sentences served as WAV, the playhead, the audiobook with a chapter per part, deletion.
@Suite("Journeys API", .serialized)
struct JourneyAPITests {
    static let start = #"{"start":"51.7520,-1.2577","end":"51.7530,-1.2577","mode":"walking","style":"noir","voice":"flite:slt","model":"openai:gpt-4o-mini"}"#

    @Test("plans: a 111 m walk is 2 parts, Oxford to Cambridge by car 117, credited to GeoNames; nothing is kept")
    func plans() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let walk = try await app.send(.POST, "/api/journeys/plan", token: ada, json: #"{"start":"51.7520,-1.2577","end":"51.7530,-1.2577","mode":"walking"}"#)
            #expect(walk.status == .ok, "\(walk.body.string)")
            let plan = try #require(walk.json)
            #expect(plan["parts"]?.intValue == 2)
            #expect(plan["mode"]?.stringValue == "walking")
            #expect(plan["source"]?.stringValue == "estimate")
            #expect(plan["words_per_part"]?.intValue == 145)
            #expect((plan["line"]?.arrayValue?.count ?? 0) >= 2)

            let drive = try await app.send(.POST, "/api/journeys/plan", token: ada, json: #"{"start":"Oxford, UK","end":"Cambridge, UK","mode":"driving"}"#)
            #expect(drive.status == .ok, "\(drive.body.string)")
            #expect(drive.json?["parts"]?.intValue == 117)
            #expect(drive.json?["start"]?["name"]?.stringValue == "Oxford")
            #expect(drive.json?["end"]?["name"]?.stringValue == "Cambridge")
            #expect(drive.json?["attribution"]?.stringValue?.contains("GeoNames") == true)
            // The mode left out is driving.
            #expect(try await app.send(.POST, "/api/journeys/plan", token: ada, json: #"{"start":"Oxford, UK","end":"Cambridge, UK"}"#).json?["parts"]?.intValue == 117)

            let styles = try await app.send(.GET, "/api/journeys/styles", token: ada)
            #expect(styles.json?["styles"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["noir", "childrens", "historical", "fantasy", "custom"])
            #expect(try await app.send(.GET, "/api/journeys", token: ada).json?["journeys"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("refusals: unknown place, same place, too long, a custom style without its description, bad bodies, no sign-in; each with its code")
    func refusals() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            func plan(_ json: String) async throws -> TestingHTTPResponse { try await app.send(.POST, "/api/journeys/plan", token: ada, json: json) }

            let unknown = try await plan(#"{"start":"Oxford, UK","end":"Qwxzzy Vrrbnk","mode":"driving"}"#)
            #expect(unknown.status == .unprocessableEntity && unknown.errorCode == "unknown_place", "\(unknown.body.string)")
            #expect(unknown.errorMessage?.contains("Qwxzzy Vrrbnk") == true)
            #expect(unknown.json?["error"]?["field"]?.stringValue == "end", "the refusal names the field it is about")
            let unknownStart = try await plan(#"{"start":"Qwxzzy Vrrbnk","end":"Oxford, UK","mode":"driving"}"#)
            #expect(unknownStart.json?["error"]?["field"]?.stringValue == "start")
            let same = try await plan(#"{"start":"Oxford, UK","end":"Oxford, UK","mode":"driving"}"#)
            #expect(same.status == .unprocessableEntity && same.errorCode == "same_place", "\(same.body.string)")
            let long = try await plan(#"{"start":"Oxford, UK","end":"Cambridge, UK","mode":"walking"}"#)
            #expect(long.status == .unprocessableEntity && long.errorCode == "too_long", "\(long.body.string)")
            #expect(long.errorMessage?.contains("4 h 00 min") == true)
            #expect(long.json?["error"]?["field"] == nil, "a trip too long is about no one field")

            let custom = try await app.send(.POST, "/api/journeys", token: ada, json: #"{"start":"Oxford, UK","end":"Cambridge, UK","style":"custom"}"#)
            #expect(custom.status == .unprocessableEntity && custom.errorCode == "invalid_style", "\(custom.body.string)")
            let unknownStyle = try await app.send(.POST, "/api/journeys", token: ada, json: #"{"start":"Oxford, UK","end":"Cambridge, UK","style":"western"}"#)
            #expect(unknownStyle.errorCode == "invalid_style")
            let wordy = String(repeating: "x", count: 301)
            let tooWordy = try await app.send(.POST, "/api/journeys", token: ada, json: #"{"start":"Oxford, UK","end":"Cambridge, UK","style":"custom","style_description":"\#(wordy)"}"#)
            #expect(tooWordy.errorCode == "invalid_style")

            let malformed = try await plan(#"{"start": "#)
            #expect(malformed.status == .badRequest && malformed.errorCode == "invalid_body")
            let flying = try await plan(#"{"start":"Oxford, UK","end":"Cambridge, UK","mode":"flying"}"#)
            #expect(flying.status == .badRequest && flying.errorCode == "invalid_body")
            let missing = try await plan(#"{"start":"Oxford, UK"}"#)
            #expect(missing.status == .badRequest && missing.errorMessage == "Field 'end' is required.")
            var form = HTTPHeaders()
            form.contentType = .urlEncodedForm
            #expect(try await app.send(.POST, "/api/journeys/plan", token: ada, headers: form, body: ByteBuffer(string: "start=Oxford")).status == .unsupportedMediaType)
            let huge = #"{"start":"\#(String(repeating: "x", count: 1 << 20))","end":"Cambridge, UK"}"#
            #expect(try await plan(huge).status == .payloadTooLarge)

            #expect(try await app.send(.POST, "/api/journeys/plan", json: #"{"start":"Oxford, UK","end":"Cambridge, UK"}"#).status == .unauthorized)
            #expect(try await app.send(.GET, "/api/journeys").status == .unauthorized)
            #expect(try await app.send(.GET, "/api/journeys/\(UUID())", token: ada).status == .notFound)
            #expect(try await app.send(.GET, "/api/journeys/not-an-id", token: ada).status == .notFound)
            // The fixed paths beside {id} asked with another method: 405, not "no such journey".
            let wrong = try await app.send(.DELETE, "/api/journeys/plan", token: ada)
            #expect(wrong.status == .methodNotAllowed && wrong.headers.first(name: "Allow") == "POST", "\(wrong.body.string)")
            #expect(try await app.send(.GET, "/api/journeys/plan", token: ada).status == .methodNotAllowed)
            #expect(try await app.send(.DELETE, "/api/journeys/styles", token: ada).status == .methodNotAllowed)
        }
    }

    @Test("configured services: a route from OSRM, its NoRoute 422, a slow router 504, a geocoder that is down 503; an unusable setting stops the configuration")
    func configuredServices() async throws {
        let osrm: LoopbackServer.Handler = { request in
            if request.uri.contains("/route/v1/bike/") { return OSRMWire.error(code: "NoRoute", message: "Impossible route between points") }
            var route = OSRMWire.route(distance: 5_000, duration: 600, line: [(51.7520, -1.2577), (51.7600, -1.2400), (51.7700, -1.2300)])
            if request.uri.contains("/route/v1/foot/") { route.delay = .seconds(3) }
            return route
        }
        try await LoopbackServer.withServer(handler: osrm) { router in
            let routing = try JourneyRouting.fromEnvironment([
                "STORYVOICE_OSRM_URL_DRIVING": router.baseURL, "STORYVOICE_OSRM_URL_CYCLING": router.baseURL, "STORYVOICE_OSRM_URL_WALKING": router.baseURL,
                // Nothing listens on port 1: the geocoder is down.
                "STORYVOICE_NOMINATIM_URL": "http://127.0.0.1:1", "STORYVOICE_JOURNEY_TIMEOUT": "1",
            ])
            try await withServer(adjust: { $0.journeyRouting = routing }) { app, _, _ in
                let ada = try await app.register("ada@example.com").access_token
                func plan(_ mode: String, from start: String = "51.7520,-1.2577", to end: String = "51.7700,-1.2300") async throws -> TestingHTTPResponse {
                    try await app.send(.POST, "/api/journeys/plan", token: ada, json: #"{"start":"\#(start)","end":"\#(end)","mode":"\#(mode)"}"#)
                }
                let routed = try await plan("driving")
                #expect(routed.status == .ok, "\(routed.body.string)")
                #expect(routed.json?["source"]?.stringValue == "router" && routed.json?["parts"]?.intValue == 10)
                #expect(routed.json?["line"]?.arrayValue?.count == 3)
                #expect(routed.json?["attribution"] == .null)
                let noRoute = try await plan("cycling")
                #expect(noRoute.status == .unprocessableEntity && noRoute.errorCode == "no_route", "\(noRoute.body.string)")
                let slow = try await plan("walking")
                #expect(slow.status == .gatewayTimeout && slow.errorCode == "service_timeout", "\(slow.body.string)")
                let down = try await plan("driving", from: "Oxford, UK", to: "Cambridge, UK")
                #expect(down.status == .serviceUnavailable && down.errorCode == "service_unavailable", "\(down.body.string)")
                // The operator's setting is in the server log, not in what the user reads.
                #expect(down.errorMessage?.contains("Try again in a few minutes") == true)
                #expect(down.errorMessage?.contains("STORYVOICE_") == false)
            }
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-journey-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let unusable = ["STORYVOICE_DATA_DIR": data.path, "STORYVOICE_OSRM_URL_DRIVING": "ftp://router.example"]
        #expect(throws: JourneyError(.invalidRequest, "STORYVOICE_OSRM_URL_DRIVING is “ftp://router.example”, which is not an http:// or https:// URL.")) {
            try ServerConfig.fromEnvironment(unusable, publicDirectory: publicDirectory)
        }
    }

    /// Issue 46: a 900 KB place name took ~3 s to refuse, and eight at once held up everyone.
    /// It is now refused before anything reads it: the geocoder (a loopback Nominatim that
    /// counts what it is asked) never hears of it, whichever route it is sent to.
    @Test("a place over 200 characters is refused with the limit named, and no geocoder is asked for it")
    func overlongPlacesAreRefusedUnread() async throws {
        try await LoopbackServer.withServer(handler: { _ in LoopbackReply(status: 200, json: .array([])) }) { nominatim in
            let routing = try JourneyRouting.fromEnvironment(["STORYVOICE_NOMINATIM_URL": nominatim.baseURL])
            try await withServer(adjust: { $0.journeyRouting = routing }) { app, _, _ in
                let ada = try await app.register("ada@example.com").access_token
                let huge = String(repeating: "Qx, é", count: 170_000)
                let justOver = String(repeating: "Oxford, ", count: 25) + "X"
                let bodies = [
                    #"{"start":"\#(huge)","end":"Cambridge, UK"}"#, #"{"start":"Cambridge, UK","end":"\#(justOver)"}"#,
                ]
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for path in ["/api/journeys/plan", "/api/journeys/prepare", "/api/journeys"] {
                        for (index, body) in bodies.enumerated() {
                            group.addTask {
                                let reply = try await app.send(.POST, path, token: ada, json: body)
                                #expect(reply.status == .unprocessableEntity && reply.errorCode == "place_too_long", "\(path): \(reply.status)")
                                #expect(reply.errorMessage?.contains("at most 200 characters") == true, "\(path)")
                                #expect(reply.json?["error"]?["field"]?.stringValue == (index == 0 ? "start" : "end"))
                                #expect(reply.body.readableBytes < 1_000, "the refusal does not repeat the name")
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(nominatim.requests.isEmpty, "the geocoder was asked \(nominatim.requests.count) times")
                // A name within the limit is looked up as before.
                let unknown = try await app.send(.POST, "/api/journeys/plan", token: ada, json: #"{"start":"Qwxzzy Vrrbnk","end":"Cambridge, UK"}"#)
                #expect(unknown.errorCode == "unknown_place", "\(unknown.body.string)")
                #expect(nominatim.requests.isEmpty == false)
            }
        }
    }

    @Test("JourneyError codes become their statuses in one place")
    func statuses() {
        let expected: [JourneyError.Kind: HTTPResponseStatus] = [
            .unknownPlace: .unprocessableEntity, .placeTooLong: .unprocessableEntity, .samePlace: .unprocessableEntity, .tooLong: .unprocessableEntity,
            .noRoute: .unprocessableEntity, .noRoad: .unprocessableEntity, .invalidStyle: .unprocessableEntity,
            .invalidRequest: .badRequest, .serviceUnavailable: .serviceUnavailable, .gazetteerMissing: .serviceUnavailable,
            .serviceTimeout: .gatewayTimeout,
        ]
        for (kind, status) in expected { #expect(APIError.status(for: JourneyError(kind, "").problemKind) == status, "\(kind)") }
    }

    /// SQLite with the data directory; PostgreSQL with the bucket (when make test runs both).
    @Test("a journey told by the server's worker: both parts ready, each sentence a WAV of the model's text; playhead; audiobook with 2 chapters; deleted",
          arguments: zip(Backend.available, TestArtifacts.available))
    func told(_ backend: Backend, _ kept: TestArtifacts) async throws {
        let bucket = try await kept.store()
        try await withJourneyServer(backend, artifacts: bucket) { app, config, ada, model in
            let created = try await app.send(.POST, "/api/journeys", token: ada, json: Self.start)
            #expect(created.status == .created, "\(created.body.string)")
            let journey = try #require(created.json)
            let id = try #require(journey["id"]?.stringValue?.lowercased())
            #expect(journey["status"]?.stringValue == "telling")
            #expect(journey["plan"]?["parts"]?.intValue == 2)
            #expect(journey["style"]?.stringValue == "noir" && journey["voice"]?.stringValue == "flite:slt")
            #expect(journey["playhead"] == ["part": 1, "sentence": 0])

            let told = try await app.waitForJourney(id, token: ada, until: JSONValue.finishedTelling)
            #expect(told["status"]?.stringValue == "complete", "\(told["error"]?.stringValue ?? "")")
            #expect(told["title"]?.stringValue == JourneyModel.title)
            let parts = told["parts"]?.arrayValue ?? []
            #expect(parts.map { $0["status"]?.stringValue } == ["ready", "ready"])
            #expect(parts.allSatisfy { $0["fallback"] == false })
            for (index, part) in parts.enumerated() {
                let sentences = part["sentences"]?.arrayValue ?? []
                // Part 1 opens with the journey's spoken title (the style and the places used),
                // marked so; the rest is the model's own sentences, in order, as many as the part took.
                let announced = sentences.first?["announcement"] == true
                #expect(announced == (index == 0))
                if index == 0 { #expect(sentences.first?["text"]?.stringValue == "A noir mystery for your 2-minute walk across Oxford.") }
                #expect(sentences.dropFirst().allSatisfy { $0["announcement"] == nil })
                let text = sentences.dropFirst(announced ? 1 : 0).compactMap { $0["text"]?.stringValue }.joined(separator: " ")
                #expect(sentences.count >= 3)
                #expect((index == 0 ? JourneyModel.partOne : JourneyModel.partTwo).hasPrefix(text), "\(text)")
                for sentence in sentences {
                    let url = try #require(sentence["audio_url"]?.stringValue)
                    #expect(url.hasPrefix("/api/journeys/\(id)/parts/\(index + 1)/sentences/"))
                    let audio = try await app.send(.GET, url, token: ada)
                    #expect(audio.status == .ok)
                    #expect(audio.headers.contentType?.subType == "wav")
                    #expect(audio.headers.first(name: .cacheControl) == "no-cache")
                    #expect(audio.headers.first(name: .eTag) != nil)
                    #expect(Data(audio.body.readableBytesView).prefix(4) == Data("RIFF".utf8))
                    #expect((sentence["duration_s"]?.doubleValue ?? 0) > 0.5)
                }
            }
            // The story came from the user's model, with their key: part 1, the outline (the acts,
            // the beats: one request or two), part 2.
            #expect((3...4).contains(model.requests.count), "\(model.requests.count)")
            #expect(model.requests.allSatisfy { $0.header("authorization") == "Bearer \(JourneyModel.key)" })
            #expect(try await app.send(.GET, "/api/journeys/\(id)/parts/1/sentences/99/audio", token: ada).errorCode == "not_ready")
            #expect(try await app.send(.GET, "/api/journeys/\(id)/parts/3/sentences/0/audio", token: ada).errorCode == "not_ready")

            // The history.
            let list = try #require(try await app.send(.GET, "/api/journeys", token: ada).json?["journeys"]?.arrayValue)
            #expect(list.count == 1)
            #expect(list.first?["id"]?.stringValue?.lowercased() == id)
            #expect(list.first?["parts"]?.intValue == 2 && list.first?["parts_ready"]?.intValue == 2)
            #expect(list.first?["status"]?.stringValue == "complete" && list.first?["mode"]?.stringValue == "walking")

            // The playhead: within the parts, sentence 0 or later.
            for body in [#"{"part":0,"sentence":0}"#, #"{"part":3,"sentence":0}"#, #"{"part":1,"sentence":-1}"#] {
                let refused = try await app.send(.PUT, "/api/journeys/\(id)/playhead", token: ada, json: body)
                #expect(refused.status == .unprocessableEntity && refused.errorCode == "invalid_playhead", "\(body): \(refused.body.string)")
            }
            #expect(try await app.send(.PUT, "/api/journeys/\(id)/playhead", token: ada, json: #"{"part":"two"}"#).status == .badRequest)
            let moved = try await app.send(.PUT, "/api/journeys/\(id)/playhead", token: ada, json: #"{"part":2,"sentence":3}"#)
            #expect(moved.status == .ok, "\(moved.body.string)")
            #expect(moved.json?["playhead"] == ["part": 2, "sentence": 3])

            // Another user sees none of it.
            let bob = try await app.register("bob@example.com").access_token
            #expect(try await app.send(.GET, "/api/journeys", token: bob).json?["journeys"]?.arrayValue?.isEmpty == true)
            for (method, path) in [(HTTPMethod.GET, ""), (.GET, "/parts/1/sentences/0/audio"), (.POST, "/export"), (.GET, "/audio"), (.DELETE, "")] {
                let reply = try await app.send(method, "/api/journeys/\(id)\(path)", token: bob)
                #expect(reply.status == .notFound, "\(method) \(path)")
            }
            #expect(try await app.send(.PUT, "/api/journeys/\(id)/playhead", token: bob, json: #"{"part":1,"sentence":0}"#).status == .notFound)

            // The audiobook of the parts told.
            #expect(try await app.send(.GET, "/api/journeys/\(id)/audio", token: ada).errorCode == "not_exported")
            let export = try await app.send(.POST, "/api/journeys/\(id)/export", token: ada)
            #expect(export.status == .accepted, "\(export.body.string)")
            let job = try #require(export.json?["job"]?["id"]?.stringValue)
            #expect(export.json?["job"]?["kind"]?.stringValue == "journey-export")
            let finished = try await app.waitForFinishedJob(job, token: ada)
            #expect(finished["status"]?.stringValue == "succeeded", "\(finished["error"]?.stringValue ?? "")")
            let book = try await app.send(.GET, "/api/journeys/\(id)/audio", token: ada)
            #expect(book.status == .ok)
            #expect(book.headers.contentType?.type == "audio" && book.headers.contentType?.subType == "mp4")
            #expect(book.headers.first(name: .contentDisposition) == "attachment; filename=\"\(JourneyModel.title).m4b\"")
            let bytes = Data(book.body.readableBytesView)
            #expect(bytes.count > 8 && bytes[4..<8] == Data("ftyp".utf8))
            let chapters = try Self.chapters(bytes)
            #expect(chapters == 2)
            let range = try await app.send(.GET, "/api/journeys/\(id)/audio", token: ada, headers: ["Range": "bytes=0-9"])
            #expect(range.status == .partialContent && range.body.readableBytes == 10)

            if let bucket {
                // Every sentence and the audiobook in the bucket; none of it on the worker's disk.
                let keys = try await bucket.client.keys(prefix: "journeys/")
                let sentenceCount = parts.reduce(0) { $0 + ($1["sentences"]?.arrayValue?.count ?? 0) }
                #expect(keys.filter { $0.hasSuffix(".wav") }.count == sentenceCount && keys.filter { $0.hasSuffix("/journey.m4b") }.count == 1, "\(keys)")
                let local = FileManager.default.enumerator(at: config.dataDirectory.url.appendingPathComponent("journeys"), includingPropertiesForKeys: nil)?
                    .allObjects.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
                #expect(local.isEmpty, "\(local)")
                let first = try #require(parts.first?["sentences"]?.arrayValue?.first?["audio_url"]?.stringValue)
                let tag = try #require(try await app.send(.GET, first, token: ada).headers.first(name: .eTag))
                #expect(try await app.send(.GET, first, token: ada, headers: ["If-None-Match": tag]).status == .notModified)
            }

            // Deleted: gone, with its audio.
            let folder = config.dataDirectory.url.appendingPathComponent("journeys")
            #expect(try await app.send(.DELETE, "/api/journeys/\(id)", token: ada).status == .noContent)
            #expect(try await app.send(.GET, "/api/journeys/\(id)", token: ada).status == .notFound)
            #expect(try await app.send(.GET, "/api/journeys/\(id)/parts/1/sentences/0/audio", token: ada).status == .notFound)
            #expect(try await app.send(.DELETE, "/api/journeys/\(id)", token: ada).status == .notFound)
            let left = (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
                .filter { !$0.hasDirectoryPath && $0.path.contains(id) }
            #expect(left.isEmpty, "\(left)")
            if let bucket { #expect(try await bucket.client.keys(prefix: "journeys/").isEmpty) }
        }
    }

    /// The plan screen has the model on this machine write the opening (`prepare`); the
    /// journey then started with the same choices is told from it, the model asked once for it.
    @Test("prepare: the opening written while the plan is shown is the journey's part 1; a paid model is not asked ahead")
    func preparedOpening() async throws {
        try await withJourneyServer(localModel: true) { app, _, ada, model in
            let place = #""start":"51.7520,-1.2577","end":"51.7530,-1.2577","mode":"walking","voice":"flite:slt""#
            let trip = place + #","style":"childrens""#
            let paid = try await app.send(.POST, "/api/journeys/prepare", token: ada, json: #"{\#(trip),"model":"openai:gpt-4o-mini"}"#)
            #expect(paid.status == .accepted && paid.json?["preparing"] == false, "\(paid.body.string)")
            #expect(try await app.send(.POST, "/api/journeys/prepare", token: ada, json: #"{\#(place),"style":"custom"}"#).errorCode == "invalid_style")

            let prepared = try await app.send(.POST, "/api/journeys/prepare", token: ada, json: "{\(trip)}")
            #expect(prepared.status == .accepted && prepared.json?["preparing"] == true, "\(prepared.body.string)")
            let again = try await app.send(.POST, "/api/journeys/prepare", token: ada, json: "{\(trip)}")
            #expect(again.json?["preparing"] == false, "the same opening is not written twice")
            let openings: @Sendable () -> Int = { model.requests.filter { Self.isOpening($0) }.count }
            #expect(await eventually { openings() == 1 })

            let created = try await app.send(.POST, "/api/journeys", token: ada, json: "{\(trip)}")
            #expect(created.status == .created, "\(created.body.string)")
            let id = try #require(created.json?["id"]?.stringValue)
            let told = try await app.waitForJourney(id, token: ada, until: JSONValue.finishedTelling)
            #expect(told["status"]?.stringValue == "complete", "\(told["error"]?.stringValue ?? "")")
            let first = told["parts"]?[0]?["sentences"]?.arrayValue?.filter { $0["announcement"] == nil }.compactMap { $0["text"]?.stringValue }.joined(separator: " ") ?? ""
            #expect(!first.isEmpty && JourneyModel.partOne.hasPrefix(first), "\(first)")
            #expect(openings() == 1, "part 1 came from the prepared answer")
        }
    }

    /// A request for a journey's part 1 (the prompt `StoryPrompts.opening` writes).
    static func isOpening(_ request: RecordedRequest) -> Bool {
        request.json?["messages"]?.arrayValue?.last?["content"]?.stringValue?.contains("Begin the story now") == true
    }

    @Test("a journey is told while a long job holds the server's general worker: its teller has workers of its own")
    func toldBesideALongJob() async throws {
        let release = AsyncStream.makeStream(of: Void.self)
        try await withJourneyServer(moreJobs: { registry in
            registry.register("hour-long-render") { _, _ in
                for await _ in release.stream { break }
                return nil
            }
        }) { app, _, ada, _ in
            let me = try #require(try await app.send(.GET, "/api/me", token: ada).json)
            let owner = try #require(me["id"]?.stringValue.flatMap(UUID.init(uuidString:)))
            let blocker = try await JobQueue(database: app.appDatabase).enqueue(kind: "hour-long-render", ownerID: owner)
            let created = try #require(try await app.send(.POST, "/api/journeys", token: ada, json: Self.start).json)
            let id = try #require(created["id"]?.stringValue?.lowercased())
            let told = try await app.waitForJourney(id, token: ada, until: JSONValue.finishedTelling)
            #expect(told["status"]?.stringValue == "complete")
            let job = try #require(try await JobQueue(database: app.appDatabase).job(id: blocker.id, ownerID: owner))
            #expect(job.status == .running, "the long job was still running while the journey was told")
            release.continuation.finish()
        }
    }

    /// The chapters ffprobe finds in an audiobook.
    static func chapters(_ data: Data) throws -> Int {
        JSONValue(parsing: try ffprobe(data, fileExtension: "m4b", ["-show_chapters"]))?["chapters"]?.arrayValue?.count ?? -1
    }
}
