import Foundation
import Persistence
import StoryText
import StoryWorkflows
import Vapor

/// `/api/stories`: import (upload or paste), list, read, rename, delete. Scoped to the signed-in
/// user: another user's story id answers 404.
struct StoriesController: Sendable {
    let config: ServerConfig

    /// Registers the upload route on `uploads` (large body limit) and the rest on `routes`.
    func register(routes: any RoutesBuilder, uploads: any RoutesBuilder) {
        uploads.on(.POST, "stories", body: .collect(maxSize: ByteCount(value: config.maxUploadBytes)), use: create)
        let stories = routes.grouped("stories")
        stories.get(use: list)
        stories.get(":id", use: show)
        stories.patch(":id", use: update)
        stories.delete(":id", use: delete)
        stories.get(":id", "bundle", use: bundle)
    }

    struct StorySummary: Codable {
        var id: UUID
        var title: String
        var author: String?
        var imported_at: Date
        var analysis_state: AnalysisState
        var duration_seconds: Double?
        var character_count: Int
    }

    struct StoryDetail: Codable {
        var id: UUID
        var title: String
        var author: String?
        var imported_at: Date
        var analysis_state: AnalysisState
        var duration_seconds: Double?
        var character_count: Int
        /// Left out when asked for without it (`?text=false`).
        var text: String?
    }

    struct StoryList: Codable {
        var stories: [StorySummary]
    }

    struct PasteRequest: Decodable {
        var title: String?
        var author: String?
        var text: String
    }

    struct UploadForm {
        var file: MultipartForm.Part
        var title: String?
        var author: String?
    }

    struct UpdateRequest: Decodable {
        var title: String?
        var author: String?
    }

    // MARK: Handlers

    @Sendable
    func create(_ request: Request) async throws -> Response {
        let user = try request.requireUser()
        let document: ImportedText
        if request.headers.contentType?.type == "multipart" {
            let form = try uploadForm(request)
            document = try ImportedText.upload(data: Data(form.file.body), filename: form.file.filename ?? "", title: form.title, author: form.author)
        } else {
            let paste = try request.decodeJSON(PasteRequest.self)
            document = try ImportedText.paste(text: paste.text, title: paste.title, author: paste.author)
        }

        let story = try await config.library.add(document, ownerID: user.id, database: request.appDatabase)
        let response = try Response.json(try detail(story), status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/stories/\(story.id)")
        return response
    }

    @Sendable
    func list(_ request: Request) async throws -> Response {
        let user = try request.requireUser()
        let stories = try await StoryRepository(database: request.appDatabase).list(ownerID: user.id)
        return try Response.json(StoryList(stories: try stories.map(summary)))
    }

    @Sendable
    func show(_ request: Request) async throws -> Response {
        let story = try await find(request)
        // `?text=false`: the story without its text (a novel's is hundreds of kilobytes).
        let response = try Response.json(try detail(story, withText: try request.booleanQuery("text", default: true)))
        response.headers.replaceOrAdd(name: .eTag, value: StoryVersionTag.tag(story.version))
        return response
    }

    @Sendable
    func update(_ request: Request) async throws -> Response {
        let found = try await find(request)
        let change = try request.decodeJSON(UpdateRequest.self)
        var title: String?
        if let wanted = change.title {
            let trimmed = wanted.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 300 else {
                throw APIError(status: .unprocessableEntity, code: "invalid_title", message: "A title needs 1 to 300 characters.")
            }
            title = trimmed
        }
        let author = change.author.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.map { $0.isEmpty ? nil : String($0.prefix(300)) }
        guard let story = try await StoryRepository(database: request.appDatabase).update(id: found.id, ownerID: try request.requireUser().id, { story in
            if let title { story.title = title }
            if let author { story.author = author }
        }) else { throw APIError.notFound("story") }
        return try Response.json(try summary(story))
    }

    @Sendable
    func delete(_ request: Request) async throws -> HTTPStatus {
        let user = try request.requireUser()
        let id = try request.uuidParameter("id", what: "story")
        guard try await StoryRepository(database: request.appDatabase).delete(id: id, ownerID: user.id) else {
            throw APIError.notFound("story")
        }
        // Its exports go with it; rendered lines stay in the shared cache (other stories may use them).
        try? FileManager.default.removeItem(at: config.dataDirectory.rendersDirectory(story: id))
        try? await config.artifacts.delete(prefix: StoryJobs.rendersKey(story: id))
        return .noContent
    }

    /// The story as a `.storyvoice.zip` (text, analysis, voices) that `POST /api/stories` takes back.
    @Sendable
    func bundle(_ request: Request) async throws -> Response {
        let story = try await find(request)
        let data = try config.library.bundle(of: story).archive()
        let response = Response(status: .ok, body: .init(data: data))
        response.headers.contentType = HTTPMediaType(type: "application", subType: "zip")
        let filename = PlaybackController.filename(story.title) + StoryBundle.fileSuffix
        response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(filename)\"")
        return response
    }

    // MARK: Helpers

    /// The upload's fields, from our own multipart parser (see `MultipartForm` for why).
    private func uploadForm(_ request: Request) throws -> UploadForm {
        let usage = "Send the story as a multipart/form-data form with a 'file' field (and optional 'title' and 'author')."
        guard let boundary = MultipartForm.boundary(in: request.headers.contentType) else {
            throw APIError.badRequest("\(usage) The Content-Type names no usable boundary.", code: "invalid_body")
        }
        let form: MultipartForm
        do {
            form = try MultipartForm(bytes: request.body.data.map { Array($0.readableBytesView) } ?? [], boundary: boundary)
        } catch let failure as MultipartForm.Failure {
            throw APIError.badRequest("\(usage) \(failure.description)", code: "invalid_body")
        }
        guard let file = form.part(named: "file") else {
            throw APIError.badRequest("\(usage) The form has no 'file' field.", code: "invalid_body")
        }
        return UploadForm(file: file, title: form.part(named: "title")?.text, author: form.part(named: "author")?.text)
    }

    private func find(_ request: Request) async throws -> StoryRow {
        let user = try request.requireUser()
        let id = try request.uuidParameter("id", what: "story")
        guard let story = try await StoryRepository(database: request.appDatabase).find(id: id, ownerID: user.id) else {
            throw APIError.notFound("story")
        }
        try await StoryTextFiles(dataDirectory: config.dataDirectory, artifacts: config.artifacts).fetch(for: story)
        return story
    }

    private func summary(_ story: StoryRow) throws -> StorySummary {
        StorySummary(
            id: story.id, title: story.title, author: story.author, imported_at: story.importedAt,
            analysis_state: story.analysisState, duration_seconds: story.durationSeconds, character_count: story.characterCount
        )
    }

    private func detail(_ story: StoryRow, withText: Bool = true) throws -> StoryDetail {
        let text: String?
        if !withText {
            text = nil
        } else if let inline = story.text {
            text = inline
        } else if let path = story.textPath {
            text = String(decoding: try ContentStore(dataDirectory: config.dataDirectory).read(path), as: UTF8.self)
        } else {
            text = ""
        }
        return StoryDetail(
            id: story.id, title: story.title, author: story.author, imported_at: story.importedAt,
            analysis_state: story.analysisState, duration_seconds: story.durationSeconds,
            character_count: story.characterCount, text: text
        )
    }
}
