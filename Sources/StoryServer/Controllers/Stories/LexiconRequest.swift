import Speech
import Vapor

/// A lexicon as JSON entries (word → respelling, or → `{"say", "espeak-ng", "piper"}`) or as
/// the text a `--lexicon` file holds (`word = respelling | espeak-ng [[...]]`), which is what
/// the web app's box sends.
struct LexiconRequest: Decodable {
    var entries: [String: PronunciationLexicon.Entry]?
    var text: String?
    /// Why an entry could not be taken (neither respelling nor phonemes, phonemes for an
    /// engine that reads none): a 422 like the other lexicon problems, not malformed JSON.
    var entryProblem: String?

    enum CodingKeys: String, CodingKey { case entries, text }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decodeIfPresent(String.self, forKey: .text)
        do {
            entries = try container.decodeIfPresent([String: PronunciationLexicon.Entry].self, forKey: .entries)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.count > 1 {
            entryProblem = "'\(context.codingPath[context.codingPath.count - 1].stringValue)' \(context.debugDescription)."
        }
    }
}

extension LexiconRequest {
    static let lexiconLimits = (entries: 500, word: 100, spelling: 200)

    static func lexicon(from body: LexiconRequest) throws -> PronunciationLexicon {
        func invalid(_ message: String) -> APIError { APIError(status: .unprocessableEntity, code: "invalid_lexicon", message: message) }
        if let problem = body.entryProblem { throw invalid("The entry for \(problem)") }
        let lexicon: PronunciationLexicon
        switch (body.entries, body.text) {
        case (let entries?, nil):
            guard entries.keys.allSatisfy({ !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) else {
                throw invalid("An entry has no word; each entry is a word or phrase and how to say it.")
            }
            lexicon = PronunciationLexicon(entries: entries)
        case (nil, let text?):
            do {
                lexicon = try PronunciationLexicon.parse(text)
            } catch let error as PronunciationLexicon.FileError {
                throw invalid("\(error.line.map { "Line \($0): " } ?? "")\(error.problem). Write one 'word = respelling' per line, "
                              + "with phonemes for espeak-ng or Piper after it as '| espeak-ng [[fr'amt@n]]' or '| piper [[fɹˈæmtən]]'.")
            }
        default:
            throw invalid("Send the lexicon as either 'entries' (an object of words) or 'text' (one 'word = respelling' per line).")
        }
        let limits = lexiconLimits
        guard lexicon.entries.count <= limits.entries else {
            throw invalid("A story's lexicon holds at most \(limits.entries) words.")
        }
        for (word, entry) in lexicon.entries {
            let spellings = [entry.respelling].compactMap { $0 } + entry.phonemes.values
            guard word.count <= limits.word, spellings.allSatisfy({ $0.count <= limits.spelling }) else {
                throw invalid("Each entry is a word or phrase (up to \(limits.word) characters) and its respelling or phonemes (up to \(limits.spelling) each).")
            }
        }
        return lexicon
    }
}
