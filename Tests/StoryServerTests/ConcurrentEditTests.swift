import DatabaseTestSupport
import StoryText
import Foundation
import StoryModel
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

/// Parallel edits of one story, as two tabs or a double-clicking user make them: each request
/// reads, changes and writes the analysis, and every one of them must be kept (before, two to
/// four of six parallel voice choices were lost while each answered 200).
@Suite("Concurrent edits")
struct ConcurrentEditTests {
    @Test("parallel voice choices and renames are all kept, on SQLite and PostgreSQL", arguments: Backend.available)
    func parallelEditsAreAllKept(_ backend: Backend) async throws {
        try await withNarrationServer(backend) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let characters = try #require(try await app.analysis(story, ada).analysis?.characters).map(\.id)
            #expect(characters.count >= 4)
            let tester = try app.testing()

            @Sendable func send(_ method: HTTPMethod, _ path: String, _ json: String) async throws -> HTTPStatus {
                var headers = HTTPHeaders()
                headers.bearerAuthorization = BearerAuthorization(token: ada)
                headers.contentType = .json
                return try await tester.sendRequest(method, path, headers: headers, body: ByteBuffer(string: json)).status
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for (index, id) in characters.enumerated() {
                    let voice = index % 2 == 0 ? "test:bass" : "test:alto"
                    group.addTask { try await send(.PUT, "/api/stories/\(story)/cast/\(id)", #"{"voice":"\#(voice)","rate":1.\#(index % 9 + 1)}"#) }
                    group.addTask { try await send(.PATCH, "/api/stories/\(story)/characters/\(id)", #"{"name":"Renamed \#(index)"}"#) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")

            let reply = try await app.analysis(story, ada)
            for (index, id) in characters.enumerated() {
                #expect(reply.overrides.characters[id]?.rate == Double("1.\(index % 9 + 1)"), "voice of \(id) lost")
                #expect(reply.analysis?.character(id: id)?.name == "Renamed \(index)", "rename of \(id) lost")
            }
        }
    }

    @Test("a client that sends If-Match edits only the version it saw; a stale one answers 412 and changes nothing")
    func ifMatchRefusesStaleEdits() async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let seen = try #require(try await app.send(.GET, "/api/stories/\(story)", token: ada).headers.first(name: .eTag))
            try await IfMatchContract.check(seen: seen) { name, ifMatch in
                try await app.send(.PATCH, "/api/stories/\(story)/characters/c1", token: ada, json: #"{"name":"\#(name)"}"#,
                                   headers: IfMatchContract.headers(ifMatch: ifMatch))
            } current: {
                try await app.analysis(story, ada).analysis?.character(id: "c1")?.name
            }
        }
    }
}

@Suite("Failures that will not heal")
struct PermanentFailureTests {
    struct Job: Decodable { var status: String; var attempts: Int; var error: String? }

    @Test("an export that cannot succeed fails on its first attempt, with the narrator's reason")
    func nothingToSayIsNotRetried() async throws {
        try await withNarrationServer { app, config, narration in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            narration.failRenders(with: .nothingToSay)
            let worker = app.startWorker(config)
            defer { worker.cancel() }
            let job = try await app.send(.POST, "/api/stories/\(story)/render", token: ada, json: #"{"format":"m4b"}"#).content.decode(JobReply.self)
            let finished = try await app.waitForJob(job.id, token: ada)
            let detail = try await app.send(.GET, "/api/jobs/\(job.id)", token: ada).content.decode(Job.self)
            #expect(finished.status == "failed")
            #expect(detail.attempts == 1)
            #expect(detail.error?.contains("no text to read aloud") == true, "\(detail.error ?? "")")
        }
    }
}

@Suite("Chapters on the server")
struct ServerChapterTests {
    struct Created: Decodable { var id: UUID }

    @Test("an uploaded text's chapters are the CLI's, in the analysis the player and exports use")
    func uploadedChaptersAreKept() async throws {
        try await withNarrationServer { app, config, _ in
            let token = try await app.register("ada@example.com").access_token
            let text = (1...4).map { "CHAPTER \($0)\n\n“Line \($0),” said Ada. The room was quiet.\n\nAnd so it went on, page after page." }
                .joined(separator: "\n\n\n")
            let expected = try StoryImporter.load(data: Data(text.utf8), filename: "book.txt").chapters
            #expect(expected.count == 4)
            var (headers, body) = StoriesAPITests.multipart(filename: "book.txt", contents: text)
            headers.bearerAuthorization = BearerAuthorization(token: token)
            let story = try await app.testing().sendRequest(.POST, "/api/stories", headers: headers, body: body).content.decode(Created.self).id

            let worker = app.startWorker(config)
            defer { worker.cancel() }
            let queued = try await app.send(.POST, "/api/stories/\(story)/analyze", token: token).content.decode(JobReply.self)
            #expect(try await app.waitForJob(queued.id, token: token).status == "succeeded")
            #expect(try await app.analysis(story, token).analysis?.chapters == expected)
        }
    }
}
