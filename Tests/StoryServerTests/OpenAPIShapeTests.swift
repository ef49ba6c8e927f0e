import Foundation
import LanguageModels
import NIOCore
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting
import VendorHTTP

/// Sends requests and checks every reply against `Public/openapi.yaml`: the status must be
/// documented for the operation, and a JSON body must satisfy that status' schema. A JSON body
/// the server accepted must satisfy the documented request schema too.
final class ContractWalk {
    let app: Application
    let contract: OpenAPIContract
    private(set) var problems: [String] = []
    private(set) var exercised: Set<String> = []

    init(_ app: Application, _ contract: OpenAPIContract) {
        self.app = app
        self.contract = contract
    }

    @discardableResult
    func call(
        _ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil,
        headers: HTTPHeaders = [:], body: ByteBuffer? = nil, expect status: HTTPResponseStatus,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestingHTTPResponse {
        let reply = try await app.send(method, path, token: token, json: json, headers: headers, body: body)
        #expect(reply.status == status, "\(method) \(path): \(reply.body.string.prefix(300))", sourceLocation: sourceLocation)
        guard let operation = contract.operation(method: method.rawValue, path: path) else {
            problems.append("\(method) \(path): no operation in openapi.yaml matches")
            return reply
        }
        exercised.insert(operation.name)
        problems += contract.replyProblems(
            operation, status: Int(reply.status.code), contentType: reply.headers.first(name: .contentType),
            body: Data(reply.body.readableBytesView))
        if let json, (200..<300).contains(reply.status.code) {
            problems += contract.requestProblems(operation, json: json)
        }
        return reply
    }

    func record(_ more: [String]) { problems += more }

    /// Takes in what a walk of another server found (its problems, the operations it called).
    func absorb(_ other: ContractWalk) {
        problems += other.problems
        exercised.formUnion(other.exercised)
    }
}

@Suite("OpenAPI shapes")
struct OpenAPIShapeTests {
    /// A multipart form with one file field, for uploads of any bytes.
    static func upload(_ data: Data, filename: String) -> (HTTPHeaders, ByteBuffer) {
        let boundary = "storyvoice-contract-boundary"
        var body = ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(filename)\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n")
        body.writeBytes(data)
        body.writeString("\r\n--\(boundary)--\r\n")
        return (["Content-Type": "multipart/form-data; boundary=\(boundary)"], body)
    }

    static func form(_ fields: String) -> (HTTPHeaders, ByteBuffer) {
        var headers = HTTPHeaders()
        headers.contentType = .urlEncodedForm
        return (headers, ByteBuffer(string: fields))
    }

    struct Created: Decodable { var id: UUID }
    struct Character: Decodable { var id: String; var lines: Int }
    struct Analysis: Decodable { var characters: [Character] }
    struct AnalysisBody: Decodable { var analysis: Analysis? }

