import Foundation
import LanguageModels
import VendorHTTP

// A loopback language model for tests of the labelling passes: it reads the prompts StoryVoice
// sends (in each vendor's wire format) and answers in that vendor's format.

/// Which kind of request a recorded one is, by its schema's name.
public func schemaName(_ request: RecordedRequest) -> String? {
    request.json?["response_format"]?["json_schema"]?["name"]?.stringValue
        ?? request.json?["tool_choice"]?["name"]?.stringValue
}

/// The ids listed on the prompt's last line ("Label these spans: S1, S4").
public func listedIDs(_ user: String, after marker: String) -> [String] {
    guard let line = user.split(separator: "\n").last(where: { $0.hasPrefix(marker) }) else { return [] }
    return line.dropFirst(marker.count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
}

/// A loopback "model" that labels every span with `speaker(span)` and describes characters
/// with evidence quoted from `text` (or invented, when `inventEvidence`).
public func labeller(
    _ provider: Provider = .openai, text: String, inventEvidence: Bool = false,
    speaker: @escaping @Sendable (String) -> String
) -> LoopbackServer.Handler {
    { request in
        guard let prompt = VendorWire.prompt(of: request, provider: provider) else {
            return VendorWire.error(provider, status: 400, message: "unreadable request")
        }
        if schemaName(request) == "character_profiles" || prompt.user.contains("Describe each of these characters:") {
            let ids = listedIDs(prompt.user, after: "Describe each of these characters: ")
            let quote = inventEvidence ? "words that are nowhere in this story at all" : String(text.split(separator: "\n").first { $0.count > 30 } ?? "")
            let characters: [JSONValue] = ids.map { id in
                [
                    "id": .string(id),
                    "gender": ["value": "female", "evidence": .string(quote)],
                    "ageRange": ["value": "adult", "evidence": .string(quote)],
                    "accent": ["value": "unknown", "evidence": ""],
                    "personality": ["value": "brisk and kind", "evidence": .string(quote)],
                    "description": ["value": "the heroine's neighbour", "evidence": .string(quote)],
                ]
            }
            return VendorWire.success(provider, answer: JSONValue.object(["characters": .array(characters)]).canonicalText, for: request)
        }
        let spans = listedIDs(prompt.user, after: "Label these spans: ")
        let labels: [JSONValue] = spans.map { ["span": .string($0), "speaker": .string(speaker($0))] }
        return VendorWire.success(provider, answer: JSONValue.object(["labels": .array(labels)]).canonicalText, for: request)
    }
}

