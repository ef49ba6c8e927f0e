import Analysis
import Foundation
import Jobs
import LanguageModels
import Persistence
import Platform
import StoryModel

/// "Suggest voices with AI": the user's model picks an installed voice, rate and pitch for each
/// speaking character. Voices the user chose themselves are kept; a suggestion naming a voice
/// that is not installed is dropped and offline casting stands for that character.
struct SuggestVoicesHandler: JobHandler {
    let texts: StoryTextFiles
    var dataDirectory: DataDirectory { texts.dataDirectory }
    let narration: any NarrationService
    let models: ModelAccess

    func run(_ job: ClaimedJob, context: JobContext) async throws -> String? {
        let (story, payload) = try await StoryJobs.loadStory(job, context: context, texts: texts)
        let content = try StoryContent(story, dataDirectory: dataDirectory)
        guard let analysis = content.analysis else { throw PermanentJobFailure("Analyse the story before asking for voices.") }
        guard let llm = payload.llm else { throw PermanentJobFailure("Choose a model to suggest voices.") }
        let spec = try ModelAccess.spec(llm)
        // Free voices only: the model must not commit the user to paid speech.
        let voices = try await UserNarration(base: narration, box: models.box).forUser(job.ownerID, database: context.queue.database).narration.voices()
            .filter(\.isFree)
            .map { VoiceOption(id: $0.id, gender: $0.gender, age: $0.age, accent: $0.accent) }
        let (suggestions, asked) = try await ModelRunSummary.modelStep("Voice suggestion", story: story.title) {
            let suggester = VoiceSuggester(model: try await models.model(spec, userID: job.ownerID, database: context.queue.database),
                                           cache: try models.cache(), prices: models.prices)
            return try await suggester.suggest(
                forUncast: analysis.characters, cast: Set(content.overrides.characters.keys), story: story.title, voices: voices
            ) { done, total, character in
                try await context.reportProgress(Double(done) / Double(max(1, total)), message: "Choosing a voice for \(character.name)")
            }
        }

        // On the row as it is now: the user may have chosen voices while the model was thinking; theirs win.
        try await StoryRepository(database: context.queue.database).modify(id: payload.story_id, ownerID: job.ownerID) { fresh in
            var overrides = try StoryContent(fresh, dataDirectory: dataDirectory).overrides
            for (id, suggestion) in suggestions where overrides.characters[id] == nil {
                overrides.characters[id] = VoiceAssignment(voice: suggestion.voice, rate: suggestion.rate, pitch: suggestion.pitch)
            }
            try fresh.store(overrides: overrides)
        }
        return #"{"suggested":\#(suggestions.count),"asked":\#(asked)}"#
    }
}
