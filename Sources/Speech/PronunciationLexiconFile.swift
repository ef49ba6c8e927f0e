import Foundation

/// Reading a story's lexicon from a file the user edits.
extension PronunciationLexicon {
    /// Why a lexicon file could not be read.
    public struct FileError: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var line: Int?
        public var problem: String
        public var description: String {
            "\(path)\(line.map { ":\($0)" } ?? ""): \(problem). Write one 'word = respelling' per line (# starts a comment), "
                + "phonemes as '| espeak-ng [[fr'amt@n]]' or '| piper [[ˈfɹæmtən]]' after it, "
                + "or a JSON object {\"word\": \"respelling\"} or {\"word\": {\"say\": \"respelling\", \"espeak-ng\": \"phonemes\"}}."
        }
    }

    /// Loads `url`: a JSON object, or plain text with one entry per line. Which one is decided
    /// by the first non-blank character (`{` means JSON).
    ///
    /// Text: `word = how to say it`, blank lines and lines starting with `#` ignored, the key
    /// may be several words (`St John = Sinjun`). After the `=` come parts separated by `|`:
    /// at most one respelling, and `ENGINE [[phonemes]]` for engines that read phonemes
    /// (`Framton = FRAM-tun | espeak-ng [[fr'amt@n]] | piper [[ˈfɹæmtən]]`; a `|` inside the
    /// brackets belongs to the phonemes).
    ///
    /// JSON: word → respelling, or word → object of `say` (the respelling) and engine ids to
    /// phonemes: `{"Framton": {"say": "FRAM-tun", "espeak-ng": "fr'amt@n"}}`.
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
                return PronunciationLexicon(entries: try JSONDecoder().decode([String: Entry].self, from: Data(text.utf8)))
            } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
                throw FileError(path: path, line: nil, problem: "'\(context.codingPath[0].stringValue)' \(context.debugDescription)")
            } catch {
                throw FileError(path: path, line: nil, problem: "is not a JSON object of words to respellings or to objects of strings")
            }
        }
        var lexicon = PronunciationLexicon()
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            func failure(_ problem: String) -> FileError { FileError(path: path, line: number + 1, problem: "'\(line)' \(problem)") }
            guard let equals = line.firstIndex(of: "=") else { throw failure("has no '='") }
            let word = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !word.isEmpty, !value.isEmpty else { throw failure("needs a word before '=' and a respelling or phonemes after it") }
            do {
                lexicon[word] = try Self.entry(from: value)
            } catch {
                throw failure(error.description)
            }
        }
        return lexicon
    }

    /// A problem with one line's value, in words.
    struct ValueProblem: Error, CustomStringConvertible { var description: String }

    /// The entry written after a line's `=`: parts separated by `|` outside `[[ ]]`.
    static func entry(from value: String) throws(ValueProblem) -> Entry {
        var respelling: String?
        var phonemes: [String: String] = [:]
        for part in parts(of: value) {
            let part = part.trimmingCharacters(in: .whitespaces)
            if part.isEmpty { throw ValueProblem(description: "has an empty part between '|'s") }
            guard let open = part.range(of: "[[") else {
                if respelling != nil { throw ValueProblem(description: "gives two respellings (one is allowed; phonemes are written 'ENGINE [[...]]')") }
                if part.contains("]]") { throw ValueProblem(description: "has ']]' without '[['") }
                respelling = part
                continue
            }
            guard part.hasSuffix("]]"), part.distance(from: open.upperBound, to: part.endIndex) >= 2 else {
                throw ValueProblem(description: "has '[[' without a closing ']]' at the end of its part")
            }
            let engine = part[..<open.lowerBound].trimmingCharacters(in: .whitespaces)
            if engine.isEmpty || engine.contains(where: \.isWhitespace) {
                throw ValueProblem(description: "needs one engine name before '[[' (espeak-ng, piper or kokoro)")
            }
            if phonemes[engine] != nil { throw ValueProblem(description: "gives phonemes for \(engine) twice") }
            phonemes[engine] = String(part[open.upperBound..<part.index(part.endIndex, offsetBy: -2)]).trimmingCharacters(in: .whitespaces)
        }
        if let problem = Entry.problem(respelling: respelling, phonemes: phonemes) { throw ValueProblem(description: problem) }
        return Entry(respelling: respelling, phonemes: phonemes)
    }

    /// `value` split at every `|` that is not inside `[[ ]]` (espeak-ng's notation uses `|`).
    static func parts(of value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var index = value.startIndex
        var inside = false
        while index < value.endIndex {
            if value[index...].hasPrefix("[[") {
                inside = true
                index = value.index(index, offsetBy: 2)
                continue
            }
            if inside, value[index...].hasPrefix("]]") {
                inside = false
                index = value.index(index, offsetBy: 2)
                continue
            }
            if !inside, value[index] == "|" {
                parts.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        parts.append(value[start...])
        return parts
    }
}
