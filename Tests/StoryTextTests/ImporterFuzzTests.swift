import Foundation
import StoryModel
@testable import StoryText
import Testing

/// The importers fed random and mutated files, a fixed number of times from fixed seeds (a
/// failure names a reproducible case): each answers a document or an `ImportError`, never a
/// trap, a hang or another kind of error.
@Suite("Importer fuzzing")
struct ImporterFuzzTests {
    /// SplitMix64, so every run tries the same inputs.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func mutate(_ seed: Data, _ random: inout Seeded) -> Data {
        var bytes = [UInt8](seed)
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let interesting: [UInt8] = [0x00, 0x0A, 0x0D, 0x22, 0x3C, 0x3E, 0x26, 0x5B, 0x5D, 0x80, 0xC3, 0xE2, 0xFF, 0x50, 0x4B]
            let byte = Bool.random(using: &random) ? interesting.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            let at = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where at < bytes.count: bytes[at] = byte
            case 1 where at < bytes.count: bytes.remove(at: at)
            case 2 where at + 16 <= bytes.count: bytes.removeSubrange(at..<(at + Int.random(in: 1...16, using: &random)))
            default: bytes.insert(byte, at: at)
            }
        }
        return Data(bytes)
    }

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
        var random = Seeded(state: 7)
        var problems: [String] = []
        for round in 0..<3_000 {
            let (name, seed) = seeds[round % seeds.count]
            let data = round % 5 == 0 ? Data((0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }) : Self.mutate(seed, &random)
            if let problem = Self.load(data, name) { problems.append(problem) }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    @Test("EPUB and story bundles: 600 mutated archives")
    func archives() throws {
        let epub = try EPUBFixtures.epub3()
        let bundle = try StoryBundle(title: "T", author: nil, text: "“Hi,” said Ada.", analysis: nil, cast: nil).archive()
        var random = Seeded(state: 11)
        var problems: [String] = []
        for round in 0..<600 {
            let (name, seed) = round.isMultiple(of: 2) ? ("book.epub", epub) : ("story.storyvoice.zip", bundle)
            if let problem = Self.load(Self.mutate(seed, &random), name) { problems.append(problem) }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
