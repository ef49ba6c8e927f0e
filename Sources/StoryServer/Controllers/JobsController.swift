import Foundation
import Jobs
import StoryWorkflows
import Vapor

/// `/api/jobs`: the signed-in user's jobs and their progress as server-sent events.
/// Another user's job id answers 404, exactly like an id that does not exist.
struct JobsController: Sendable {
    let pollInterval: Duration
    let maxStreamDuration: Duration

    func register(routes: any RoutesBuilder) {
        let jobs = routes.grouped("jobs")
        jobs.get(use: list)
        jobs.get(":id", use: show)
        // An action on the job, not its deletion: the job stays, cancelled, in the list.
        jobs.post(":id", "cancel", use: cancel)
        jobs.get(":id", "events", use: events)
    }

    struct JobList: Content {
        var jobs: [JobSnapshot]
    }

    @Sendable
    func list(_ request: Request) async throws -> Response {
        let user = try request.requireUser()
        let records = try await JobQueue(database: request.appDatabase).jobs(ownerID: user.id)
        return try Response.json(JobList(jobs: records.map(JobSnapshot.init)))
    }

    @Sendable
    func show(_ request: Request) async throws -> Response {
        let user = try request.requireUser()
        let id = try request.uuidParameter("id", what: "job")
        guard let record = try await JobQueue(database: request.appDatabase).job(id: id, ownerID: user.id) else {
            throw APIError.notFound("job")
        }
        return try Response.json(JobSnapshot(record))
    }

    /// Cancels a queued or running job: 200 with the job, now `cancelled`; 409 when it had
    /// already finished.
    @Sendable
    func cancel(_ request: Request) async throws -> Response {
        let user = try request.requireUser()
        let id = try request.uuidParameter("id", what: "job")
        guard let record = try await StoryJobs.cancel(jobID: id, ownerID: user.id, database: request.appDatabase) else {
            throw APIError.notFound("job")
        }
        guard record.status == .cancelled else {
            throw APIError(status: .conflict, code: "job_finished", message: "This job has already finished (\(record.status.rawValue)); there is nothing to cancel.")
        }
        return try Response.json(JobSnapshot(record))
    }

    /// `text/event-stream`: one `progress` event per change, then one `finished` event when the
    /// job succeeds or fails, then the stream ends. A stream also ends after
    /// `maxStreamDuration`; browsers' EventSource reconnects on its own, and the first event
    /// after reconnecting is the current state.
    @Sendable
    func events(_ request: Request) async throws -> Response {
        let user = try request.requireUser()
        let id = try request.uuidParameter("id", what: "job")
        let queue = JobQueue(database: request.appDatabase)
        guard try await queue.job(id: id, ownerID: user.id) != nil else {
            throw APIError.notFound("job")
        }
        let snapshots = queue.snapshots(id: id, ownerID: user.id, pollInterval: pollInterval, maxDuration: maxStreamDuration)
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "text", subType: "event-stream")
        headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
        headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
        let encoder = Self.encoder
        let body = Response.Body(managedAsyncStream: { writer in
            try await writer.write(.buffer(ByteBuffer(string: "retry: 2000\n\n")))
            for try await snapshot in snapshots {
                let data = try encoder.encode(snapshot)
                let name = snapshot.status.isFinished ? "finished" : "progress"
                let event = "event: \(name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
                try await writer.write(.buffer(ByteBuffer(string: event)))
            }
        })
        return Response(status: .ok, headers: headers, body: body)
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
