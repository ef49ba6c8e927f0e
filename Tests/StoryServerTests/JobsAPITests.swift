import DatabaseTestSupport
import Foundation
import Jobs
import Persistence
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

@Suite("Jobs API")
struct JobsAPITests {
    private func userID(_ app: Application, _ token: String) async throws -> UUID {
        let me = try await app.send(.GET, "/api/me", token: token)
        return try #require(UUID(uuidString: try me.content.decode([String: String].self)["id"] ?? ""))
    }

    @Test("a job is visible to its owner only", arguments: Backend.available)
    func ownerOnly(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let bob = try await app.register("bob@example.com").access_token
            let job = try await JobQueue(database: app.appDatabase).enqueue(kind: "render", ownerID: try await userID(app, ada))
            let id = job.id

            let mine = try await app.send(.GET, "/api/jobs/\(id)", token: ada)
            #expect(mine.status == .ok)
            let snapshot = try mine.content.decode([String: AnyDecodable].self)
            #expect(snapshot["status"]?.string == "queued")
            #expect(snapshot["kind"]?.string == "render")

            let theirs = try await app.send(.GET, "/api/jobs/\(id)", token: bob)
            #expect(theirs.status == .notFound)
            #expect(theirs.errorCode == "not_found")
            #expect(try await app.send(.GET, "/api/jobs/\(id)/events", token: bob).status == .notFound)
            #expect(try await app.send(.GET, "/api/jobs/\(UUID())", token: ada).status == .notFound)
            #expect(try await app.send(.GET, "/api/jobs/not-a-uuid", token: ada).status == .notFound)
            #expect(try await app.send(.GET, "/api/jobs/\(id)").status == .unauthorized)

            #expect(try await app.send(.GET, "/api/jobs", token: ada).body.string.contains(id.uuidString))
            #expect(try await app.send(.GET, "/api/jobs", token: bob).body.string == #"{"jobs":[]}"#)
        }
    }

    @Test("a running job's stream carries its progress", arguments: Backend.available)
    func progressEvents(_ backend: Backend) async throws {
        try await withServer(backend, adjust: { $0.jobEventStreamDuration = .milliseconds(300) }) { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let queue = JobQueue(database: app.appDatabase)
            let id = try await queue.enqueue(kind: "render", ownerID: try await userID(app, ada)).id
            let claimed = try #require(try await queue.claim(workerID: "w", leaseDuration: 60))
            try await queue.reportProgress(claimed.lease, fraction: 0.5, message: "Rendering segment 5 of 10")

            // The job stays running, so the stream ends only at its time limit.
            let events = try await app.send(.GET, "/api/jobs/\(id)/events", token: ada)
            #expect(events.status == .ok)
            #expect(events.headers.contentType?.description.hasPrefix("text/event-stream") == true)
            let body = events.body.string
            #expect(body.hasPrefix("retry: 2000\n\nevent: progress\ndata: {"))
            #expect(body.contains(#""progress":0.5"#))
            #expect(body.contains("Rendering segment 5 of 10"))
            #expect(!body.contains("event: finished"))
        }
    }

    @Test("the stream follows a job to its end", arguments: Backend.available)
    func finishedEvent(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let queue = JobQueue(database: app.appDatabase)
            let id = try await queue.enqueue(kind: "render", ownerID: try await userID(app, ada)).id
            let claimed = try #require(try await queue.claim(workerID: "w", leaseDuration: 60))

            // A worker finishes while the client listens (or before it connects: either way
            // the stream ends with the final state).
            let work = Task {
                try await queue.reportProgress(claimed.lease, fraction: 0.5, message: "Rendering segment 5 of 10")
                try await Task.sleep(for: .milliseconds(100))
                try await queue.complete(claimed.lease, result: #"{"ok":true}"#)
            }
            let events = try await app.send(.GET, "/api/jobs/\(id)/events", token: ada)
            try await work.value

            let body = events.body.string
            let finished = try #require(body.range(of: "event: finished\ndata: {"))
            #expect(body[finished.upperBound...].contains(#""status":"succeeded""#))
            #expect(body.components(separatedBy: "event: finished").count == 2)
            #expect(body.hasSuffix("}\n\n"))
            if let progress = body.range(of: "event: progress") {
                #expect(progress.lowerBound < finished.lowerBound)
            }
        }
    }
}

/// Just enough of a JSON value to read strings out of an object.
struct AnyDecodable: Decodable {
    var string: String?
    init(from decoder: any Decoder) throws {
        string = try? decoder.singleValueContainer().decode(String.self)
    }
}
