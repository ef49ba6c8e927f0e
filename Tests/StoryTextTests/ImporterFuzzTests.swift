import Foundation
import StoryModel
@testable import StoryText
import TestSupport
import Testing

/// The importers fed random and mutated files, a fixed number of times from fixed seeds (a
/// failure names a reproducible case): each answers a document or an `ImportError`, never a
/// trap, a hang or another kind of error.
@Suite("Importer fuzzing")
struct ImporterFuzzTests {
    static func load(_ data: Data, _ filename: String) -> String? {
        do {
            _ = try StoryImporter.load(data: data, filename: filename, limits: ImportLimits(maxTextBytes: 1 << 20))
            return nil
        } catch is ImportError {
            return nil
        } catch {
            return "\(filename): \(type(of: error)) \(error)"
        }
    }

    @Test("text, Markdown and HTML: 3,000 mutated and random files")
    func markup() throws {
        let seeds: [(String, Data)] = [
            ("story.txt", Data("“Hello,” said Vera. ‘Nested’ quotes — and CRLF\r\nlines.\n\nCHAPTER II\n\nMore.".utf8)),
            ("story.md", Data("# Title\n\n*Italic* and **bold**, a [link](x) and `code`.\n\n> quote\n\n- list\n".utf8)),
            ("story.html", Data("<!DOCTYPE html [<!ENTITY a \"b\">]><html><head><title>T</title><style>p{}</style></head><body><h1>One</h1><p>A &amp; B &#x201C;q&#8221; <br/>x</p><!-- c --><script>x</script></body></html>".utf8)),
        ]
        var random = SeededGenerator(seed: 7)
        var problems: [String] = []
        for round in 0..<3_000 {
            let (name, seed) = seeds[round % seeds.count]
            let data = round % 5 == 0 ? Data(random.bytes(Int.random(in: 0...200, using: &random))) : Data(random.mutate([UInt8](seed), edits: 1...8))
            if let problem = Self.load(data, name) { problems.append(problem) }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    @Test("EPUB and story bundles: 600 mutated archives")
    func archives() throws {
        let epub = try EPUBFixtures.epub3()
        let bundle = try StoryBundle(title: "T", author: nil, text: "“Hi,” said Ada.", analysis: nil, cast: nil).archive()
        var random = SeededGenerator(seed: 11)
        var problems: [String] = []
        for round in 0..<600 {
            let (name, seed) = round.isMultiple(of: 2) ? ("book.epub", epub) : ("story.storyvoice.zip", bundle)
            if let problem = Self.load(Data(random.mutate([UInt8](seed), edits: 1...8)), name) { problems.append(problem) }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
