import CloudSpeech
import Testing

@Suite("Text chunking")
struct TextChunkerTests {
    @Test("Short text is one piece, trimmed")
    func short() {
        #expect(TextChunker.chunks("  Hello there.  ", limit: 100) == ["Hello there."])
        #expect(TextChunker.chunks(" \n ", limit: 100).isEmpty)
    }

    @Test("Sentences are packed greedily and never split when they fit")
    func sentences() {
        let text = "One two. Three four five! “Six?” she asked. Seven."
        #expect(TextChunker.chunks(text, limit: 20) == ["One two.", "Three four five!", "“Six?” she asked.", "Seven."])
        #expect(TextChunker.chunks(text, limit: 30) == ["One two. Three four five!", "“Six?” she asked. Seven."])
    }

    @Test("Decimals and initials inside words do not end a sentence; line breaks do")
    func boundaries() {
        #expect(TextChunker.chunks("It cost 3.5 pounds. Then more.", limit: 22) == ["It cost 3.5 pounds.", "Then more."])
        #expect(TextChunker.chunks("A heading\nThe first line of text", limit: 25) == ["A heading", "The first line of text"])
    }

    @Test("A sentence over the limit is cut after clauses, then between words, then mid-word")
    func longSentence() {
        let text = "Slowly, carefully, without a sound, she crossed the hall"
        let pieces = TextChunker.chunks(text, limit: 20)
        #expect(pieces == ["Slowly, carefully,", "without a sound,", "she crossed the hall"])
        #expect(TextChunker.chunks("abcdefghij", limit: 4) == ["abcd", "efgh", "ij"])
    }

    @Test("Pieces respect the limit and keep every character, for many limits", arguments: [8, 13, 40, 97, 500])
    func invariants(limit: Int) {
        let text = String(repeating: "He said, “Wait!” Then — nothing at all; the door… opened? Yes. ", count: 20)
        let pieces = TextChunker.chunks(text, limit: limit)
        #expect(pieces.allSatisfy { !$0.isEmpty && $0.unicodeScalars.count <= limit })
        let squeeze = { (s: String) in s.unicodeScalars.filter { !$0.properties.isWhitespace }.map(String.init).joined() }
        #expect(squeeze(pieces.joined()) == squeeze(text))
    }
}
