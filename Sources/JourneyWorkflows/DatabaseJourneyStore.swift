import Foundation
import Journeys
import ObjectStorage
import Persistence
import StoryModel

/// A journey's story kept in the database (outline and parts) and the artifact store (each
/// sentence's WAV under `journeys/{owner}/{journey}/`, on this disk or in the shared bucket).
struct DatabaseJourneyStore: JourneyStore {
    let repository: JourneyRepository
    let artifacts: any ArtifactStore
    let folder: String
    let journeyID: UUID
    let ownerID: UUID

    init(repository: JourneyRepository, artifacts: any ArtifactStore, journeyID: UUID, ownerID: UUID) {
        self.repository = repository
        self.artifacts = artifacts
        self.folder = JourneyJobs.folder(journeyID: journeyID, ownerID: ownerID)
        self.journeyID = journeyID
        self.ownerID = ownerID
    }

    func outline() async throws -> StoryOutline? {
        guard let json = try await journey().outlineJSON else { return nil }
        return try JSONDecoder().decode(StoryOutline.self, from: Data(json.utf8))
    }

    func save(_ outline: StoryOutline) async throws {
        let json = String(decoding: try JSONEncoder().encode(outline), as: UTF8.self)
        try await mustExist(try await repository.update(journeyID, ownerID: ownerID) { record in
            record.outlineJSON = json
            record.title = outline.title.isEmpty ? nil : outline.title
        })
    }

    func part(_ number: Int) async throws -> JourneyPart? {
        try await repository.part(number, of: journeyID).map(Self.part)
    }

    func parts() async throws -> [JourneyPart] {
        try await repository.parts(of: journeyID).map(Self.part)
    }

    func save(_ part: JourneyPart) async throws {
        var record = try await repository.part(part.number, of: journeyID)
            ?? JourneyPartRow(id: UUID.random(), journeyID: journeyID, number: part.number, beat: part.beat, now: Date())
        let wasReady = record.status == JourneyPart.Status.ready.rawValue
        record.status = part.status.rawValue
        record.beat = part.beat
        record.fallback = part.fallback
        record.attempts = part.attempts
        record.sentencesJSON = String(decoding: try JSONEncoder().encode(part.sentences), as: UTF8.self)
        _ = try await journey()
        try await repository.save(record)
        if part.status == .ready, !wasReady { _ = try await repository.recountReady(journeyID) }
    }

    func writeAudio(_ wav: Data, part: Int, sentence: Int) async throws -> String {
        _ = try await journey()
        // A part written again gets new names, so a player never gets the old sentence's audio.
        let name = "p\(part)-s\(sentence)-\(UUID.random().uuidString.prefix(8).lowercased()).wav"
        try await artifacts.keep(wav, as: "\(folder)/\(name)", contentType: "audio/wav")
        // Deleted meanwhile: the delete removed the folder before this file was in it.
        if try await repository.find(journeyID, ownerID: ownerID) == nil {
            try? await artifacts.delete(prefix: folder)
            throw JourneyGone()
        }
        return name
    }

    func removeAudio(_ files: [String]) async throws {
        for file in files { try? await artifacts.delete("\(folder)/\(file)") }
    }

    /// The journey, or a permanent failure when it was deleted while being told.
    private func journey() async throws -> JourneyRow {
        guard let record = try await repository.find(journeyID, ownerID: ownerID) else { throw JourneyGone() }
        return record
    }

    private func mustExist(_ found: Bool) throws {
        if !found { throw JourneyGone() }
    }

    static func part(_ record: JourneyPartRow) throws -> JourneyPart {
        JourneyPart(
            number: record.number, status: JourneyPart.Status(rawValue: record.status) ?? .writing, beat: record.beat,
            fallback: record.fallback, sentences: try JSONDecoder().decode([PartSentence].self, from: Data(record.sentencesJSON.utf8)),
            attempts: record.attempts)
    }
}

/// The journey was deleted while its story was being told.
struct JourneyGone: Error, CustomStringConvertible {
    var description: String { "The journey was deleted." }
}

/// A journey's story in memory, its audio in a folder: for `storyvoice journey tell`, which
/// keeps nothing but the audiobook it writes.
public actor MemoryJourneyStore: JourneyStore {
    public nonisolated let folder: URL
    private var storedOutline: StoryOutline?
    private var kept: [Int: JourneyPart] = [:]

    public init(folder: URL) {
        self.folder = folder
    }

    public func outline() -> StoryOutline? { storedOutline }
    public func save(_ outline: StoryOutline) { storedOutline = outline }
    public func part(_ number: Int) -> JourneyPart? { kept[number] }
    public func save(_ part: JourneyPart) { kept[part.number] = part }
    public func parts() -> [JourneyPart] { allParts }
    public var allParts: [JourneyPart] { kept.keys.sorted().compactMap { kept[$0] } }

    public func writeAudio(_ wav: Data, part: Int, sentence: Int) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = "p\(part)-s\(sentence)-\(UUID.random().uuidString.prefix(8).lowercased()).wav"
        try wav.write(to: folder.appendingPathComponent(name))
        return name
    }

    public func removeAudio(_ files: [String]) {
        for file in files { try? FileManager.default.removeItem(at: folder.appendingPathComponent(file)) }
    }
}
