import Audio
import DatabaseTestSupport
import Foundation
import ObjectStorage
import Testing
import TestSupport

/// Two servers, each with its own data directory, on one PostgreSQL database and one S3 bucket
/// (SeaweedFS; issue 52): a line one server rendered is served by the other from the bucket.
@Suite(.enabled(if: Backend.postgresURL != nil && TopologyStore.base != nil,
                "needs STORYVOICE_TEST_POSTGRES_URL and STORYVOICE_TEST_S3_URL (make test starts both)"))
struct SharedStoreTopologyTests {
    @Test("a line rendered by one server is played through the other from the shared bucket")
    func aLineRenderedOnOneServerPlaysOnTheOther() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = try await TestDatabase.make(.postgres)
        var location = try #require(TopologyStore.base)
        location.prefix = "topology/\(UUID().uuidString.lowercased())/"
        let environment = try Self.environment(database, location, engines: "espeak-ng")
        let first = ServerProcess(dataDirectory: scratch.appendingPathComponent("a"), environment: environment)
        // Jobs only on the first: an analysis renders the story's first lines where it runs, and
        // the second must hold none of its own.
        let second = ServerProcess(dataDirectory: scratch.appendingPathComponent("b"), environment: environment, workers: 0)
        try await first.start()
        defer { first.kill() }
        try await second.start()
        defer { second.kill() }
        let (token, story) = try await first.readerWithAnalysedWelcomeStory("traveller@example.com")

        let line = "/api/stories/\(story)/segments/0/audio"
        let (rendered, status) = try await first.request("GET", line, token: token)
        #expect(status == 200 && rendered.count > 44)
        // Mark the bucket's copy of that line: the second server has none of its own, so what it
        // plays is the bucket's, not a rendering of its own (which would equal the first's).
        let client = S3Client(location: location)
        var key: String?
        try await first.waitUntil("the line is in the bucket") {
            for candidate in try await client.keys(prefix: "segments/") where try await client.get(candidate) == rendered {
                key = candidate
                return true
            }
            return false
        }
        let marked = Self.wav(samples: (0..<4_410).map { Int16(truncatingIfNeeded: $0 * 7) })
        try await client.put(marked, key: try #require(key), contentType: "audio/wav")
        let (played, playedStatus) = try await second.request("GET", line, token: token)
        #expect(playedStatus == 200)
        #expect(played == marked, "the second server rendered the line again instead of taking the bucket's (\(played.count) bytes)")
        await database.destroy()
    }

    /// Every product's jobs (issue 50, item 3; issue 52, item 4): a chat video, a long story's
    /// analysis, a journey told ahead, a scheduled call and a book export, each done by a worker.
    @Test("two servers without workers and two workers, each on its own disk: what a worker makes is downloaded from either server, and a worker killed mid-export hands it to the other")
    func workersOnOtherMachines() async throws {
        let wire = TwilioWire()
        try await LoopbackServer.withServer(handler: JourneyModel.handler) { model in
            try await LoopbackServer.withServer(handler: wire.handler) { twilio in
                try await workers(model: model, twilio: twilio, wire: wire)
            }
        }
    }

    func workers(model: LoopbackServer, twilio: LoopbackServer, wire: TwilioWire) async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = try await TestDatabase.make(.postgres)
        var location = try #require(TopologyStore.base)
        location.prefix = "topology/\(UUID().uuidString.lowercased())/"
        // festival (~20x real time): slow enough for the export to be caught mid-way.
        var environment = try Self.environment(database, location, engines: "festival")
        // The journeys' model and Twilio, on loopback servers speaking their wire formats.
        environment.merge([
            "OPENAI_BASE_URL": model.baseURL + "/v1", "TWILIO_ACCOUNT_SID": wire.accountSID, "TWILIO_AUTH_TOKEN": wire.authToken,
            "TWILIO_PHONE_NUMBER": "+15005550006", "STORYVOICE_PUBLIC_URL": "https://calls.example.com", "TWILIO_API_BASE_URL": twilio.baseURL,
        ]) { _, new in new }
        let first = ServerProcess(dataDirectory: scratch.appendingPathComponent("a"), environment: environment, workers: 0)
        let second = ServerProcess(dataDirectory: scratch.appendingPathComponent("b"), environment: environment, workers: 0)
        try await first.start()
        defer { first.kill() }
        try await second.start()
        defer { second.kill() }
        let disks = [scratch.appendingPathComponent("c"), scratch.appendingPathComponent("d")]
        var workers = try disks.map { try first.startWorker(dataDirectory: $0) }
        defer { workers.forEach(ServerProcess.stop) }
        let (token, story) = try await first.readerWithAnalysedWelcomeStory("traveller@example.com")
        let bucket = S3Client(location: location)

