import FluentKit
import FluentSQL
import Foundation

/// Journeys and their parts, always scoped to their owner.
public struct JourneyRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    public func create(_ row: JourneyRow) async throws {
        try await JourneyRecord(row).create(on: database)
    }

    public func find(_ id: UUID, ownerID: UUID) async throws -> JourneyRow? {
        try await record(id, ownerID: ownerID)?.row()
    }

    /// The owner's journeys, newest first.
    public func list(ownerID: UUID, limit: Int = 200) async throws -> [JourneyRow] {
        try await JourneyRecord.query(on: database).filter(\.$owner.$id == ownerID)
            .sort(\.$createdAt, .descending).sort(\.$id).limit(limit).all().map { try $0.row() }
    }

    /// Deletes the journey and its parts; false when the owner has no such journey.
    @discardableResult
    public func delete(_ id: UUID, ownerID: UUID) async throws -> Bool {
        guard let record = try await record(id, ownerID: ownerID) else { return false }
        try await database.transaction { database in
            try await JourneyPartRecord.query(on: database).filter(\.$journey.$id == id).delete()
            try await record.delete(on: database)
        }
        return true
    }

    /// Applies `change` to the owner's journey and writes it; false when it is gone.
    @discardableResult
    public func update(_ id: UUID, ownerID: UUID, now: Date = Date(), _ change: (inout JourneyRow) -> Void) async throws -> Bool {
        guard let record = try await record(id, ownerID: ownerID) else { return false }
        var row = try record.row()
        change(&row)
        row.updatedAt = now
        record.set(row)
        try await record.update(on: database)
        return true
    }

    /// Makes `jobID` the journey's teller if it has none or its teller is `replacing` (a job
    /// that has ended); false when another job holds it. One conditional UPDATE, so two
    /// requests racing to start a teller cannot both win.
    public func claimTeller(_ id: UUID, ownerID: UUID, jobID: UUID, replacing previous: UUID?) async throws -> Bool {
        let sql = try database.requireSQL()
        var query = sql.update(JourneyRecord.schema).set("tell_job_id", to: jobID)
            .where("id", .equal, id).where("owner_id", .equal, ownerID)
        query = if let previous {
            query.where { $0.where("tell_job_id", .is, SQLLiteral.null).orWhere("tell_job_id", .equal, previous) }
        } else {
            query.where("tell_job_id", .is, SQLLiteral.null)
        }
        let rows = try await query.returning("id").all()
        return !rows.isEmpty
    }

    /// Lets go of the journey's teller if it is still `jobID`.
    public func releaseTeller(_ id: UUID, jobID: UUID) async throws {
        try await database.requireSQL().update(JourneyRecord.schema).set("tell_job_id", to: SQLLiteral.null)
            .where("id", .equal, id).where("tell_job_id", .equal, jobID).run()
    }

    // MARK: Parts

    /// The journey's parts begun so far, in order.
    public func parts(of journeyID: UUID) async throws -> [JourneyPartRow] {
        try await JourneyPartRecord.query(on: database).filter(\.$journey.$id == journeyID).sort(\.$number).all().map { try $0.row() }
    }

    public func part(_ number: Int, of journeyID: UUID) async throws -> JourneyPartRow? {
        try await JourneyPartRecord.query(on: database).filter(\.$journey.$id == journeyID).filter(\.$number == number).first()?.row()
    }

    /// Writes the part (new or changed).
    public func save(_ part: JourneyPartRow, now: Date = Date()) async throws {
        let record = try await JourneyPartRecord.find(part.id, on: database) ?? JourneyPartRecord(id: part.id)
        var row = part
        row.updatedAt = now
        record.set(row)
        try await record.save(on: database)
    }

    /// Counts the journey's ready parts into `parts_ready`.
    public func recountReady(_ id: UUID) async throws -> Int {
        let ready = try await JourneyPartRecord.query(on: database).filter(\.$journey.$id == id).filter(\.$status == "ready").count()
        try await JourneyRecord.query(on: database).filter(\.$id == id).set(\.$partsReady, to: ready).set(\.$updatedAt, to: Date()).update()
        return ready
    }

    private func record(_ id: UUID, ownerID: UUID) async throws -> JourneyRecord? {
        try await JourneyRecord.query(on: database).filter(\.$id == id).filter(\.$owner.$id == ownerID).first()
    }
}