    @Test("a walk through the whole API answers exactly the documented shapes")
    func walk() async throws {
        let contract = try OpenAPIContract.load()
        try await withNarrationServer { app, config, _ in
            let walk = ContractWalk(app, contract)

            // Public routes and accounts.
            try await walk.call(.GET, "/health", expect: .ok)
            try await walk.call(.GET, "/openapi.yaml", expect: .ok)
            let account = #"{"email":"ada@example.com","password":"correct horse battery"}"#
            let registered = try await walk.call(.POST, "/auth/register", json: account, expect: .ok)
            let token = try registered.content.decode(Tokens.self).access_token
            try await walk.call(.POST, "/auth/register", json: account, expect: .conflict)
            try await walk.call(.POST, "/auth/register", json: #"{"email":"not an email","password":"correct horse battery"}"#, expect: .unprocessableEntity)
            try await walk.call(.POST, "/auth/register", json: #"{"email": "#, expect: .badRequest)
            try await walk.call(.POST, "/auth/register", headers: Self.form("email=x").0, body: Self.form("email=x").1, expect: .unsupportedMediaType)
            let oversize = #"{"email":"ada@example.com","password":"\#(String(repeating: "x", count: config.maxJSONBodyBytes))"}"#
            try await walk.call(.POST, "/auth/register", json: oversize, expect: .payloadTooLarge)

            let (formHeaders, goodForm) = Self.form("username=ada%40example.com&password=correct%20horse%20battery")
            let login = try await walk.call(.POST, "/auth/login", headers: formHeaders, body: goodForm, expect: .ok)
            let refresh = try login.content.decode(Tokens.self).refresh_token
            try await walk.call(.POST, "/auth/login?cookie=1", headers: formHeaders, body: goodForm, expect: .ok)
            try await walk.call(.POST, "/auth/login", headers: formHeaders, body: ByteBuffer(string: "username=ada%40example.com"), expect: .badRequest)
            try await walk.call(.POST, "/auth/login", json: #"{"username":"ada@example.com"}"#, expect: .unsupportedMediaType)
            for _ in 0..<5 {
                try await walk.call(.POST, "/auth/login", headers: formHeaders, body: ByteBuffer(string: "username=eve%40example.com&password=guess1234"), expect: .unauthorized)
            }
            let limited = try await walk.call(.POST, "/auth/login", headers: formHeaders, body: ByteBuffer(string: "username=eve%40example.com&password=guess1234"), expect: .tooManyRequests)
            #expect(limited.headers.first(name: .retryAfter).flatMap(Int.init) != nil)

            let rotated = try await walk.call(.POST, "/auth/refresh", json: #"{"refresh_token":"\#(refresh)"}"#, expect: .ok)
            try await walk.call(.POST, "/auth/refresh", json: #"{"refresh_token":"\#(refresh)"}"#, expect: .unauthorized)
            try await walk.call(.POST, "/auth/refresh", json: #"{"refresh_token":7}"#, expect: .badRequest)
            try await walk.call(.POST, "/auth/refresh", headers: Self.form("a=b").0, body: Self.form("a=b").1, expect: .unsupportedMediaType)
            try await walk.call(.POST, "/auth/logout", json: #"{"refresh_token":"\#(try rotated.content.decode(Tokens.self).refresh_token)"}"#, expect: .noContent)
            try await walk.call(.POST, "/auth/logout", json: #"{"refresh_token":false}"#, expect: .badRequest)

            try await walk.call(.GET, "/api/me", token: token, expect: .ok)
            try await walk.call(.GET, "/api/me", expect: .unauthorized)

            // Settings.
            try await walk.call(.GET, "/api/settings", token: token, expect: .ok)
            try await walk.call(.PUT, "/api/settings", token: token,
                                json: #"{"narration":{"rate":1.1,"pitch":0.9,"volume":1},"api_keys":{"openai":"sk-test-0123456789abcd","gemini":null}}"#, expect: .ok)
            try await walk.call(.PUT, "/api/settings", token: token, json: #"{"narration":{"rate":9}}"#, expect: .unprocessableEntity)
            try await walk.call(.PUT, "/api/settings", token: token, json: #"{"narration":"loud"}"#, expect: .badRequest)
            try await walk.call(.PUT, "/api/settings", token: token, headers: Self.form("a=b").0, body: Self.form("a=b").1, expect: .unsupportedMediaType)

            // Voices.
            try await walk.call(.GET, "/api/voices", token: token, expect: .ok)
            try await walk.call(.POST, "/api/voices/preview", token: token, json: #"{"voice":"test:alto","rate":1.2,"name":"Vera"}"#, expect: .ok)
            try await walk.call(.POST, "/api/voices/preview", token: token, json: #"{"voice":"nobody:here"}"#, expect: .unprocessableEntity)

            // Voice chat: this server has no model on the machine and no transcriber (VoiceAPITests
            // has both); speech works with the test voices.
            try await walk.call(.POST, "/api/voice/speak", token: token, json: #"{"text":"Hello there."}"#, expect: .ok)
            try await walk.call(.POST, "/api/voice/speak", token: token, json: #"{"text":"?!"}"#, expect: .unprocessableEntity)
            try await walk.call(.POST, "/api/voice/reply", token: token, json: #"{"text":"Hi"}"#, expect: .unprocessableEntity)
            try await walk.call(.POST, "/api/voice/reply", token: token, json: #"{"text":["Hi"]}"#, expect: .badRequest)
            try await walk.call(.POST, "/api/voice/turn", token: token, json: #"{"text":"   "}"#, expect: .unprocessableEntity)
            try await walk.call(.POST, "/api/voice/turn", token: token, json: #"{"text":"Hi","conversation_id":"\#(UUID())"}"#, expect: .notFound)
            try await walk.call(.GET, "/api/voice/conversations", token: token, expect: .ok)
            let nobody = UUID().uuidString
            try await walk.call(.GET, "/api/voice/conversations/\(nobody)", token: token, expect: .notFound)
            try await walk.call(.POST, "/api/voice/conversations/\(nobody)/heard", token: token, json: #"{"text":""}"#, expect: .notFound)
            try await walk.call(.DELETE, "/api/voice/conversations/\(nobody)", token: token, expect: .notFound)
            var wav = HTTPHeaders()
            wav.contentType = HTTPMediaType(type: "audio", subType: "wav")
            try await walk.call(.POST, "/api/voice/transcribe", token: token, headers: wav, body: ByteBuffer(bytes: [1, 2, 3]), expect: .serviceUnavailable)
            try await walk.call(.POST, "/api/voice/listen", token: token, json: #"{"sample_rate":16000}"#, expect: .serviceUnavailable)
            try await walk.call(.POST, "/api/voice/listen", token: token, json: #"{"sample_rate":5}"#, expect: .unprocessableEntity)
            var octets = HTTPHeaders()
            octets.contentType = .binary
            try await walk.call(.POST, "/api/voice/listen/\(nobody)", token: token, headers: octets, body: ByteBuffer(bytes: [0, 0]), expect: .notFound)
            try await walk.call(.DELETE, "/api/voice/listen/\(nobody)", token: token, expect: .noContent)

            // Stories: paste, upload, list, read, rename.
            let pasted = try await walk.call(.POST, "/api/stories", token: token,
                                             json: try String(decoding: JSONEncoder().encode(["text": sampleStory, "author": "Saki"]), as: UTF8.self), expect: .created)
            let story = try pasted.content.decode(Created.self).id
            let (uploadHeaders, uploadBody) = Self.upload(Data("“Hello,” said Vera.".utf8), filename: "vera.txt")
            try await walk.call(.POST, "/api/stories", token: token, headers: uploadHeaders, body: uploadBody, expect: .created)
            let (pdfHeaders, pdf) = Self.upload(Data("%PDF-1.4".utf8), filename: "book.pdf")
            try await walk.call(.POST, "/api/stories", token: token, headers: pdfHeaders, body: pdf, expect: .unsupportedMediaType)
            try await walk.call(.POST, "/api/stories", token: token, json: #"{"text":"   "}"#, expect: .unprocessableEntity)
            try await walk.call(.POST, "/api/stories", token: token, json: #"{"text":["a"]}"#, expect: .badRequest)
            try await walk.call(.POST, "/api/stories", json: #"{"text":"x"}"#, expect: .unauthorized)
            try await walk.call(.GET, "/api/stories", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(story)", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(UUID())", token: token, expect: .notFound)
            try await walk.call(.PATCH, "/api/stories/\(story)", token: token, json: #"{"title":"The Open Window","author":"H. H. Munro"}"#, expect: .ok)
            try await walk.call(.PATCH, "/api/stories/\(story)", token: token, json: #"{"title":" "}"#, expect: .unprocessableEntity)
            try await walk.call(.PATCH, "/api/stories/\(story)", token: token, json: #"{"title":7}"#, expect: .badRequest)
            try await walk.call(.GET, "/api/stories/\(story)/segments", token: token, expect: .conflict)
            try await walk.call(.GET, "/api/stories/\(story)/analysis", token: token, expect: .ok)

            // Analysis as a job, its progress stream, and the model routes that need a key first.
            let queued = try await walk.call(.POST, "/api/stories/\(story)/analyze", token: token, expect: .accepted)
            let job = try queued.content.decode(JobReply.self).id
            let worker = app.startWorker(config)
            #expect(try await app.waitForJob(job, token: token).status == "succeeded")
            try await walk.call(.GET, "/api/jobs/\(job)", token: token, expect: .ok)
            try await walk.call(.GET, "/api/jobs/\(UUID())", token: token, expect: .notFound)
            try await walk.call(.GET, "/api/jobs", token: token, expect: .ok)
            let events = try await walk.call(.GET, "/api/jobs/\(job)/events", token: token, expect: .ok)
            let data = events.body.string.split(separator: "\n").filter { $0.hasPrefix("data: ") }
            #expect(!data.isEmpty)
            for line in data {
                walk.record(contract.validate(try JSONValue.parse(Data(line.dropFirst(6).utf8)),
                                              against: .object(["$ref": .string("#/components/schemas/Job")]), at: "job event"))
            }
            try await walk.call(.POST, "/api/stories/\(story)/analyze", token: token, json: #"{"llm":"nonsense"}"#, expect: .unprocessableEntity)
            try await walk.call(.POST, "/api/stories/\(story)/analyze/estimate", token: token, json: #"{"llm":"openai:gpt-4o-mini","mode":"full"}"#, expect: .ok)
            try await walk.call(.POST, "/api/stories/\(story)/analyze/estimate", token: token, json: "{}", expect: .unprocessableEntity)
            try await walk.call(.POST, "/api/stories/\(story)/cast/suggest", token: token, json: #"{"llm":"gemini:gemini-2.0-flash"}"#, expect: .unprocessableEntity)
            let analysis = try await walk.call(.GET, "/api/stories/\(story)/analysis", token: token, expect: .ok)
            let characters = try #require(try analysis.content.decode(AnalysisBody.self).analysis?.characters)
            let speaker = try #require(characters.first { $0.lines > 0 }).id

            // Characters: add, edit, merge.
            let added = try await walk.call(.POST, "/api/stories/\(story)/characters", token: token,
                                            json: #"{"name":"The Aunt","gender":"female","age_range":"adult","aliases":["Mrs. S"]}"#, expect: .created)
            let aunt = try #require(try added.content.decode(AnalysisBody.self).analysis?.characters.last).id
            try await walk.call(.POST, "/api/stories/\(story)/characters", token: token, json: #"{"gender":"female"}"#, expect: .badRequest)
            try await walk.call(.PATCH, "/api/stories/\(story)/characters/\(speaker)", token: token, json: #"""
                {"name":"Framton Nuttel","aliases":["Mr. Nuttel"],"gender":"male","age_range":"adult","accent":"English","personality":"nervous","description":"A visitor in the country for his nerves"}
                """#, expect: .ok)
            try await walk.call(.PATCH, "/api/stories/\(story)/characters/\(speaker)", token: token, json: #"{"name":""}"#, expect: .unprocessableEntity)
            try await walk.call(.PATCH, "/api/stories/\(story)/characters/c999", token: token, json: #"{"name":"Nobody"}"#, expect: .notFound)
            try await walk.call(.POST, "/api/stories/\(story)/characters/\(aunt)/merge", token: token, json: #"{"into":"\#(aunt)"}"#, expect: .unprocessableEntity)
            let other = try #require(characters.first { $0.id != speaker }).id
            try await walk.call(.POST, "/api/stories/\(story)/characters/\(aunt)/merge", token: token, json: #"{"into":"\#(other)"}"#, expect: .ok)

            // Pronunciation and voices.
            try await walk.call(.PUT, "/api/stories/\(story)/lexicon", token: token, json: #"{"entries":{"Nuttel":"Nuttle"}}"#, expect: .ok)
            try await walk.call(.PUT, "/api/stories/\(story)/lexicon", token: token, json: #"{"entries":{"":"x"}}"#, expect: .unprocessableEntity)
            try await walk.call(.PUT, "/api/stories/\(story)/lexicon", token: token,
                                json: #"{"entries":{"Nuttel":"Nuttle","Framton":{"say":"FRAM-tun","espeak-ng":"fr'amt@n"}}}"#, expect: .ok)
            try await walk.call(.PUT, "/api/stories/\(story)/lexicon", token: token, json: #"{"entries":{"Framton":{"flite":"x"}}}"#, expect: .unprocessableEntity)
            try await walk.call(.PUT, "/api/stories/\(story)/lexicon", token: token, json: #"{"text":"Framton FRAM-tun"}"#, expect: .unprocessableEntity)
            try await walk.call(.PUT, "/api/stories/\(story)/lexicon", token: token, json: #"{"text":"Nuttel = Nuttle\nFramton = FRAM-tun | piper [[fɹˈæmtən]]"}"#, expect: .ok)
            try await walk.call(.PUT, "/api/stories/\(story)/cast/narrator", token: token, json: #"{"voice":"test:alto","rate":1.1,"pitch":-1,"volume":0.9}"#, expect: .ok)
            try await walk.call(.PUT, "/api/stories/\(story)/cast/\(speaker)", token: token, json: #"{"voice":"test:bass"}"#, expect: .ok)
            try await walk.call(.PUT, "/api/stories/\(story)/cast/\(speaker)", token: token, json: #"{"voice":"test:bass","pitch":40}"#, expect: .unprocessableEntity)
            try await walk.call(.PUT, "/api/stories/\(story)/cast/c999", token: token, json: #"{"voice":"test:bass"}"#, expect: .notFound)
            try await walk.call(.GET, "/api/stories/\(story)/analysis", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(story)/analysis?segments=false", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(story)?text=false", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(story)?text=maybe", token: token, expect: .badRequest)
            try await walk.call(.DELETE, "/api/stories/\(story)/cast/narrator", token: token, expect: .ok)

            // Lines.
            try await walk.call(.GET, "/api/stories/\(story)/segments", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(story)/segments?from=3&count=5", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(story)/segments?count=x", token: token, expect: .badRequest)
            try await walk.call(.GET, "/api/stories/\(story)/chapters", token: token, expect: .ok)
            try await walk.call(.PATCH, "/api/stories/\(story)/segments/0", token: token, json: #"{"speaker":"\#(speaker)"}"#, expect: .ok)
            try await walk.call(.PATCH, "/api/stories/\(story)/segments/0", token: token, json: #"{"speaker":null}"#, expect: .ok)
            try await walk.call(.PATCH, "/api/stories/\(story)/segments/0", token: token, json: #"{"speaker":"c999"}"#, expect: .unprocessableEntity)
            try await walk.call(.PATCH, "/api/stories/\(story)/segments/100000", token: token, json: #"{"speaker":null}"#, expect: .notFound)
            try await walk.call(.GET, "/api/stories/\(story)/segments/0/audio", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(story)/segments/0/audio?format=opus", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(story)/segments/0/audio?format=flac", token: token, expect: .badRequest)
            try await walk.call(.GET, "/api/stories/\(story)/segments/100000/audio", token: token, expect: .notFound)

            try await walk.call(.GET, "/api/stories/\(story)/render/estimate", token: token, expect: .ok)

            // Export, then the download and the reply that names it.
            try await walk.call(.GET, "/api/stories/\(story)/audio", token: token, expect: .notFound)
            try await walk.call(.POST, "/api/stories/\(story)/render", token: token, json: #"{"format":"wav"}"#, expect: .unprocessableEntity)
            let render = try await walk.call(.POST, "/api/stories/\(story)/render", token: token, json: #"{"format":"mp3"}"#, expect: .accepted)
            let renderJob = try render.content.decode(JobReply.self).id
            #expect(try await app.waitForJob(renderJob, token: token).status == "succeeded")
            try await walk.call(.POST, "/api/jobs/\(renderJob)/cancel", token: token, expect: .conflict)
            try await walk.call(.POST, "/api/jobs/\(UUID())/cancel", token: token, expect: .notFound)
            worker.cancel()
            await worker.value
            try await walk.call(.GET, "/api/stories/\(story)/analysis", token: token, expect: .ok)
            try await walk.call(.GET, "/api/stories/\(story)/audio", token: token, expect: .ok)

            // The bundle, imported back; then deletion.
            let bundle = try await walk.call(.GET, "/api/stories/\(story)/bundle", token: token, expect: .ok)
            let (bundleHeaders, bundleBody) = Self.upload(Data(bundle.body.readableBytesView), filename: "the-open-window.storyvoice.zip")
            try await walk.call(.POST, "/api/stories", token: token, headers: bundleHeaders, body: bundleBody, expect: .created)
            try await walk.call(.DELETE, "/api/stories/\(story)", token: token, expect: .noContent)
            try await walk.call(.DELETE, "/api/stories/\(story)", token: token, expect: .notFound)

            try await walk.walkChatStories(token: token, config: config)
            try await walk.walkJourneys()
            try await walk.walkCalls()

            for problem in walk.problems { Issue.record(Comment(rawValue: problem)) }
            #expect(contract.operationNames.subtracting(walk.exercised).sorted() == [], "operations the walk never called")
        }
    }

    @Test("without speech engines the voice routes answer the documented 503")
    func withoutNarration() async throws {
        let contract = try OpenAPIContract.load()
        try await withServer { app, _, _ in
            let walk = ContractWalk(app, contract)
            let token = try await app.register("ada@example.com").access_token
            try await walk.call(.GET, "/api/voices", token: token, expect: .serviceUnavailable)
            try await walk.call(.POST, "/api/voices/preview", token: token, json: #"{"voice":"test:alto"}"#, expect: .serviceUnavailable)
            for problem in walk.problems { Issue.record(Comment(rawValue: problem)) }
        }
    }

    /// The validator itself: a reply that drifts from the document in any of these ways fails.
    @Test("a missing required field, a changed type, a bad enum or an undocumented field is caught")
    func validatorCatchesDrift() throws {
        let contract = try OpenAPIContract.load()
        let job: [String: JSONValue] = [
            "id": .string(UUID().uuidString), "kind": .string("analyze"), "status": .string("queued"), "progress": .number(0),
            "attempts": .number(0), "max_attempts": .number(5),
            "created_at": .string("2025-01-02T03:04:05Z"), "updated_at": .string("2025-01-02T03:04:05Z"),
        ]
        let schema = JSONValue.object(["$ref": .string("#/components/schemas/Job")])
        #expect(contract.validate(.object(job), against: schema, at: "job") == [])

        var missing = job
        missing["status"] = nil
        #expect(contract.validate(.object(missing), against: schema, at: "job") == ["job.status: required, but missing"])
        var retyped = job
        retyped["attempts"] = .string("0")
        #expect(contract.validate(.object(retyped), against: schema, at: "job").first?.hasPrefix("job.attempts: expected integer") == true)
        var fractional = job
        fractional["attempts"] = .number(1.5)
        #expect(!contract.validate(.object(fractional), against: schema, at: "job").isEmpty)
        var unknownStatus = job
        unknownStatus["status"] = .string("paused")
        #expect(!contract.validate(.object(unknownStatus), against: schema, at: "job").isEmpty)
        var extra = job
        extra["lease_owner"] = .string("worker-1")
        #expect(contract.validate(.object(extra), against: schema, at: "job").first?.hasPrefix("job.lease_owner: not documented") == true)
        var nullable = job
        nullable["error"] = .null
        #expect(contract.validate(.object(nullable), against: schema, at: "job") == [])
        nullable["kind"] = .null
        #expect(!contract.validate(.object(nullable), against: schema, at: "job").isEmpty)
        var badDate = job
        badDate["created_at"] = .string("yesterday")
        #expect(!contract.validate(.object(badDate), against: schema, at: "job").isEmpty)

        // allOf: a story is a summary plus its text, and nothing else.
        let story = JSONValue.object(["$ref": .string("#/components/schemas/Story")])
        let summary: [String: JSONValue] = [
            "id": .string(UUID().uuidString), "title": .string("T"), "imported_at": .string("2025-01-02T03:04:05Z"),
            "analysis_state": .string("analyzed"), "character_count": .number(3), "text": .string("abc"),
        ]
        #expect(contract.validate(.object(summary), against: story, at: "story") == [])
        var noTitle = summary
        noTitle["title"] = nil
        #expect(contract.validate(.object(noTitle), against: story, at: "story") == ["story.title: required, but missing"])
        var withBody = summary
        withBody["body"] = .string("abc")
        #expect(!contract.validate(.object(withBody), against: story, at: "story").isEmpty)

        // Replies: an undocumented status or content type is drift too.
        let show = try #require(contract.operation(method: "GET", path: "/api/stories/\(UUID())"))
        #expect(show.template == "/api/stories/{id}")
        #expect(contract.replyProblems(show, status: 418, contentType: "application/json", body: Data("{}".utf8)).count == 1)
        #expect(contract.replyProblems(show, status: 200, contentType: "text/html", body: Data("<p>".utf8)).count == 1)
        #expect(contract.operation(method: "POST", path: "/api/stories/\(UUID())/cast/suggest")?.template == "/api/stories/{id}/cast/suggest")
        #expect(contract.operation(method: "PUT", path: "/api/stories/\(UUID())/cast/narrator")?.template == "/api/stories/{id}/cast/{role}")
    }
}