        // A chat video: asked of the first server, made by a worker, watched through the second.
        let chat = try await first.post("/api/chat/conversations", json: Self.chatJSON, token: token, as: Created.self).id
        let export = try await first.post("/api/chat/conversations/\(chat)/exports", json: #"{"format":"instagram","typing_speed":"fast","keyboard":false}"#,
                                          token: token, as: ChatExport.self)
        var video = export
        try await first.waitUntil("a worker makes the chat video") {
            video = try await second.get("/api/chat/exports/\(export.id)", token: token, as: ChatExport.self)
            return ["succeeded", "failed"].contains(video.status)
        }
        #expect(video.status == "succeeded", "\(video.error ?? "")")
        let (watched, watchedStatus) = try await second.request("GET", try #require(video.video_url), token: token)
        let videoKeys = try await bucket.keys(prefix: "chat-exports/")
        #expect(watchedStatus == 200 && videoKeys.count == 1)
        #expect(try await bucket.get(try #require(videoKeys.first)) == watched)
        for disk in [first.dataDirectory, second.dataDirectory] + disks {
            #expect(Self.files(in: disk.appendingPathComponent("chat-exports")).isEmpty, "a video stayed on \(disk.lastPathComponent)")
        }

        // A novel-sized text (kept as a file, not in the database) pasted through the first server
        // is analysed by a worker and read back through the second: both fetch it from the bucket.
        let sample = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("examples/the-open-window.txt"), encoding: .utf8)
        let long = (1...60).map { "Chapter \($0)\n\n" + sample }.joined(separator: "\n\n")
        #expect(long.utf8.count > 256 << 10, "the text would be kept in the database")
        let pasted = try JSONSerialization.data(withJSONObject: ["title": "A long stay", "text": long])
        let novel = try await first.post("/api/stories", json: String(decoding: pasted, as: UTF8.self), token: token, as: Created.self).id
        let analysis = try await second.post("/api/stories/\(novel)/analyze", json: "{}", token: token, as: ServerRestartTests.Job.self)
        var analysed = analysis
        try await first.waitUntil("a worker analyses the long story") {
            analysed = try await second.get("/api/jobs/\(analysis.id)", token: token, as: ServerRestartTests.Job.self)
            return ["succeeded", "failed"].contains(analysed.status)
        }
        #expect(analysed.status == "succeeded", "\(analysed.error ?? "")")
        struct Text: Decodable { var text: String }
        #expect(try await second.get("/api/stories/\(novel)", token: token, as: Text.self).text == long)
        let textKeys = try await bucket.keys(prefix: "files/")
        #expect(textKeys.count == 1, "\(textKeys)")

