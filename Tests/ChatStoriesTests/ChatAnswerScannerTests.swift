@testable import ChatStories
import Foundation
import Testing

/// The answer read as it is written: each person and message once complete, however the text
/// is cut, and the same parts as the whole answer parsed at once.
struct ChatAnswerScannerTests {
    static let answer = "Here you go:\n```json\n" + #"""
        {"title": "The \"key\"", "characters": [{"name": "Sam", "is_me": false}, {"name": "Jo", "is_me": true}],
         "messages": [{"from": "Sam", "text": "who has the key? {not} [json]"}, {"from": "Jo", "text": "I do 🔑\n\"mine\""},
                      {"from": "Sam", "text": "check again"}]}
        """# + "\n```\nHope you like it! {\"title\": \"ignored\"}"

    @Test("fed a byte at a time, each part is complete the moment its object closes, and the whole gives what JSON parsing gives")
    func partsAsTheyClose() throws {
        var scanner = ChatAnswerScanner()
        let bytes = Array(Self.answer.utf8)
        var counts: [Int] = []
        var completions = 0
        var index = 0
        while index < bytes.count {
            // Whole UTF-8 sequences: a piece of a model's answer is text.
            var end = index + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            if scanner.feed(String(decoding: bytes[index..<end], as: UTF8.self)) { completions += 1 }
            counts.append(scanner.parts.messages.count)
            index = end
        }
        // The count rises one message at a time, and only once the message's object has closed.
        #expect(counts == counts.sorted() && Set(counts).sorted() == [0, 1, 2, 3])
        let firstClose = try #require(Self.answer.utf8.firstIndex(of: UInt8(ascii: "]")).map { Self.answer.utf8.distance(from: Self.answer.utf8.startIndex, to: $0) })
        #expect(counts.firstIndex(of: 1).map { $0 > firstClose } == true, "a message before the people were complete")
        #expect(completions == 1 + 2 + 3, "the title, two people, three messages")

        let whole = try #require(ChatGeneratedAnswer.jsonObject(in: Self.answer))
        #expect(scanner.parts == ChatAnswerParts(whole))
        #expect(scanner.parts.title == #"The "key""#)
        #expect(scanner.parts.messages[1].text == "I do 🔑\n\"mine\"")
        #expect(scanner.parts.people.map(\.name) == ["Sam", "Jo"])
    }

    @Test("cut anywhere, the parts are those of the text so far; a partial conversation is a prefix of the final one")
    func cutAnywhere() throws {
        let request = ChatGenerationRequest(prompt: "a key", length: .short)
        let padded = Self.answer.replacingOccurrences(of: #"{"from": "Sam", "text": "check again"}"#,
                                                      with: #"{"from": "Sam", "text": "check again"}, {"from": "Jo", "text": "no"}, {"from": "Sam", "text": "fine"}"#)
        let final = try ChatGeneratedAnswer.conversation(from: padded, for: request).get()
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            var scanner = ChatAnswerScanner()
            var rest = Substring(padded)
            while !rest.isEmpty {
                let piece = rest.prefix(Int.random(in: 1...12, using: &rng))
                rest = rest.dropFirst(piece.count)
                scanner.feed(String(piece))
                guard let partial = ChatGeneratedAnswer.partial(from: scanner.parts, for: request) else { continue }
                #expect(partial.characters == final.characters)
                #expect(Array(final.messages.prefix(partial.messages.count)) == partial.messages)
            }
            #expect(ChatGeneratedAnswer.partial(from: scanner.parts, for: request)?.messages == final.messages)
        }
    }

    @Test("words with braces before the answer, nested values and an answer that never closes")
    func oddAnswers() {
        var scanner = ChatAnswerScanner()
        scanner.feed(#"{"characters": [{"name": "A", "extra": {"deep": [1, {"x": "}"}]}}, {"name": "B"}], "messages": [{"from": "A", "text": "hi"}, {"from": "B", "te"#)
        #expect(scanner.parts.people.map(\.name) == ["A", "B"])
        #expect(scanner.parts.messages.map(\.text) == ["hi"])
        #expect(scanner.parts.title == nil)
    }
}
