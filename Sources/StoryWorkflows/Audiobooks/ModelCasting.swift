import Analysis
import AsyncHTTPClient
import Foundation
import LanguageModels
import Narration
import Platform
import Speech
import StoryModel
import VendorHTTP

/// `narrate --cast-with-llm`: the user's model suggests a voice for every speaking character
/// that the cast file does not already cast. Suggestions naming a voice that is not installed
/// are dropped, and the automatic casting stands for those characters.
public struct ModelCasting: Sendable {
    public var spec: String
    /// Where model answers are cached.
    public var cacheDirectory: URL
    /// Called as each character is cast: (done, total, name).
    public var progress: @Sendable (Int, Int, String) -> Void

    public init(spec: String, cacheDirectory: URL, progress: @escaping @Sendable (Int, Int, String) -> Void = { _, _, _ in }) {
        self.spec = spec
        self.cacheDirectory = cacheDirectory
        self.progress = progress
    }

    /// The cast with the model's choices added, and a sentence saying how many it chose.
    public func suggest(
        analysis: StoryAnalysis, title: String, voices: [Voice], overrides: Cast?, narrator: VoiceAssignment
    ) async throws -> (cast: Cast, summary: String) {
        let modelSpec: ModelSpec
        do {
            modelSpec = try ModelSpec(parsing: spec)
        } catch {
            throw ServiceError(.invalid, code: "invalid_model", "--cast-with-llm \(spec): \(error)")
        }
        let cast = overrides ?? Cast(narrator: narrator, characters: [:])
        let speaking = analysis.characters.filter { cast.characters[$0.id] == nil }
        let options = voices.map { VoiceOption(id: $0.id, gender: $0.gender, age: $0.age, accent: $0.accent, style: $0.style) }
        return try await suggest(speaking, cast: cast, spec: modelSpec, title: title, options: options, client: .vendors)
    }

    private func suggest(
        _ speaking: [Character], cast: Cast, spec modelSpec: ModelSpec, title: String, options: [VoiceOption], client: HTTPClient
    ) async throws -> (cast: Cast, summary: String) {
        var cast = cast
        let suggester: VoiceSuggester
        do {
            let model = try LanguageModelFactory(httpClient: client).makeModel(modelSpec)
            suggester = VoiceSuggester(model: model, cache: try ResponseCache(directory: cacheDirectory))
        } catch let error as LanguageModelError {
            throw ServiceError(.invalid, code: "model_failed", error.message(step: "Voice suggestion", story: title))
        }
        let result: (suggestions: [String: VoiceSuggestion], asked: Int)
        do {
            result = try await suggester.suggest(forUncast: speaking, cast: [], story: title, voices: options) { done, total, character in
                progress(done, total, character.name)
            }
        } catch let error as AnalysisError {
            throw ServiceError(.unavailable, code: "model_failed", error.description)
        }
        for (id, suggestion) in result.suggestions {
            cast.characters[id] = VoiceAssignment(voice: suggestion.voice, rate: suggestion.rate, pitch: suggestion.pitch)
        }
        return (cast, "\(modelSpec) chose voices for \(result.suggestions.count) of \(result.asked) character(s).")
    }
}

/// What a cast's cloud voices would cost for a story, at list prices.
public enum CloudCost {
    /// Nil when every voice in the cast is free.
    public static func of(_ cast: Cast, analysis: StoryAnalysis, text: String, catalog: VoiceCatalog) -> Double? {
        let scalars = ScalarText(text)
        var total = 0.0
        var paid = false
        for segment in analysis.segments {
            let assignment = segment.speaker.flatMap { cast.characters[$0] } ?? cast.narrator
            guard let voice = catalog.voice(id: assignment.voice), voice.costPer1000Characters > 0 else { continue }
            paid = true
            total += voice.cost(of: scalars.string(segment.start, segment.end))
        }
        return paid ? total : nil
    }
}