        // A journey told ahead by a worker with the user's model, its sentences heard through the
        // other server from the bucket.
        let (_, keysStatus) = try await first.request("PUT", "/api/settings", token: token, body: Data(#"{"api_keys":{"openai":"\#(JourneyModel.key)"}}"#.utf8))
        #expect(keysStatus == 200)
        let journey = try await first.post("/api/journeys", json: Self.journeyJSON, token: token, as: Created.self).id
        var told = try await second.get("/api/journeys/\(journey)", token: token, as: Journey.self)
        try await first.waitUntil("a worker tells the journey") {
            told = try await second.get("/api/journeys/\(journey)", token: token, as: Journey.self)
            return ["complete", "failed"].contains(told.status)
        }
        #expect(told.status == "complete", "\(told.error ?? "")")
        let sentences = told.parts.flatMap { $0.sentences ?? [] }.compactMap(\.audio_url)
        #expect(sentences.count >= 4)
        for url in sentences.prefix(2) {
            let (audio, status) = try await second.request("GET", url, token: token)
            #expect(status == 200 && audio.prefix(4) == Data("RIFF".utf8), "\(url): \(status)")
        }
        #expect(try await bucket.keys(prefix: "journeys/").filter { $0.hasSuffix(".wav") }.count == sentences.count)
        for disk in [first.dataDirectory, second.dataDirectory] + disks {
            #expect(Self.files(in: disk.appendingPathComponent("journeys")).isEmpty, "journey audio stayed on \(disk.lastPathComponent)")
        }

        // A call scheduled through one server is placed by a worker (Twilio's create-call request).
        let now = ISO8601DateFormatter().string(from: Date())
        _ = try await first.post("/mobile/schedule-call", json: #"{"phone_number":"+14155550100","scenario":"storyteller","scheduled_time":"\#(now)"}"#,
                                 token: token, as: Scheduled.self)
        try await first.waitUntil("a worker places the scheduled call") { !wire.calls.isEmpty }
        #expect(wire.calls.count == 1 && wire.calls.first?.to == "+14155550100")

        // The book: the worker rendering it is killed a quarter of the way; the other finishes it.
        let job = try await first.post("/api/stories/\(story)/render", json: #"{"format":"m4b"}"#, token: token, as: ServerRestartTests.Job.self)
        try await first.waitUntil("the export is a quarter done") {
            try await first.get("/api/jobs/\(job.id)", token: token, as: ServerRestartTests.Job.self).progress >= 0.25
        }
        let renders = "renders/\(story.uuidString.lowercased())"
        let rendering = try #require(disks.firstIndex { FileManager.default.fileExists(atPath: $0.appendingPathComponent(renders).path) },
                                     "neither worker is rendering the book")
        ServerProcess.stop(workers[rendering])
        #expect(try await bucket.keys(prefix: renders + "/").isEmpty, "the killed worker left part of the book in the bucket")
        var finished = job
        try await first.waitUntil("the other worker finishes the export") {
            finished = try await second.get("/api/jobs/\(job.id)", token: token, as: ServerRestartTests.Job.self)
            return ["succeeded", "failed"].contains(finished.status)
        }
        #expect(finished.status == "succeeded", "\(finished.error ?? "")")
        let result = try JSONDecoder().decode(ServerRestartTests.RenderResult.self, from: Data(try #require(finished.result).utf8))
        #expect(result.cache_hits > 0, "the lines the killed worker rendered were not taken from the bucket")
        #expect(Set(try await bucket.keys(prefix: renders + "/")) == [renders + "/book.m4b", renders + "/book.timing.json"])
        let book = scratch.appendingPathComponent("book.m4b")
        try await second.download("/api/stories/\(story)/audio", token: token, to: book)
        #expect(try await AudioProber.probe(book).durationSeconds > 60)
        let other = disks[1 - rendering]
        #expect(Self.files(in: other.appendingPathComponent(renders)).isEmpty, "the finishing worker kept a copy of the book")
        await database.destroy()
    }

    struct Created: Decodable { var id: UUID }
    struct Scheduled: Decodable { var status: String }
    struct Journey: Decodable {
        struct Part: Decodable {
            struct Sentence: Decodable { var audio_url: String? }
            var sentences: [Sentence]?
        }
        var status: String
        var error: String?
        var parts: [Part]
    }

    /// A walk of about 110 m (two short parts), told in festival's voice by the loopback model.
    static let journeyJSON = #"{"start":"51.7520,-1.2577","end":"51.7530,-1.2577","mode":"walking","style":"noir","voice":"festival:cmu_us_slt_arctic_hts","model":"openai:gpt-4o-mini"}"#
    struct ChatExport: Decodable { var id: UUID; var status: String; var error: String?; var video_url: String? }

    static let chatJSON = #"""
        {"title":"Wrong number","characters":[{"id":"me","name":"Me","color":"#007AFF","is_me":true},{"id":"sam","name":"Sam","color":"#34C759"}],
         "messages":[{"character_id":"sam","text":"hey, is this the lighthouse?"},{"character_id":"me","text":"No, it's me"}]}
        """#

    /// What every server and worker of one installation shares: the database, the key, the bucket.
    static func environment(_ database: TestDatabase, _ location: S3Location, engines: String) throws -> [String: String] {
        struct NotPostgreSQL: Error {}
        guard case .postgres(let databaseURL) = database.location else { throw NotPostgreSQL() }
        let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        return [
            "STORYVOICE_ENGINES": engines, "DATABASE_URL": databaseURL, "STORYVOICE_SECRET_KEY": secret,
            "STORYVOICE_S3_URL": "\(location.endpoint.replacingOccurrences(of: "://", with: "://\(location.accessKey):\(location.secretKey)@"))/\(location.bucket)/\(location.prefix)",
        ]
    }

    /// The regular files under `folder` (none when it does not exist).
    static func files(in folder: URL) -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }

    /// A 16-bit mono WAV at 22,050 Hz.
    static func wav(samples: [Int16]) -> Data {
        var data = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(UInt32(36 + samples.count * 2)); data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(UInt32(22_050)); append(UInt32(44_100)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples.count * 2))
        for sample in samples { append(sample) }
        return data
    }
}

enum TopologyStore {
    static let base = ProcessInfo.processInfo.environment["STORYVOICE_TEST_S3_URL"].flatMap(S3Location.init(url:))
}
