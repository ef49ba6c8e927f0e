import Analysis
import ArgumentParser
import AsyncHTTPClient
import Foundation
import LanguageModels
import Narration
import Speech
import StoryModel
import VendorHTTP

/// `narrate --cast-with-llm`: the user's model suggests a voice for every speaking character
/// that the cast file does not already cast. Suggestions naming a voice that is not installed
/// are dropped, and the automatic casting stands for those characters.
struct LLMCasting {
    var spec: String

    func suggest(analysis: StoryAnalysis, title: String, voices: [Voice], overrides: Cast?, narrator: VoiceAssignment) async throws -> Cast {
        let modelSpec: ModelSpec
        do {
            modelSpec = try ModelSpec(parsing: spec)
        } catch {
            throw ValidationError("--cast-with-llm \(spec): \(error)")
        }
        let cast = overrides ?? Cast(narrator: narrator, characters: [:])
        let speaking = analysis.characters.filter { cast.characters[$0.id] == nil }
        let options = voices.map { VoiceOption(id: $0.id, gender: $0.gender, age: $0.age, accent: $0.accent, style: $0.style) }
        let client = HTTPClient.interactive()
        do {
            let result = try await suggest(speaking, cast: cast, spec: modelSpec, title: title, options: options, client: client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func suggest(
        _ speaking: [Character], cast: Cast, spec modelSpec: ModelSpec, title: String, options: [VoiceOption], client: HTTPClient
    ) async throws -> Cast {
        var cast = cast
        let suggester: VoiceSuggester
        do {
            let model = try LanguageModelFactory(httpClient: client).makeModel(modelSpec)
            suggester = VoiceSuggester(model: model, cache: try ResponseCache(directory: ModelOptions.cacheDirectory))
        } catch let error as LanguageModelError {
            throw UserFacingError(error.message(step: "Voice suggestion", story: title))
        }
        let bar = ProgressBar(enabled: Terminal.isStandardErrorInteractive, stream: .standardError)
        defer { bar.finish() }
        let result: (suggestions: [String: VoiceSuggestion], asked: Int)
        do {
            result = try await suggester.suggest(forUncast: speaking, cast: [], story: title, voices: options) { done, total, character in
                bar.update(fraction: Double(done) / Double(max(1, total)), label: "Voice suggestion", detail: character.name)
            }
        } catch let error as AnalysisError {
            throw UserFacingError(error.description)
        }
        for (id, suggestion) in result.suggestions {
            cast.characters[id] = VoiceAssignment(voice: suggestion.voice, rate: suggestion.rate, pitch: suggestion.pitch)
        }
        FileHandle.standardError.write(Data("\(modelSpec) chose voices for \(result.suggestions.count) of \(result.asked) character(s).\n".utf8))
        return cast
    }
}

/// What a cast's cloud voices would cost for a story, at list prices.
enum CloudCost {
    /// Nil when every voice in the cast is free.
    static func of(_ cast: Cast, analysis: StoryAnalysis, text: String, catalog: VoiceCatalog) -> Double? {
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
