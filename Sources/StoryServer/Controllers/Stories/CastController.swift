import Foundation
import Persistence
import Platform
import StoryModel
import StoryWorkflows
import Vapor

/// `/api/stories/:id/characters…`, `…/cast/:role`, `…/lexicon`: the user's corrections to the
/// cast (edit, add, merge characters), their voice choices and the story's pronunciations.
/// Each answers with the whole analysis reply.
struct CastController: Sendable {
    let config: ServerConfig

    func register(routes: any RoutesBuilder) {
        let story = routes.grouped("stories", ":id")
        story.post("characters", use: addCharacter)
        story.patch("characters", ":character", use: editCharacter)
        story.post("characters", ":character", "merge", use: mergeCharacter)
        story.put("cast", ":role", use: setVoice)
        story.delete("cast", ":role", use: restoreVoice)
        story.put("lexicon", use: setLexicon)
    }

    struct CharacterFields: Decodable {
        var name: String?
        var gender: Gender?
        var age_range: AgeRange?
        var accent: String?
        var personality: String?
        var description: String?
        var aliases: [String]?

        var edit: CharacterEdit {
            CharacterEdit(name: name, gender: gender, ageRange: age_range, accent: accent, personality: personality,
                          description: description, aliases: aliases)
        }
    }

    struct MergeRequest: Decodable { var into: String }

    @Sendable
    func editCharacter(_ request: Request) async throws -> Response {
        try await change(request) { stories, story in
            let fields = try request.decodeJSON(CharacterFields.self)
            return try await stories.editCharacter(story, id: request.parameters.get("character") ?? "", fields.edit)
        }
    }

    @Sendable
    func addCharacter(_ request: Request) async throws -> Response {
        try await change(request, status: .created) { stories, story in
            let fields = try request.decodeJSON(CharacterFields.self)
            guard fields.name != nil else { throw APIError.badRequest("Field 'name' is required.", code: "invalid_body") }
            return try await stories.addCharacter(story, fields.edit)
        }
    }

    /// Folds `:character` into `into`: its lines, name and aliases go to the survivor.
    @Sendable
    func mergeCharacter(_ request: Request) async throws -> Response {
        try await change(request) { stories, story in
            let merge = try request.decodeJSON(MergeRequest.self)
            return try await stories.mergeCharacter(story, id: request.parameters.get("character") ?? "", into: merge.into)
        }
    }

    /// Sets the voice of `narrator` or a character id; the reply lists any other role whose
    /// voice changed with it (`also_changed`).
    @Sendable
    func setVoice(_ request: Request) async throws -> Response {
        try await voiceChange(request) { stories, story, role in
            try await stories.setVoice(story, role: role, try request.decodeJSON(VoiceChoice.self))
        }
    }

    /// Forgets the user's choice for a role: the automatic casting applies again.
    @Sendable
    func restoreVoice(_ request: Request) async throws -> Response {
        try await voiceChange(request) { stories, story, role in
            try await stories.restoreVoice(story, role: role)
        }
    }

    private func voiceChange(_ request: Request, _ body: (Stories, StoryRow, String) async throws -> StoryRow) async throws -> Response {
        let stories = try request.stories(config)
        let story = try await request.story(stories)
        let role = request.parameters.get("role") ?? ""
        let before = try await stories.performance(story).cast
        let saved = try await body(stories, story, role)
        return try await PerformanceReply.response(saved, stories, changedFrom: (before, role))
    }

    /// Replaces the story's pronunciation lexicon (`{"entries": {}}` or `{"text": ""}` clears
    /// it). Lines whose engine text changes get new cache keys, so exactly they re-render.
    @Sendable
    func setLexicon(_ request: Request) async throws -> Response {
        try await change(request) { stories, story in
            try await stories.setLexicon(story, try LexiconRequest.lexicon(from: request.decodeJSON(LexiconRequest.self)))
        }
    }

    /// Finds the story, applies `body`, answers with the story's analysis reply.
    private func change(
        _ request: Request, status: HTTPResponseStatus = .ok, _ body: (Stories, StoryRow) async throws -> StoryRow
    ) async throws -> Response {
        let stories = try request.stories(config)
        let saved = try await body(stories, try await request.story(stories))
        return try await PerformanceReply.response(saved, stories, status: status)
    }
}
