import Foundation

/// Reading a story's lexicon from a file the user edits.
extension PronunciationLexicon {
    /// Why a lexicon file could not be read.
    public struct FileError: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var line: Int?
        public var problem: String
        public var description: String {
            "\(path)\(line.map { ":\($0)" } ?? ""): \(problem). Write one 'word = respelling' per line (# starts a comment), or a JSON object {\"word\": \"respelling\"}."
        }
    }

    /// Loads `url`: a JSON object `{"Hermione": "her-MY-oh-nee"}`, or plain text with one
    /// `word = respelling` per line (blank lines and lines starting with `#` ignored; the key
    /// may be several words, e.g. `St John = Sinjun`). Which one is decided by the first
    /// non-blank character (`{` means JSON).
    public static func load(contentsOf url: URL) throws -> PronunciationLexicon {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw FileError(path: url.path, line: nil, problem: "cannot be read as UTF-8 text (\(error.localizedDescription))")
        }
        return try parse(text, path: url.path)
    }

    /// Parses the contents of a lexicon file (see `load(contentsOf:)`); `path` names it in errors.
    public static func parse(_ text: String, path: String = "lexicon") throws -> PronunciationLexicon {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") {
            do {
                return PronunciationLexicon(try JSONDecoder().decode([String: String].self, from: Data(text.utf8)))
            } catch {
                throw FileError(path: path, line: nil, problem: "is not a JSON object of strings to strings")
            }
        }
        var lexicon = PronunciationLexicon()
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw FileError(path: path, line: number + 1, problem: "'\(line)' has no '='")
            }
            let word = line[..<equals].trimmingCharacters(in: .whitespaces)
            let respelling = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !word.isEmpty, !respelling.isEmpty else {
                throw FileError(path: path, line: number + 1, problem: "'\(line)' needs a word before '=' and a respelling after it")
            }
            lexicon[word] = respelling
        }
        return lexicon
    }
}
